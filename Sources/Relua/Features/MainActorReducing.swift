/// Calls main-actor code from a reducer. Stores run reducers on the main actor, but a `Reducer`'s
/// `reduce` is not isolated, so Lua leaves must say so; `MainActor.assumeIsolated` checks the
/// executor on every call (an executor lookup and a runtime call, a tenth of an empty handler's
/// cost). Debug builds keep that check; optimized builds trust the stores and call `function`
/// as it is: a plain function (no closure context, so nothing is allocated per call).
@inline(__always)
func callOnMainActor<Argument, Result>(
  _ function: @escaping @MainActor (Argument) -> Result, _ argument: Argument
) -> Result {
  #if DEBUG
    nonisolated(unsafe) let argument = argument
    nonisolated(unsafe) var result: Result?
    MainActor.assumeIsolated { result = function(argument) }
    return result!
  #else
    return unsafeBitCast(function, to: ((Argument) -> Result).self)(argument)
  #endif
}

/// `callOnMainActor` with two arguments, each passed as it is (a class reference the caller
/// holds is not retained to be packed with the other).
@inline(__always)
func callOnMainActor<First, Second, Result>(
  _ function: @escaping @MainActor (First, Second) -> Result, _ first: First, _ second: Second
) -> Result {
  #if DEBUG
    nonisolated(unsafe) let first = first
    nonisolated(unsafe) let second = second
    nonisolated(unsafe) var result: Result?
    MainActor.assumeIsolated { result = function(first, second) }
    return result!
  #else
    return unsafeBitCast(function, to: ((First, Second) -> Result).self)(first, second)
  #endif
}
