import CLua
import CLuaShim

/// A Swift class exposed to Lua as a userdata type: one metatable per Swift type, with a locked
/// `__metatable` (Lua's `getmetatable` returns the type name), `__name` for messages, and `__gc`
/// releasing the Swift object exactly once.
public final class LuaUserdataType<T: AnyObject> {
  /// The type's name (`__name`): how Lua's messages and `getmetatable` name it.
  public let name: String
  /// The metatable. `__index` is `methods` unless a `__index` method was given.
  public let metatable: LuaTable
  /// The methods table (`obj:method(...)`).
  public let methods: LuaTable
  let metatableReference: Int32
  @usableFromInline let metatableIdentity: UnsafeRawPointer

  init(name: String, metatable: LuaTable, methods: LuaTable, reference: Int32, identity: UnsafeRawPointer) {
    self.name = name
    self.metatable = metatable
    self.methods = methods
    self.metatableReference = reference
    self.metatableIdentity = identity
  }

  /// The object at `position`, or `bad argument #position (Name expected, got ...)`.
  @inline(__always)
  public func object(in stack: LuaStack, at position: Int) throws(LuaError) -> T {
    guard let object = objectIfPresent(at: Int32(position), in: stack.L) else {
      throw stack.typeError(name, at: position)
    }
    return object
  }

  /// The object at `index` of a raw stack, or nil when that is not one of this type.
  @inline(__always)
  package func object(at index: Int32, in L: OpaquePointer) -> T? { objectIfPresent(at: index, in: L) }

  /// The object at `index` of a raw stack, unretained (the stack holds it for as long as the
  /// call runs: use it through `_withUnsafeGuaranteedRef`); nil when that is not one of this type.
  /// Inlinable: a hot entry point (`store:send`) checks its receiver with it on every call.
  @inlinable @inline(__always)
  package func unmanagedObject(at index: Int32, in L: OpaquePointer) -> Unmanaged<T>? {
    guard let box = relua_toobject(L, index, metatableIdentity), let context = box.pointee.context else { return nil }
    return Unmanaged<T>.fromOpaque(context)
  }

  /// `unmanagedObject(at:in:)` for the receiver of a hot function (`store:send`), usually the
  /// same object call after call: the shim remembers the last one it accepted.
  @inlinable @inline(__always)
  package func unmanagedReceiver(at index: Int32, in L: OpaquePointer) -> Unmanaged<T>? {
    guard let box = relua_tocheckedobject(L, index, metatableIdentity), let context = box.pointee.context else { return nil }
    return Unmanaged<T>.fromOpaque(context)
  }

  func objectIfPresent(at index: Int32, in L: OpaquePointer) -> T? {
    unmanagedObject(at: index, in: L)?.takeUnretainedValue()
  }

  /// Pushes a new userdata holding `object` (retained until Lua collects the userdata).
  package func push(_ object: T, onto L: OpaquePointer) {
    relua_pushobject(L, Unmanaged.passRetained(object).toOpaque(), luaReleaseBox, metatableReference)
  }
}

extension LuaState {
  /// Registers a Swift class as a Lua userdata type. Methods receive the object (type-checked
  /// `self`, argument #1) and the stack (their own arguments start at position 2). Names starting
  /// with `__` are metamethods (`__tostring`, `__eq`, `__index`...); `__gc`, `__name` and
  /// `__metatable` are reserved. `rawMethods` are the allocation-free form for hot paths: they push
  /// their results on the stack and return `.values(n)` (or `.yield(n)`).
  @discardableResult
  public func register<T: AnyObject>(
    type: T.Type, name: String, methods: [String: (T, LuaStack) throws -> [LuaValue]] = [:],
    rawMethods: [String: (T, LuaStack) throws -> LuaReturn] = [:]
  ) throws -> LuaUserdataType<T> {
    if userdataType(for: T.self) != nil { throw LuaError.conversion("\(T.self) is already registered") }
    let L = try currentThread()
    try reserve(L, 4)
    let top = lua_gettop(L)
    defer { lua_settop(L, top) }
    let reference = relua_newobjectmetatable(L, name)
    let identity = lua_topointer(L, -1)!
    let metatable = LuaTable(handle: handle, at: -1, in: L)
    lua_createtable(L, 0, Int32(clamping: methods.count))
    let methodsTable = LuaTable(handle: handle, at: -1, in: L)
    let userdataType = LuaUserdataType<T>(
      name: name, metatable: metatable, methods: methodsTable, reference: reference, identity: identity)
    var hasIndex = false
    var functions: [(String, LuaFunction)] = []
    for (methodName, body) in methods {
      functions.append((methodName, try function { [typeName = name] stack in
        guard let object = userdataType.objectIfPresent(at: 1, in: stack.L) else {
          throw stack.typeError(typeName, at: 1)
        }
        return try body(object, stack)
      }))
    }
    for (methodName, body) in rawMethods {
      functions.append((methodName, try rawFunction { [typeName = name] stack in
        guard let object = userdataType.objectIfPresent(at: 1, in: stack.L) else {
          throw stack.typeError(typeName, at: 1)
        }
        return try body(object, stack)
      }))
    }
    for (methodName, function) in functions {
      guard !["__gc", "__name", "__metatable"].contains(methodName) else {
        throw LuaError.conversion("'\(methodName)' is reserved for the userdata type")
      }
      if methodName.hasPrefix("__") {
        hasIndex = hasIndex || methodName == "__index"
        try metatable.rawSet(.text(methodName), .function(function))
      } else {
        try methodsTable.rawSet(.text(methodName), .function(function))
      }
    }
    if !hasIndex { try metatable.rawSet("__index", .table(methodsTable)) }
    addUserdataType(userdataType)
    return userdataType
  }

  /// A userdata holding `object`, of its registered type.
  public func userdata<T: AnyObject>(_ object: T) throws -> LuaUserdata {
    guard let userdataType = userdataType(for: T.self) else {
      throw LuaError.conversion("\(T.self) is not registered as a Lua userdata type")
    }
    let L = try currentThread()
    try reserve(L, 2)
    userdataType.push(object, onto: L)
    defer { lua_settop(L, -2) }
    return LuaUserdata(handle: handle, at: -1, in: L)
  }
}
