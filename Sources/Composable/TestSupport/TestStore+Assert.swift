/// Asserting the state without an action (TCA's `store.assert { $0.x = … }`).
extension TestStore {
  /// Asserts the store's state as it is now: `update` turns the state asserted last into the
  /// expected one (exhaustive: every change since must be stated; non-exhaustive: only those it
  /// states). A mismatch fails with the usual diff. Actions received and not yet asserted must be
  /// handled first, as before a send.
  public func assert(_ update: (inout State) throws -> Void, file: StaticString = #filePath, line: UInt = #line) {
    assert(update, at: SourceLocation(file: file, line: line))
  }

  /// `assert(_:file:line:)` for a host whose caller's place is not Swift source.
  public func assert(_ update: (inout State) throws -> Void, at location: SourceLocation) {
    currentLocation = location
    requireReceivedHandled(before: "asserting state", at: location)
    let actual = store.state
    var expected = exhaustivity == .on ? state : actual
    do {
      try update(&expected)
    } catch {
      fail("Threw error: \(error)", at: location)
      return
    }
    if !isEqual(expected, actual) {
      fail(stateMismatch(expected: expected, actual: actual, asserted: true), at: location)
    } else if exhaustivity == .off(showSkippedAssertions: true) {
      // What an exhaustive store would have said, from the state asserted last.
      var exhaustive = state
      if (try? update(&exhaustive)) != nil, !isEqual(exhaustive, actual) {
        failOrSkip(stateMismatch(expected: exhaustive, actual: actual, asserted: true), at: location)
      }
    }
    state = actual
  }
}
