import Lua

/// The part of a `ReluaHost` only tests use: the test stores made in its state, the
/// `relua.testing` helpers, and the failures of scripted dependency stubs. A host makes it when
/// first asked (`ReluaHost.testState`); a state that runs no test never has one.
@MainActor
package final class ReluaHostTestState {
  /// Test stores made in this state (checked for pending work when a test ends).
  package var stores: [LuaTestStoreObject] = []
  /// Errors a scripted dependency raised (a `deps = { github = function … }` stub calling
  /// `error`): the next test-store operation fails with them (a recorded session's stub raises when
  /// the replay asks another query than the session did).
  var dependencyFailures: [String] = []
  /// Whether this state runs tests (set by `LuaTestRunner`): only then do the helpers under
  /// `relua.testing` run.
  package var runsTests = false
  /// The `relua.testing` helpers as Lua functions, made on first use.
  var helperFunctions: [String: LuaFunction] = [:]

  /// The dependency failures so far, forgotten here (each is reported once).
  func takeDependencyFailures() -> [String] {
    defer { dependencyFailures.removeAll() }
    return dependencyFailures
  }
}

/// A host's test stores at the end of a test.
extension ReluaHost {
  /// Runs the end-of-test checks of every test store made in this state; throws them as one error.
  package func finishTests() throws {
    let stores = testStateIfMade?.stores ?? []
    let messages = stores.flatMap { $0.finishTest() }
    if !messages.isEmpty {
      throw LuaError.runtime(
        message: "at the end of the test, a TestStore still has work: " + messages.joined(separator: "\n\n"), traceback: nil)
    }
  }
}
