import Composable
import Lua

/// What a Lua test store's `store:receive(…)` asks for, read from its arguments:
///
///     receive(name[, payload][, expect])   -- by name (any payload), or exactly with the payload
///     receive(name, check, expect)         -- by name and check(payload) truthy (expect may be nil)
///     receive(predicate[, expect])         -- predicate(action) truthy, action a record
///
/// With one function after the name, it is the expectation; with two, the first checks the payload.
@MainActor
struct LuaReceiveMatcher {
  /// Names the action (any payload); nil for a predicate.
  let steps: ArraySlice<FeatureAction.Step>?
  /// The action with the exact payload asked for.
  let exact: FeatureAction?
  let check: LuaActionCheck?
  let expect: LuaFunction?

  init(_ arguments: ArraySlice<LuaValue>, resolver: ActionResolver, host: ReluaHost) throws {
    var rest = arguments
    let first = rest.popFirst()
    switch first {
    case .function(let predicate)?:
      steps = nil
      exact = nil
      check = LuaActionCheck(predicate, wholeAction: true)
      guard rest.count <= 1 else { throw Self.tooMany(position: 4, usage: "store:receive(predicate[, expect])") }
      expect = try Self.expectation(rest.first, position: 3)
    case .string?:
      guard let name = first?.stringValue else {
        throw LuaError.argument(position: 2, message: "the action name must be UTF-8 text")
      }
      let steps = try resolver.steps(name)
      self.steps = steps
      guard rest.count <= 2 else { throw Self.tooMany(position: 5, usage: "store:receive(name[, payload or check][, expect])") }
      var given = rest.first
      if rest.count == 2 {
        expect = try Self.expectation(rest.last, position: 4)
      } else if case .function(let function)? = rest.first {
        expect = function
        given = nil
      } else {
        expect = nil
      }
      switch given {
      case .function(let function)?:
        check = LuaActionCheck(function, wholeAction: false)
        exact = nil
      case let payload? where !payload.isNil:
        check = nil
        exact = try resolver.resolve(name, payload: try host.value(from: payload))
      default:
        check = nil
        exact = nil
      }
    default:
      throw LuaError.argument(
        position: 2,
        message: "expected an action name, or a function(action) returning whether it is the action expected")
    }
  }

  /// The action shown in messages: the one named (with its payload when exact); nil for a check.
  var expected: FeatureAction? {
    if let exact { return exact }
    guard check == nil, let steps else { return nil }
    return FeatureAction(steps: steps)
  }

  func matches(_ action: FeatureAction, host: ReluaHost) -> Bool {
    if let exact { return action == exact }
    if let steps, action.steps != steps { return false }
    return check?.passes(action, host: host) ?? true
  }

  private static func expectation(_ value: LuaValue?, position: Int) throws -> LuaFunction? {
    switch value {
    case nil, .nil?: return nil
    case .function(let function)?: return function
    default: throw LuaError.argument(position: position, message: "the expectation must be a function(state)")
    }
  }

  private static func tooMany(position: Int, usage: String) -> LuaError {
    .argument(position: position, message: "too many arguments: \(usage)")
  }
}

/// A Lua function a test store asks whether a received action is the one expected: a predicate
/// over the action's record, or a check of its payload. Each action is asked once; the first
/// error it raises is kept for the failure (the action then does not match).
@MainActor
final class LuaActionCheck {
  let function: LuaFunction
  let wholeAction: Bool
  private(set) var error: String?
  private var answers: [FeatureAction: Bool] = [:]

  init(_ function: LuaFunction, wholeAction: Bool) {
    self.function = function
    self.wholeAction = wholeAction
  }

  func passes(_ action: FeatureAction, host: ReluaHost) -> Bool {
    if let answer = answers[action] { return answer }
    let answer: Bool
    do {
      answer = try host.lua.callRaw(
        function, argumentCount: 1,
        pushArguments: { L in
          let L = LuaRawStack(L)
          if wholeAction { try ReluaHost.pushRecord(of: action, onto: L) } else { try action.payload.push(onto: L) }
        },
        readResults: { L, first, count in count > 0 && LuaRawStack(L).boolean(at: first) })
    } catch {
      if self.error == nil {
        let message = (error as? LuaError)?.message ?? "\(error)"
        self.error = "The \(wholeAction ? "predicate" : "payload check") given to store:receive raised an error for \(action.description): \(message)"
      }
      answer = false
    }
    answers[action] = answer
    return answer
  }
}
