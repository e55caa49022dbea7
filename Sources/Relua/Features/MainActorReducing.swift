/// Runs main-actor code from a reducer. Stores run reducers on the main actor, but a `Reducer`'s
/// `reduce` is not isolated, so Lua leaves must say so; `MainActor.assumeIsolated` checks the
/// executor on every call (an executor lookup and a runtime call, a tenth of an empty handler's
/// cost). Debug builds keep that check; optimized builds trust the stores.
@inline(__always)
func reducingOnMainActor<T>(_ body: @MainActor () -> T) -> T {
  #if DEBUG
    nonisolated(unsafe) var result: T?
    MainActor.assumeIsolated { result = body() }
    return result!
  #else
    return withoutActuallyEscaping(body) { body in
      unsafeBitCast(body, to: (() -> T).self)()
    }
  #endif
}
