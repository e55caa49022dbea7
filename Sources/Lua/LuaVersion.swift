import CLua
import CLuaShim
public enum LuaVersion { public static var number: Int { Int(relua_shim_version()) } }
