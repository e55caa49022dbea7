import CLua
import CLuaShim

/// The Lua version this build links (504 for 5.4).
public enum LuaVersion {
  /// `LUA_VERSION_NUM`: 504 for Lua 5.4.
  public static var number: Int { Int(LUA_VERSION_NUM) }
  /// The release, as `"Lua 5.4.6"`.
  public static var release: String { "Lua \(LUA_VERSION_MAJOR).\(LUA_VERSION_MINOR).\(LUA_VERSION_RELEASE)" }
  /// `LUA_COPYRIGHT`: the release and its copyright line, as `lua -v` prints it
  /// (`"Lua 5.4.6  Copyright (C) 1994-2023 Lua.org, PUC-Rio"`).
  public static var copyright: String { String(cString: relua_copyright()) }
}
