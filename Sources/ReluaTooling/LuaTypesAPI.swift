import Foundation
import Relua

/// relua's Lua API as lua-language-server annotations: the start of the `relua.lua` that `relua
/// types` writes. It declares what docs/DSL.md documents, under the names the host gives it
/// (`ReluaPrelude`, `ReluaHost`, `LuaDependencies`, the store objects, `LuaTestDeclarations`,
/// `LuaTestAssertions`, `LuaTestLuassert`). `relua.Store` and `relua.TestStore` are written after
/// it by `LuaTypesWriter`, with an overload for each feature of the run.
///
/// Classes of values are named apart from the tables that make them, as lua-language-server's
/// own library does (`string` the type, `stringlib` the table): `relua.Effect` is an effect, the
/// table `relua.Effect` of constructors is a `relua.EffectLib`; `relualib` is the module.
enum LuaTypesAPI {
  /// Sources/ReluaTooling/Lua/types_api.lua, read once per process (`ReluaLuaSource`).
  static let source = ReluaLuaSource.text(
    "types_api.lua", in: ReluaLuaSource.resourceDirectory(target: "ReluaTooling", bundle: Bundle.module),
    target: "ReluaTooling")
}
