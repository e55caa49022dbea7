import CLua
import CLuaShim
import Lua

// The metamethods of a state view. Each checks the view is current, finds its container by path
// and works on the state in place. Errors are thrown (the C trampoline raises them in Lua after
// Swift has returned) and start with the Lua caller's `chunk:line:`.
extension StateViews {
  func staleError(_ L: OpaquePointer) -> LuaError {
    .runtime(message: luaCallerLocation(L) + Self.staleMessage, traceback: nil)
  }

  private func pathError(_ L: OpaquePointer, _ path: ValuePath, _ message: String) -> LuaError {
    .runtime(message: luaCallerLocation(L) + describePath(path, root: rootName) + ": " + message, traceback: nil)
  }

  /// The container a view shows; throws when its path no longer leads to one (e.g. the element
  /// it showed was removed).
  private func container(of view: StateView, _ L: OpaquePointer) throws -> Value {
    guard view.isValid else { throw staleError(L) }
    let container = view.detached ?? value[path: view.path]
    guard container.isContainer else { throw pathError(L, view.path, "this part of the state no longer exists") }
    return container
  }

  /// The slot a Lua key names in `container` and what is in it (`.null` when empty); nil when
  /// the key cannot name a slot there. Record keys are looked up by their bytes: an existing
  /// key's stored string is reused, so a read makes no Swift string.
  private func slot(forKeyAt index: Int32, in container: Value, _ L: OpaquePointer) -> (PathComponent, Value)? {
    switch container {
    case .record(let record):
      guard lua_type(L, index) == LUA_TSTRING else { return nil }
      var length = 0
      let bytes = UnsafeRawBufferPointer(start: lua_tolstring(L, index, &length), count: length)
      let (position, found) = record.search(bytes: bytes)
      if found { return (.key(record.fields[position].key), record.fields[position].value) }
      guard let key = String(validating: bytes, as: UTF8.self) else { return nil }
      return (.key(key), .null)
    case .array, .identified:
      guard lua_type(L, index) == LUA_TNUMBER else { return nil }
      var isInteger: Int32 = 0
      let key = lua_tointegerx(L, index, &isInteger)
      guard isInteger != 0, let position = Int(exactly: key) else { return nil }
      return (.index(position - 1), container[position - 1])
    default: return nil
    }
  }

  func index(_ view: StateView, _ stack: LuaStack) throws -> LuaReturn {
    let L = stack.unsafeState
    let container = try container(of: view, L)
    guard let (component, child) = slot(forKeyAt: 2, in: container, L) else {
      lua_pushnil(L)
      return .values(1)
    }
    try pushChild(of: view, component, child, onto: L)
    return .values(1)
  }

  func newIndex(_ view: StateView, _ stack: LuaStack) throws -> LuaReturn {
    let L = stack.unsafeState
    let component: PathComponent
    let change: SlotChange
    let old: Value
    let new: Value
    let isIdentified: Bool
    do {
      // Everything that reads the container happens in this scope, so no reference to it is
      // alive when it is written (which would force a copy of it).
      let container = try container(of: view, L)
      guard let (key, oldValue) = slot(forKeyAt: 2, in: container, L) else {
        let keyType = String(cString: lua_typename(L, lua_type(L, 2)))
        throw pathError(L, view.path, container.recordValue != nil
          ? "records have string keys only (got a \(keyType) key)"
          : "sequences have integer keys 1…n only (got a \(keyType) key)")
      }
      component = key
      old = oldValue
      let hint: Value? = old.isNull ? container.arrayValue?.first ?? container.identifiedValue?.elements.first : old
      new = try read(at: 3, in: L, root: rootName, path: view.path, component: key, hint: hint)
      if case .identified = container { isIdentified = true } else { isIdentified = false }
      do {
        change = try container.plannedChange(at: key, to: new)
      } catch {
        throw pathError(L, view.path + [key], error.message)
      }
    }
    if case .none = change { return .none }
    if view.detached != nil {
      // A value moved out of the state: changing it changes only it, as with a plain table.
      view.detached!.apply(change, at: component, new)
      return .none
    }
    undoLog.record(.init(containerPath: view.path, component: component, change: change, old: old))
    value.modify(at: view.path) { $0.apply(change, at: component, new) }
    if isIdentified { positionallyWrittenCollections.insert(view.path) }
    if !view.children.isEmpty, old.isContainer {
      detachChild(of: view, component, oldValue: old, L)
    }
    return .none
  }

  func length(_ view: StateView, _ stack: LuaStack) throws -> LuaReturn {
    let L = stack.unsafeState
    let container = try container(of: view, L)
    lua_pushinteger(L, container.recordValue == nil ? lua_Integer(container.count) : 0)
    return .values(1)
  }

  func pairs(_ view: StateView, _ stack: LuaStack) throws -> LuaReturn {
    let L = stack.unsafeState
    _ = try container(of: view, L)
    try stack.reserve(3)
    try stack.push(LuaValue.function(pairsIteratorFunction))
    lua_pushvalue(L, 1)
    lua_pushnil(L)
    return .values(3)
  }

  /// The `next` of `pairs(view)`: records in key order, sequences 1…n.
  func nextEntry(_ stack: LuaStack) throws -> LuaReturn {
    let L = stack.unsafeState
    guard let view = view(at: 1, in: L) else { throw stack.typeError("StateView", at: 1) }
    let container = try container(of: view, L)
    try stack.reserve(3)
    switch container {
    case .record(let record):
      let previous: String? = lua_type(L, 2) == LUA_TSTRING ? try stack.string(at: 2) : nil
      guard let key = record.key(after: previous) else { break }
      pushLuaString(key, onto: L)
      try pushChild(of: view, .key(key), record[key], onto: L)
      return .values(2)
    default:
      let previous = lua_type(L, 2) == LUA_TNIL ? 0 : try stack.int(at: 2)
      guard previous < container.count else { break }
      lua_pushinteger(L, lua_Integer(previous + 1))
      try pushChild(of: view, .index(previous), container[previous], onto: L)
      return .values(2)
    }
    lua_pushnil(L)
    return .values(1)
  }
}
