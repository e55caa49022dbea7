import Lua

/// A function test files call as `relua.testing.<name>(…)`, registered by the program that runs
/// the tests (`ReluaHost.registerTestHelper(_:)`): something a test needs from the world that a
/// sandboxed script cannot make itself, such as a server on loopback. The `relua` command
/// registers `relua.testing.websocketEcho()` (`ReluaWebSocketEcho`); a program registers its own.
///
///     ReluaHost.registerTestHelper(ReluaTestHelper("websocketEcho") { _ in
///       [.string(try WebSocketEchoServer.shared().url)]
///     })
///
/// A helper runs only in tests (`relua test`, `LuaTestRunner`, `ReluaRuntime.runTests`):
/// called anywhere else (`relua run`, the REPL, a store of an embedding program) it raises at the
/// calling line, as does a name nothing registered. Values cross as a dependency's do (`Value`);
/// an error the helper throws raises at the calling line (a helper that cannot do its work fails
/// the test: it is no failure of the feature under test), an `ArgumentError` as a bad argument.
public struct ReluaTestHelper: Sendable {
  /// The name tests call it by: `relua.testing.<name>(…)`.
  public let name: String
  /// Called with the script's arguments; returns the values Lua gets.
  public var body: @MainActor @Sendable (_ arguments: [Value]) throws -> [Value]

  /// A helper tests call as `relua.testing.<name>(…)`, answered by `body`.
  public init(_ name: String, _ body: @escaping @MainActor @Sendable (_ arguments: [Value]) throws -> [Value]) {
    self.name = name
    self.body = body
  }

  /// A call the script got wrong: raised as `bad argument #n to 'relua.testing.<name>' (…)`.
  public typealias ArgumentError = ReluaDependency.ArgumentError
}

extension ReluaHost {
  /// The helpers under `relua.testing` in every state made from now on.
  static var testHelpers: [String: ReluaTestHelper] = [:]

  /// Makes `helper` callable as `relua.testing.<name>(…)` in the tests of every state made from
  /// now on (registering a name again replaces it). The `relua` command and the Swift test suite
  /// register theirs once, at start.
  public static func registerTestHelper(_ helper: ReluaTestHelper) {
    testHelpers[helper.name] = helper
  }

  /// `relua.testing.<name>`: the helper as a Lua function, or an error naming what is registered.
  func testHelperFunction(_ name: String) throws -> LuaValue {
    if let function = testState.helperFunctions[name] { return .function(function) }
    guard let helper = Self.testHelpers[name] else {
      let registered = Self.testHelpers.keys.sorted()
      throw ReluaError.usage(
        "relua.testing.\(name): no test helper of this name is registered in this program (registered: "
          + (registered.isEmpty ? "none" : registered.joined(separator: ", "))
          + "; a program registers its own with ReluaHost.registerTestHelper)")
    }
    let shown = "relua.testing.\(name)"
    let function = try lua.function { [unowned self] stack in
      guard self.testState.runsTests else {
        throw ReluaError.usage(
          "\(shown)() is a test helper: it runs only in tests (relua test), not in this script")
      }
      let arguments = try stack.values.enumerated().map { index, value in
        do {
          return try self.value(from: value)
        } catch {
          throw LuaError.argument(position: index + 1, message: "\(shown) takes plain values (\(LuaCoroutineDriver.message(of: error)))")
        }
      }
      let results: [Value]
      do {
        results = try helper.body(arguments)
      } catch let error as ReluaTestHelper.ArgumentError {
        throw LuaError.argument(position: error.position, message: error.message)
      } catch {
        throw ReluaError.usage("\(shown): \(error)")
      }
      return try results.map { try self.lua.value($0) }
    }
    testState.helperFunctions[name] = function
    return .function(function)
  }
}
