import Foundation
import Relua

/// Where the runner's Lua (Lua/test_*.lua: the busted declarations, luassert, the assertions, the
/// module loader) is: this target's resources, found as Relua's own are (`ReluaLuaSource`).
enum ReluaTestingResources {
  static let luaDirectory = ReluaLuaSource.resourceDirectory(target: "ReluaTesting", bundle: Bundle.module)
}
