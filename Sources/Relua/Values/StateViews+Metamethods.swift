import Lua

// The metamethods of a state view. Each checks the view is current, finds its container by path
// and works on the state in place. Errors are thrown (the C trampoline raises them in Lua after
// Swift has returned) and start with the Lua caller's `chunk:line:`.
extension StateViews {
  func staleError(_ L: LuaRawStack) -> LuaError {
    .runtime(message: luaCallerLocation(L) + Self.staleMessage, traceback: nil)
  }

  private func pathError(_ L: LuaRawStack, _ path: ValuePath, _ message: String) -> LuaError {
    .runtime(message: luaCallerLocation(L) + describePath(path, root: rootName) + ": " + message, traceback: nil)
  }

  /// The slot of the view the metamethod was called on (argument 1).
  @inline(__always)
  private func receiver(_ L: LuaRawStack) throws -> Int {
    guard let slot = try liveSlot(at: 1, in: L) else { throw staleError(L) }
    return slot
  }

  /// The container a view shows; throws when its path no longer leads to one (e.g. the element
  /// it showed was removed).
  private func container(ofSlot slot: Int, _ L: LuaRawStack) throws -> Value {
    let container = viewedValue(slot)
    guard container.isContainer else { throw pathError(L, slots.path(of: slot), "this part of the state no longer exists") }
    return container
  }

  /// The slot a Lua key names in `container` and what is in it (`.null` when empty); nil when
  /// the key cannot name a slot there. Record keys are looked up by their bytes: an existing
  /// key's stored string is reused, so a read makes no Swift string.
  /// For records, `fieldPosition` is where the key is (or would be inserted); -1 otherwise.
  private func slot(
    forKeyAt index: Int32, in container: Value, _ L: LuaRawStack
  ) -> (component: PathComponent, value: Value, fieldPosition: Int)? {
    switch container {
    case .record(let record):
      guard L.type(at: index) == .string, let bytes = L.stringBytes(at: index) else { return nil }
      let (position, found) = record.search(bytes: bytes)
      if found { return (.key(record.fields[position].key), record.fields[position].value, position) }
      guard let key = String(validating: bytes, as: UTF8.self) else { return nil }
      return (.key(key), .null, position)
    case .array, .identified:
      // (`math.mininteger` names no slot: its position less one would overflow.)
      guard L.type(at: index) == .number, let key = L.integer(at: index), let position = Int(exactly: key), position > Int.min
      else { return nil }
      return (.index(position - 1), container[position - 1], -1)
    default: return nil
    }
  }

  /// An empty table is whatever its first write makes it (`{}` has no kind of its own in Lua):
  /// an empty record written at key 1 becomes a sequence, an empty sequence written at a string
  /// key a record. The change is logged, so a rollback gives the empty table back as it was. The
  /// session's own state stays a record; identified collections (composed) stay what they are.
  private func retypeIfEmpty(_ view: Int, _ path: ValuePath, _ L: LuaRawStack) throws {
    let keyType = L.type(at: 2)
    let retyped: Value
    switch viewedValue(view) {
    case .record(let record) where record.isEmpty && keyType == .number: retyped = .array([])
    case .array(let elements) where elements.isEmpty && keyType == .string: retyped = .record(ValueRecord())
    default: return
    }
    if slots.detached(view) != nil {
      slots.modifyDetached(view) { $0 = retyped }
      return
    }
    guard let last = path.last else { return }
    let parent = Array(path.dropLast())
    undoLog.record(.init(containerPath: parent, component: last, change: .replaced, old: viewedValue(view)))
    value[path: path] = retyped
  }

  /// `__index` (the general path: the shim's short path declined; see `StateViews+OwnFields`).
  func index(_ L: LuaRawStack) throws -> Int32 {
    guard let view = try liveSlot(at: 1, in: L) else { throw staleError(L) }
    let container = try container(ofSlot: view, L)
    guard let (component, child, _) = slot(forKeyAt: 2, in: container, L) else {
      L.pushNil()
      return 1
    }
    try pushChild(ofSlot: view, component, child, onto: L)
    return 1
  }

