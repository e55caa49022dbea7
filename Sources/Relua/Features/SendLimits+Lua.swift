import Composable
import Lua

extension SendLimits {
  /// `limits = { actionsPerSend = n, effectsInFlight = n }` in a store's options (absent: the defaults).
  init(luaOptions options: LuaTable?) throws {
    self = .default
    guard let limits = try options?["limits"], !limits.isNil else { return }
    guard let table = limits.tableValue else {
      throw ReluaError.usage("limits: expected a table { actionsPerSend = n, effectsInFlight = n }, got \(limits.type)")
    }
    func positive(_ key: String) throws -> Int? {
      let value = try table.rawGet(.text(key))
      if value.isNil { return nil }
      guard let number = value.integerValue, number >= 1, let exact = Int(exactly: number) else {
        throw ReluaError.usage("limits.\(key): expected a positive integer")
      }
      return exact
    }
    for (key, _) in try table.pairs() {
      guard let name = key.stringValue, ["actionsPerSend", "effectsInFlight"].contains(name) else {
        throw ReluaError.usage("limits: unknown limit \(key.stringValue ?? key.type.description) (known: actionsPerSend, effectsInFlight)")
      }
    }
    if let actions = try positive("actionsPerSend") { maxActionsPerSend = actions }
    if let effects = try positive("effectsInFlight") { maxEffectsInFlight = effects }
  }
}
