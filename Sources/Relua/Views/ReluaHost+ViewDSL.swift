import Lua

/// `relua.ui`: the view DSL's constructors (Sources/Relua/Lua/views.lua), a table of the module.
extension ReluaHost {
  static let viewDSLSource = ReluaLuaSource.text("views.lua")

  /// Loads views.lua and sets its table as `module.ui`.
  func installViewDSL(into module: LuaTable) throws {
    let chunk = try lua.load(Self.viewDSLSource, name: "=[relua ui]")
    guard let ui = try lua.call(chunk).first, ui.tableValue != nil else {
      throw ReluaError.usage("relua's view DSL did not return its table")
    }
    try module.rawSet("ui", ui)
  }
}
