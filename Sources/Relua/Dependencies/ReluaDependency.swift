import Foundation

/// A dependency Lua features reach as `deps.<name>`, declared by a script
/// (`relua.dependency "weather" { live = …, test = … }`) or registered by the Swift program that
/// hosts them (`ReluaRuntime.register(_:)`, `ReluaHost.registerForEveryState(_:)`). As TCA's
/// `DependencyKey`: a live value, an optional test value — a test that reaches a dependency it
/// did not give and that has no test value fails, naming it — and overrides per store, per test
/// (`deps = { weather = … }`) and per feature subtree.
///
///     ReluaDependency("weather", live: .function(.async { arguments in
///       guard case .string(let city)? = arguments.first else {
///         throw ReluaDependency.ArgumentError(position: 1, "a city name (a string)")
///       }
///       return [.record(["city": .string(city), "celsius": .integer(21)])]
///     }))
///
/// Values cross exactly (`Value`: integers stay integers, floats floats, a missing field is
/// absent). A member that throws gives Lua `nil, err`: `err` is `{ kind, message, … }`, the
/// message a sentence for the user (`Failure`'s, an error's `LocalizedError` description, else its
/// description); an `ArgumentError` raises at the calling line instead (a bug in the script, not
/// a failure of the world).
public struct ReluaDependency: Sendable {
  /// The name scripts reach it by: `deps.<name>`.
  public let name: String
  /// The value stores get outside tests (and tests that give none of their own, when `test` is nil
  /// and the test does not reach it).
  public var live: Shape
  /// The value tests get when they do not give one; nil: "unimplemented" (reaching it fails the test).
  public var test: Shape?

  /// A dependency named `name` (`deps.<name>`): `live` outside tests, `test` in tests that give none
  /// of their own.
  public init(_ name: String, live: Shape, test: Shape? = nil) {
    self.name = name
    self.live = live
    self.test = test
  }

  /// What `deps.<name>` is.
  public enum Shape: Sendable {
    /// `deps.weather(city)` (or, for a `.value`, `deps.region` is the value).
    case function(Member)
    /// `deps.github.search{ … }`, `deps.config.region`.
    case members([String: Member])
  }

  /// One thing a dependency offers.
  public enum Member: Sendable {
    /// Called and answered at once (from reducers too).
    case function(@MainActor @Sendable (_ arguments: [Value]) throws -> [Value])
    /// Awaited: callable only inside `Effect.run` (or a test body), which suspends until it answers.
    case async(@MainActor @Sendable (_ arguments: [Value]) async throws -> [Value])
    /// A sequence Lua iterates inside an effect: `for event in deps.feed.events() do … end`; the
    /// loop ends when the sequence does, and cancelling the effect ends the iteration.
    case stream(@MainActor @Sendable (_ arguments: [Value]) throws -> AsyncThrowingStream<Value, any Error>)
    /// A constant (`deps.config.region`).
    case value(Value)
  }

  /// A failure the world caused (the network, a missing file): Lua gets `nil, err` with
  /// `err = { kind = kind, message = message, … fields }`.
  public struct Failure: Error, Sendable, CustomStringConvertible {
    /// What went wrong, for code to tell failures apart: `err.kind` (`"io"`, `"timeout"`…).
    public var kind: String
    /// A sentence for the user: `err.message`.
    public var message: String
    /// More fields of the `err` record, after `kind` and `message`.
    public var fields: [(String, Value)]

    /// A failure Lua sees as `nil, { kind = kind, message = message, … fields }`.
    public init(kind: String, message: String, fields: [(String, Value)] = []) {
      self.kind = kind
      self.message = message
      self.fields = fields
    }

    /// The message.
    public var description: String { message }

    /// The `err` record Lua sees.
    public var record: Value {
      .record(ValueRecord([("kind", .string(kind)), ("message", .string(message))] + fields))
    }
  }

  /// A call the script got wrong: raised at the calling line as `bad argument #n to 'deps.x' (…)`.
  public struct ArgumentError: Error, Sendable {
    /// Which argument was wrong, counting from 1 (the `#n` of `bad argument #n`).
    public var position: Int
    /// What the script should have passed, for the message after `bad argument #n to 'deps.x'`.
    public var message: String
    /// The argument at `position` (from 1) was wrong: `message` says what was expected.
    public init(position: Int, _ message: String) {
      self.position = position
      self.message = message
    }
  }
}

extension ReluaDependency.Failure {
  /// The failure Lua sees for an error a member threw.
  static func from(_ error: any Error) -> ReluaDependency.Failure {
    if let failure = error as? ReluaDependency.Failure { return failure }
    if let described = (error as? LocalizedError)?.errorDescription {
      return .init(kind: "error", message: described)
    }
    return .init(kind: "error", message: String(describing: error))
  }
}
