import Composable
import Lua

/// A `store:send` from inside another store's reducer (a re-entrant send; TCA 1.25 warns of it):
/// refused whole, with a warning on this store naming the line. One reducer session runs at a
/// time, so it failed before too, but midway: after this store's transaction had begun on the
/// views' one undo log, losing the other send's writes from its rollback. (A send from inside the
/// store's own reducer, and one to a dismissed store, are the engine's: `Store.senderPlace`.)
extension LuaStoreObject {
  @inline(never)
  func sendFromAnotherStoresReducer(fromLua L: LuaRawStack) throws -> Int32 {
    let place = L.scriptLocation ?? "store:send"
    let name = L.type(at: 2) == .string ? L.stringBytes(at: 2).map { String(decoding: $0, as: UTF8.self) } ?? "?" : "?"
    if views.isDrawing {
      throw LuaError.runtime(
        message: "\(place): store:send(\"\(name)\") was called from inside a view: a view draws the state and sends nothing (a ui.button or a bound control sends its action when it is worked)",
        traceback: nil)
    }
    store.warn(
      "\(place): store:send(\"\(name)\") was called from inside a reducer (a re-entrant send) of another store. Return an effect instead (Effect.run, which may send to this store); TCA 1.25 warns of this too and will refuse it.")
    throw LuaError.runtime(
      message: "\(place): store:send(\"\(name)\") was called from inside another store's reducer: a store's reducer cannot run while another's runs. Return an effect instead (Effect.run, which may send to this store)",
      traceback: nil)
  }
}
