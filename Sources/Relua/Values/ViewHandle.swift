import Lua

/// A state view as Lua holds it: a light userdata whose bits are the generation of the session
/// that made it, whether it shows the session's own state (its root), and the view's slot in that
/// session's table of views. Making one allocates nothing, in Lua or in Swift, and leaves nothing
/// for the collector; it goes stale as soon as its session ends, since the generation moves on.
/// (Light userdata share one metatable per Lua state: `StateViews` owns it, and scripts cannot
/// make light userdata of their own.)
///
/// Bits, high to low: 38 of generation, 1 root flag, 24 of slot, and a tag bit, always 1. The
/// root flag lets the metamethods read and write the session's own state without looking up the
/// view's path (a root view is never detached: only children are). The tag makes every handle
/// odd, where Lua aligns the memory of a full userdata to at least 8 bytes: what `lua_touserdata`
/// gives for a full userdata can never pass for a view, so the shim's short path for own fields
/// compares bits without asking Lua for the receiver's type first.
struct ViewHandle: Equatable {
  static let slotBits = 24
  /// Views one reducer call can make (children, elements it walks).
  static let slotLimit = 1 << slotBits
  static let generationMask: UInt64 = (1 << (62 - UInt64(slotBits))) - 1
  private static let tagBit: UInt64 = 1
  private static let slotShift: UInt64 = 1
  private static let rootBit: UInt64 = 1 << UInt64(slotBits + 1)
  private static let generationShift = UInt64(slotBits + 2)

  /// The session's generation, truncated to the bits a handle keeps (never 0).
  let generation: UInt64
  let slot: Int
  /// Whether the view shows its session's own state (the path is empty, nothing detached).
  let isRoot: Bool

  init(generation: UInt64, slot: Int, isRoot: Bool) {
    self.generation = generation & Self.generationMask
    self.slot = slot
    self.isRoot = isRoot
  }

  /// The handle a light userdata holds (nil for NULL).
  @inline(__always)
  init?(_ pointer: UnsafeMutableRawPointer?) {
    guard let pointer else { return nil }
    let bits = UInt64(UInt(bitPattern: pointer))
    generation = bits >> Self.generationShift
    isRoot = bits & Self.rootBit != 0
    slot = Int(bits >> Self.slotShift & UInt64(Self.slotLimit - 1))
  }

  var pointer: UnsafeMutableRawPointer {
    let bits = generation << Self.generationShift | (isRoot ? Self.rootBit : 0) | UInt64(slot) << Self.slotShift | Self.tagBit
    return UnsafeMutableRawPointer(bitPattern: UInt(bits))!
  }
}

/// The views of the running session, by slot: where each looks (the container at its path in the
/// session's state, or, once detached, a value of its own) and the child views made from it.
/// Kept as separate tables so that making a view appends one path (no copies of a struct holding
/// a `Value`, which go through generic value witnesses).
struct ViewSlots {
  private var paths: [ValuePath] = []
  /// Views whose slot was overwritten (`t[i] = other`, or an element shifted by `table.insert`/
  /// `table.remove`/`table.sort`) keep the value they had, apart from the state, as a Lua table
  /// moved out of its parent would. This is what makes `t[i], t[j] = t[j], t[i]` swap, and
  /// `table.remove` return the element it removed.
  private var detachedValues: [Int: Value] = [:]
  /// Child views made so far (reused for the rest of the session, so `s.counter` is one view
  /// however often it is read).
  private var childSlots: [Int: [PathComponent: Int]] = [:]

  /// Slot 0 is the session's own state, at `rootPath`: always there.
  init(rootPath: ValuePath) {
    paths.reserveCapacity(8)
    paths.append(rootPath)
  }

  var count: Int { paths.count }

  /// A new slot; returns its number.
  mutating func append(path: ValuePath, detached: Value? = nil) -> Int {
    paths.append(path)
    if let detached { detachedValues[paths.count - 1] = detached }
    return paths.count - 1
  }

  func path(of slot: Int) -> ValuePath { paths[slot] }

  func detached(_ slot: Int) -> Value? { detachedValues.isEmpty ? nil : detachedValues[slot] }

  mutating func modifyDetached(_ slot: Int, _ body: (inout Value) -> Void) { body(&detachedValues[slot]!) }

  var hasChildren: Bool { !childSlots.isEmpty }

  func child(of slot: Int, _ component: PathComponent) -> Int? {
    childSlots.isEmpty ? nil : childSlots[slot]?[component]
  }

  mutating func setChild(of slot: Int, _ component: PathComponent, to child: Int) {
    childSlots[slot, default: [:]][component] = child
  }

  /// Detaches the child view at `component` of `slot` (and its own children) with `value`, the
  /// value the slot held before it was overwritten.
  mutating func detachChild(of slot: Int, _ component: PathComponent, oldValue: Value) {
    guard let child = childSlots[slot]?.removeValue(forKey: component) else { return }
    detach(child, value: oldValue)
  }

  private mutating func detach(_ slot: Int, value: Value) {
    detachedValues[slot] = value
    guard let children = childSlots.removeValue(forKey: slot) else { return }
    for (component, child) in children { detach(child, value: value[component]) }
  }

  /// Forgets every view (the session ended) but slot 0, keeping the storage. A session that made
  /// no view but its root's (most handlers) has nothing else to forget: detached values and
  /// children are only ever other slots.
  @inline(__always)
  mutating func removeAll() {
    guard paths.count > 1 else { return }
    paths.removeSubrange(1...)
    if !detachedValues.isEmpty { detachedValues.removeAll(keepingCapacity: true) }
    if !childSlots.isEmpty { childSlots.removeAll(keepingCapacity: true) }
  }
}

/// Where the script code that triggered a metamethod stands (`chunk:line: `), for messages.
func luaCallerLocation(_ L: LuaRawStack) -> String {
  L.scriptLocation.map { "\($0): " } ?? ""
}
