/// The Lua half of `require "relua"`: the declarations of the feature DSL. They only check their
/// arguments (raising at the script's line) and build tagged tables; the Swift host compiles a
/// feature into Composable reducers the first time a store runs it (`FeatureCompiler`).
///
/// The chunk receives the host's primitives (`host`) and returns the module table.
enum ReluaPrelude {
  static let chunkName = "=[relua]"

  /// Sources/Relua/Lua/prelude.lua, read once per process (`ReluaLuaSource`).
  static let source = ReluaLuaSource.text("prelude.lua")
}
