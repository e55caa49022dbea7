import CLua
import CLuaShim
import Lua

/// A live view of the container at `path` in the state of one session: the Swift object inside
/// the Lua userdata a reducer receives. It holds no value, only where to find it, so reads and
/// writes go straight to the state in place. It is valid while its session's generation is the
/// host's current one.
final class StateView {
  let host: StateViews
  let generation: UInt64
  let path: ValuePath
  /// Child views made for this one, with the registry references that keep their userdata
  /// (reused for the rest of the session, so `s.counter` is one userdata however often it is
  /// read). Released when the session ends.
  @exclusivity(unchecked) var children: [PathComponent: (reference: Int32, view: StateView)] = [:]
  /// Set when the slot this view showed was overwritten (`t[i] = other`, or an element shifted
  /// by `table.insert`/`table.remove`/`table.sort`): the view then keeps the value it had, apart
  /// from the state, as a Lua table moved out of its parent would. This is what makes
  /// `t[i], t[j] = t[j], t[i]` swap, and `table.remove` return the element it removed.
  @exclusivity(unchecked) var detached: Value?

  init(host: StateViews, generation: UInt64, path: ValuePath) {
    self.host = host
    self.generation = generation
    self.path = path
  }

  var isValid: Bool { host.isActive && host.generation == generation }
}

/// Where the Lua code that triggered a metamethod stands (`chunk:line: `), for messages.
func luaCallerLocation(_ L: OpaquePointer) -> String {
  var record = lua_Debug()
  for level: Int32 in 1...3 {
    guard lua_getstack(L, level, &record) != 0, lua_getinfo(L, "Sl", &record) != 0 else { return "" }
    if record.currentline > 0 {
      let source = withUnsafeBytes(of: &record.short_src) { bytes in
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
      }
      return "\(source):\(record.currentline): "
    }
  }
  return ""
}