  /// `__newindex` (the general path: the shim's short path declined; see `StateViews+OwnFields`).
  func newIndex(_ L: LuaRawStack) throws -> Int32 {
    guard let view = try liveSlot(at: 1, in: L) else { throw staleError(L) }
    let path = slots.path(of: view)
    try retypeIfEmpty(view, path, L)
    let component: PathComponent
    let change: SlotChange
    let old: Value
    let new: Value
    let fieldPosition: Int
    let isIdentified: Bool
    do {
      // Everything that reads the container happens in this scope, so no reference to it is
      // alive when it is written (which would force a copy of it).
      let container = try container(ofSlot: view, L)
      guard let (key, oldValue, position) = slot(forKeyAt: 2, in: container, L) else {
        let keyType = L.typeName(at: 2)
        throw pathError(L, path, container.recordValue != nil
          ? "records have string keys only (got a \(keyType) key)"
          : "sequences have integer keys 1…n only (got a \(keyType) key)")
      }
      component = key
      old = oldValue
      fieldPosition = position
      let hint: Value? = old.isNull ? container.arrayValue?.first ?? container.identifiedValue?.elements.first : old
      new = try read(at: 3, in: L, root: rootName, path: path, component: key, hint: hint)
      if case .identified = container { isIdentified = true } else { isIdentified = false }
      do {
        change = try container.plannedChange(at: key, to: new)
      } catch {
        throw pathError(L, path + [key], error.message)
      }
    }
    if case .none = change { return 0 }
    if let willGrow, new.isContainer || old.isNull || new.stringValue != nil {
      do {
        try willGrow(new.estimatedBytes + (old.isNull ? Value.slotBytes + 24 : 0))
      } catch let error as LuaError {
        throw LuaError.runtime(message: luaCallerLocation(L) + "\(error)", traceback: nil)
      }
    }
    if slots.detached(view) != nil {
      // A value moved out of the state: changing it changes only it, as with a plain table.
      slots.modifyDetached(view) { $0.apply(change, at: component, new) }
      return 0
    }
    undoLog.record(.init(containerPath: path, component: component, change: change, old: old))
    if fieldPosition >= 0, case .key(let key) = component {
      // A record field: written where the key was found (no second search).
      if path.isEmpty {
        value.setField(at: fieldPosition, found: !old.isNull, key: key, new)
      } else {
        value.modify(at: path) { $0.setField(at: fieldPosition, found: !old.isNull, key: key, new) }
      }
    } else if path.isEmpty {
      value.apply(change, at: component, new)
    } else {
      value.modify(at: path) { $0.apply(change, at: component, new) }
    }
    if isIdentified { positionallyWrittenCollections.insert(path) }
    if slots.hasChildren, old.isContainer {
      slots.detachChild(of: view, component, oldValue: old)
    }
    return 0
  }

  func length(_ L: LuaRawStack) throws -> Int32 {
    let container = try container(ofSlot: receiver(L), L)
    L.push(integer: container.recordValue == nil ? Int64(container.count) : 0)
    return 1
  }

  func pairs(_ L: LuaRawStack) throws -> Int32 {
    _ = try container(ofSlot: receiver(L), L)
    try L.reserve(3)
    try pairsIteratorFunction.push(onto: L)
    L.pushCopy(of: 1)
    L.pushNil()
    return 3
  }

  /// The `next` of `pairs(view)`: records in key order, sequences 1…n.
  func nextEntry(_ L: LuaRawStack) throws -> Int32 {
    guard let view = try liveSlot(at: 1, in: L) else {
      throw LuaError.argument(position: 1, message: "StateView expected, got \(L.typeName(at: 1))")
    }
    let container = try container(ofSlot: view, L)
    try L.reserve(3)
    switch container {
    case .record(let record):
      var previous: String?
      if L.type(at: 2) == .string, let bytes = L.stringBytes(at: 2) {
        previous = String(decoding: bytes, as: UTF8.self)
      }
      guard let key = record.key(after: previous) else { break }
      L.push(string: key)
      try pushChild(ofSlot: view, .key(key), record[key], onto: L)
      return 2
    default:
      let previous = L.type(at: 2) == .nil ? 0 : Int(L.integerValue(at: 2))
      guard previous >= 0, previous < container.count else { break }
      L.push(integer: Int64(previous + 1))
      try pushChild(ofSlot: view, .index(previous), container[previous], onto: L)
      return 2
    }
    L.pushNil()
    return 1
  }

  /// `tostring(view)`: `StateView: state.path`, `(stale)` once its session ended.
  func describe(_ L: LuaRawStack) throws -> Int32 {
    let text: String
    if let slot = try? liveSlot(at: 1, in: L) {
      text = "StateView: " + describePath(slots.path(of: slot), root: rootName)
    } else {
      text = "StateView (stale)"
    }
    L.push(string: text)
    return 1
  }
}
