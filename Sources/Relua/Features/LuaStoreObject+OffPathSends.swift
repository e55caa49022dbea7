import Composable
import Lua

/// The sends `store:send` takes out of its common path: to a store that dismissed itself (refused,
/// a warning naming the sender's line), and from inside a reducer (a warning naming its line, as
/// TCA 1.25 warns: to its own store the action is queued after the current one, as before; to
/// another store the send fails, as before, but whole: nothing of it runs).
extension LuaStoreObject {
  @inline(never)
  func sendOffTheCommonPath(fromLua L: LuaRawStack) throws -> Int32 {
    let place = L.scriptLocation ?? "store:send"
    if store.isDismissed {
      guard L.type(at: 2) == .string else { return try sendResolving(fromLua: L) }
      let payload = L.top >= 3 ? try host.views.read(at: 3, in: L, root: host.views.rootName, path: [], hint: nil) : .null
      store.refuseSendAfterDismissal(try resolver.resolve(luaStringAt: 2, in: L, payload: payload), sentFrom: place)
      return push(StoreTask(), onto: L)
    }
    let name = L.type(at: 2) == .string ? L.stringBytes(at: 2).map { String(decoding: $0, as: UTF8.self) } ?? "?" : "?"
    if store.isSending {
      // Its own reducer sent to it: queued after the current action, as before.
      store.warn(
        "\(place): store:send(\"\(name)\") was called from inside a reducer of this store (a re-entrant send); the action is queued after the current one. Return an effect instead (Effect.send, or send in Effect.run); TCA 1.25 warns of this too and will refuse it.")
      guard L.type(at: 2) == .string else { return try sendResolving(fromLua: L) }
      let payload = L.top >= 3 ? try host.views.read(at: 3, in: L, root: host.views.rootName, path: [], hint: nil) : .null
      store.enqueueWhileSending(try resolver.resolve(luaStringAt: 2, in: L, payload: payload))
      return push(StoreTask(), onto: L)
    }
    // Another store's reducer runs: this store's cannot run inside it (one reducer session at a
    // time; the send failed before, midway, and its undo lost the other send's). Refused whole.
    store.warn(
      "\(place): store:send(\"\(name)\") was called from inside a reducer (a re-entrant send) of another store. Return an effect instead (Effect.run, which may send to this store); TCA 1.25 warns of this too and will refuse it.")
    throw LuaError.runtime(
      message: "\(place): store:send(\"\(name)\") was called from inside another store's reducer: a store's reducer cannot run while another's runs. Return an effect instead (Effect.run, which may send to this store)",
      traceback: nil)
  }
}
