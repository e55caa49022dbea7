import CLua
import CLuaShim

/// A state view as Lua holds it: a light userdata whose bits are the generation of the session
/// that made it and the view's slot in that session's table of views. Making one allocates
/// nothing, in Lua or in Swift, and leaves nothing for the collector; it goes stale as soon as
/// its session ends, since the generation moves on. (Light userdata share one metatable per Lua
/// state: `StateViews` owns it, and scripts cannot make light userdata of their own.)
struct ViewHandle: Equatable {
  static let slotBits = 24
  /// Views one reducer call can make (children, elements it walks).
  static let slotLimit = 1 << slotBits
  static let generationMask: UInt64 = (1 << (64 - UInt64(slotBits))) - 1

  /// The session's generation, truncated to the bits a handle keeps (never 0).
  let generation: UInt64
  let slot: Int

  init(generation: UInt64, slot: Int) {
    self.generation = generation & Self.generationMask
    self.slot = slot
  }

  /// The handle a light userdata holds (nil for NULL).
  @inline(__always)
  init?(_ pointer: UnsafeMutableRawPointer?) {
    guard let pointer else { return nil }
    let bits = UInt64(UInt(bitPattern: pointer))
    generation = bits >> UInt64(Self.slotBits)
    slot = Int(bits & UInt64(Self.slotLimit - 1))
  }

  var pointer: UnsafeMutableRawPointer {
    UnsafeMutableRawPointer(bitPattern: UInt(generation << UInt64(Self.slotBits) | UInt64(slot)))!
  }
}

/// Where a view of the running session looks: the container at `path` in the session's state, or,
/// once `detached`, a value of its own.
struct ViewSlot {
  let path: ValuePath
  /// Set when the slot this view showed was overwritten (`t[i] = other`, or an element shifted
  /// by `table.insert`/`table.remove`/`table.sort`): the view then keeps the value it had, apart
  /// from the state, as a Lua table moved out of its parent would. This is what makes
  /// `t[i], t[j] = t[j], t[i]` swap, and `table.remove` return the element it removed.
  var detached: Value?
  /// Child views made for this one (slots), reused for the rest of the session, so `s.counter`
  /// is one view however often it is read.
  /// (Optional rather than empty: the empty dictionary is a shared immortal object, and retaining
  /// one of those takes the runtime's slow path.)
  var children: [PathComponent: Int]?

  init(path: ValuePath, detached: Value? = nil) {
    self.path = path
    self.detached = detached
  }
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
