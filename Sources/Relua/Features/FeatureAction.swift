/// An action sent to a Lua feature: the steps that lead to the feature that declared it (child
/// keys, element ids) and its name, plus a payload.
///
/// `counter.setCount(5)` is `[.name("counter"), .name("setCount")]` with payload `5`;
/// `rows[id=42].onAppear` is `[.name("rows"), .id(42), .name("onAppear")]`. Steps are a slice so the
/// composition operators can strip their own step without copying (the hot path of a send).
public struct FeatureAction: Hashable, Sendable, CustomStringConvertible {
  @usableFromInline package enum Step: Hashable, Sendable {
    case name(String)
    case id(Value)
  }

  @usableFromInline package var steps: ArraySlice<Step>
  /// The value sent with the action (`.null` when none).
  public var payload: Value

  @usableFromInline package init(steps: ArraySlice<Step>, payload: Value = .null) {
    self.steps = steps
    self.payload = payload
  }

  /// The action `name` of the feature itself (one step, no child path), with `payload`.
  public init(_ name: String, _ payload: Value = .null) {
    self.init(steps: [.name(name)], payload: payload)
  }

  /// The first step's name, if it is a name.
  @inlinable
  package var head: String? {
    guard let first = steps.first, case .name(let name) = first else { return nil }
    return name
  }

  /// The action with its first step removed.
  @inlinable
  package var tail: FeatureAction { FeatureAction(steps: steps.dropFirst(), payload: payload) }

  /// The action with `steps` in front (what a child's action looks like from its parent).
  package func prefixed(_ prefix: Step...) -> FeatureAction {
    FeatureAction(steps: ArraySlice(prefix + Array(steps)), payload: payload)
  }

  /// The path as handler keys name it: names joined by dots, ids left out (`rows.onAppear`).
  package var pattern: String {
    var text = ""
    for step in steps {
      guard case .name(let name) = step else { continue }
      if !text.isEmpty { text += "." }
      text += name
    }
    return text
  }

  /// The first element id on the path (for handlers of element actions).
  package var firstID: Value? {
    for step in steps { if case .id(let id) = step { return id } }
    return nil
  }

  /// The path as Lua code sends it: `rows[id=42].onAppear`, `destination.counter.increment`.
  public var name: String {
    var text = ""
    for step in steps {
      switch step {
      case .name(let name): text += (text.isEmpty ? "" : ".") + name
      case .id(let id): text += "[id=" + id.luaLiteral() + "]"
      }
    }
    return text
  }

  /// `counter.setCount(5)`, `increment`: the action for people, ids and payload elided as every
  /// printout is (`Elision.standard`): messages name actions, and a payload of a megabyte must
  /// not become a message of a megabyte. `name` is the exact path.
  public var description: String {
    var text = ""
    for step in steps {
      switch step {
      case .name(let name): text += (text.isEmpty ? "" : ".") + name
      case .id(let id): text += "[id=" + id.description + "]"
      }
    }
    return payload.isNull ? text : text + "(" + payload.description + ")"
  }
}
