import CLua
import CLuaShim

/// The body of a raw Swift function: reads its arguments and pushes its results on the stack
/// itself, and says how many it returns (or yields). No allocation per call beyond its own.
public typealias LuaRawFunctionBody = (LuaStack) throws -> LuaReturn

/// The leanest Swift function (see `LuaState.cFunction`): called with the Lua thread and the
/// context object it was made with; returns `LuaReturn.status` or `LuaState.raiseStatus(_:on:)`.
package typealias LuaCFunction = @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Int32

extension LuaState {
  /// A Lua function calling `callback` with `context` (retained until Lua collects the function),
  /// through the same trampoline as every Swift function but without a closure or a `LuaStack`:
  /// for the few functions on hot paths (state views' metamethods, `store:send`). The callback
  /// must not raise: it returns a status, and the trampoline raises after it has returned.
  package func cFunction(_ callback: LuaCFunction, context: AnyObject) throws -> LuaFunction {
    try makeCFunction(callback, context: context, hot: false)
  }

  /// `cFunction` for the state's hottest function (a store's `send`): the first one made in a
  /// state is called without the trampoline reading its upvalue (≈ 40 instructions a call); later
  /// ones are ordinary `cFunction`s. Same contract otherwise.
  package func hotCFunction(_ callback: LuaCFunction, context: AnyObject) throws -> LuaFunction {
    try makeCFunction(callback, context: context, hot: true)
  }

  private func makeCFunction(_ callback: LuaCFunction, context: AnyObject, hot: Bool) throws -> LuaFunction {
    let L = try currentThread()
    try reserve(L, 3)
    let retained = Unmanaged.passRetained(context).toOpaque()
    if hot {
      relua_pushhotfunction(L, callback, retained, luaReleaseBox)
    } else {
      relua_pushfunction(L, callback, retained, luaReleaseBox)
    }
    defer { lua_settop(L, -2) }
    return LuaFunction(handle: handle, at: -1, in: L)
  }

  /// The arguments of a `LuaCFunction`'s call on thread `L`, as a closure's `LuaStack`.
  package func stack(of L: OpaquePointer) -> LuaStack { LuaStack(L, self) }

  /// The status a `LuaCFunction` returns to raise `error` (same conversions as closures' errors).
  package func raiseStatus(_ error: any Error, on L: OpaquePointer) -> Int32 { raise(error, on: L) }

  /// A Lua function calling a Swift closure with its arguments; returns the closure's values.
  /// A thrown error becomes a Lua error (the same Swift error comes back out of the outer call
  /// as `LuaError.callback`); `LuaError.argument` becomes Lua's `bad argument #n to 'name' (...)`.
  public func function(_ body: @escaping (LuaStack) throws -> [LuaValue]) throws -> LuaFunction {
    try rawFunction { stack in
      let results = try body(stack)
      let L = stack.L
      try stack.state.reserve(L, results.count)
      for result in results { try stack.state.push(result, onto: L) }
      return .values(results.count)
    }
  }

  /// The fast form: the closure works on the stack directly and returns `.values(n)` or `.yield(n)`.
  public func rawFunction(_ body: @escaping LuaRawFunctionBody) throws -> LuaFunction {
    let L = try currentThread()
    try reserve(L, 3)
    let box = LuaFunctionBox(state: self, body: body)
    relua_pushfunction(L, luaFunctionThunk, Unmanaged.passRetained(box).toOpaque(), luaReleaseBox)
    defer { lua_settop(L, -2) }
    return LuaFunction(handle: handle, at: -1, in: L)
  }

  /// Defines a global Swift function.
  public func register(_ name: String, _ body: @escaping (LuaStack) throws -> [LuaValue]) throws {
    try setGlobal(name, .function(function(body)))
  }

  /// Defines a global raw Swift function.
  public func registerRaw(_ name: String, _ body: @escaping LuaRawFunctionBody) throws {
    try setGlobal(name, .function(rawFunction(body)))
  }
}

/// A Swift closure owned by a Lua function: released when Lua collects the function.
final class LuaFunctionBox {
  unowned(unsafe) let state: LuaState  // Lua only calls it while the state is alive
  let body: LuaRawFunctionBody

  init(state: LuaState, body: @escaping LuaRawFunctionBody) {
    self.state = state
    self.body = body
  }
}

/// The Swift side of the trampoline: runs the closure and returns a status; never raises.
func luaFunctionThunk(_ L: OpaquePointer?, _ context: UnsafeMutableRawPointer?) -> Int32 {
  let box = Unmanaged<LuaFunctionBox>.fromOpaque(context!).takeUnretainedValue()
  let L = L!
  do {
    return try box.body(LuaStack(L, box.state)).code
  } catch {
    return box.state.raise(error, on: L)
  }
}
