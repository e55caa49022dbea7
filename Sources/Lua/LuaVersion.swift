import CLua

/// The Lua version this build links (504 for 5.4).
public enum LuaVersion {
  public static var number: Int { Int(LUA_VERSION_NUM) }
  public static var release: String { "Lua \(LUA_VERSION_MAJOR).\(LUA_VERSION_MINOR).\(LUA_VERSION_RELEASE)" }
}
