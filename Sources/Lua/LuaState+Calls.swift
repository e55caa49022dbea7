import CLua
import CLuaShim

extension LuaState {
  // MARK: Loading

  /// Compiles a chunk without running it. `name` is the chunk name used in messages: `"@path"`
  /// (messages read `path:3:`), `"=text"` (verbatim), or a plain name (treated as `"=name"`).
  /// Sandboxed states accept text chunks only.
  public func load(_ source: String, name: String = "chunk") throws -> LuaFunction {
    var source = source
    return try source.withUTF8 { bytes in
      try load(bytes: UnsafeRawBufferPointer(bytes), name: name)
    }
  }

  /// Compiles a chunk given as bytes (text, or binary in trusted states).
  public func load(bytes: UnsafeRawBufferPointer, name: String = "chunk") throws -> LuaFunction {
    let L = try currentThread()
    try reserve(L, 2)
    let top = lua_gettop(L)
    defer { lua_settop(L, top) }
    let chunkName = name.hasPrefix("@") || name.hasPrefix("=") ? name : "=" + name
    let status = relua_load(
      L, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), bytes.count, chunkName, chunkMode)
    guard status == LUA_OK else { throw failure(status: status, on: L, traceback: nil) }
    return LuaFunction(handle: handle, at: -1, in: L)
  }

  /// Compiles a file; messages read `path:line:`. A first line starting with `#` is skipped.
  public func load(file path: String) throws -> LuaFunction {
    let L = try currentThread()
    try reserve(L, 2)
    let top = lua_gettop(L)
    defer { lua_settop(L, top) }
    let status = relua_loadfile(L, path, chunkMode)
    guard status == LUA_OK else { throw failure(status: status, on: L, traceback: nil) }
    return LuaFunction(handle: handle, at: -1, in: L)
  }

  /// Compiles and runs a chunk; returns what it returns.
  @discardableResult
  public func execute(_ source: String, name: String = "chunk") throws -> [LuaValue] {
    try call(load(source, name: name))
  }

  /// Compiles and runs a file; returns what it returns.
  @discardableResult
  public func execute(file path: String, arguments: [LuaValue] = []) throws -> [LuaValue] {
    try call(load(file: path), arguments: arguments)
  }

  private var chunkMode: String { isTrusted ? "bt" : "t" }

  // MARK: Calling

  /// Calls a Lua function (protected, with a traceback on errors) and returns all its results.
  @discardableResult
  public func call(_ function: LuaFunction, _ arguments: LuaValue...) throws -> [LuaValue] {
    try call(function, arguments: arguments)
  }

  /// Calls a Lua function (protected, with a traceback on errors) with an array of arguments;
  /// returns all its results.
  @discardableResult
  public func call(_ function: LuaFunction, arguments: [LuaValue]) throws -> [LuaValue] {
    try call(function, argumentCount: arguments.count) { L in
      for argument in arguments { try push(argument, onto: L) }
    }
  }

  /// Calls with any pushable Swift values as arguments (`[1, 2]`, `["a": 1]`, `"text"`, `3`...).
  @discardableResult
  public func call(_ function: LuaFunction, pushing arguments: [any LuaPushable]) throws -> [LuaValue] {
    try call(function, argumentCount: arguments.count) { L in
      let stack = LuaStack(L, self)
      for argument in arguments { try argument.push(onto: stack) }
    }
  }

  /// Calls `function` with arguments pushed straight onto the raw stack by `pushArguments`, and
  /// hands its results (`first` stack index, `count`) to `readResults` before they are popped:
  /// the allocation-free form of `call` for hot paths. Protected, errors typed as for `call`.
  package func callRaw<R>(
    _ function: LuaFunction, argumentCount: Int, pushArguments: (OpaquePointer) throws -> Void,
    readResults: (_ L: OpaquePointer, _ first: Int32, _ count: Int32) throws -> R
  ) throws -> R {
    try callRaw(
      registryReference: function.reference(in: handle), argumentCount: argumentCount, pushArguments: pushArguments,
      readResults: readResults)
  }

  /// `callRaw` of the function under a registry reference of this state, for an owner that keeps
  /// the function alive (`LuaRef.registryReference`) and calls it on every event of a hot path.
  /// Inlined into the caller, with its two closures: no call through a closure context.
  @inlinable @inline(__always)
  package func callRaw<R>(
    registryReference reference: Int32, argumentCount: Int, pushArguments: (OpaquePointer) throws -> Void,
    readResults: (_ L: OpaquePointer, _ first: Int32, _ count: Int32) throws -> R
  ) throws -> R {
    let L = try currentThread()
    let top = relua_pushcall(L, Int32(clamping: argumentCount + 5), reference)
    guard top >= 0 else { throw LuaError.memory(message: "Lua stack overflow") }
    defer { lua_settop(L, top) }
    try pushArguments(L)
    let status = relua_pcallwith(L, Int32(argumentCount), LUA_MULTRET, top + 1)
    guard status == LUA_OK else { throw callFailure(status: status, on: L) }
    return try readResults(L, top + 2, lua_gettop(L) - top - 1)
  }

  /// The error of a failed protected call (its traceback taken when the message handler ran):
  /// the error object on top of `L`, the shim's message handler below it.
  @usableFromInline
  package func callFailure(status: Int32, on L: OpaquePointer) -> LuaError {
    let traceback = status == LUA_ERRRUN || status == LUA_ERRERR ? takeTraceback(L) : nil
    return failure(status: status, on: L, traceback: traceback)
  }

  private func call(
    _ function: LuaFunction, argumentCount: Int, pushArguments: (OpaquePointer) throws -> Void
  ) throws -> [LuaValue] {
    try callRaw(function, argumentCount: argumentCount, pushArguments: pushArguments) { L, first, count in
      values(from: first, to: first + count - 1, in: L)
    }
  }
}
