/// Projects one case out of an enum-like value, without case-path macros: `embed` builds the parent
/// value from the child, `extract` gets the child back when the parent holds that case.
/// Used for actions (`Scope(…, action:)`) and for enum states (destinations).
/// Sendable so lenses can be stored in static constants: embed/extract must be pure functions.
public struct CaseLens<Parent, Child>: @unchecked Sendable {
  /// Makes the parent value (an enum case) from the child.
  public let embed: (Child) -> Parent
  /// The child, when the parent holds this case; nil otherwise.
  public let extract: (Parent) -> Child?

  /// A lens from an embedding function and its inverse.
  @inlinable
  public init(embed: @escaping (Child) -> Parent, extract: @escaping (Parent) -> Child?) {
    self.embed = embed
    self.extract = extract
  }

  /// `CaseLens(Action.counter) { if case let .counter(a) = $0 { a } else { nil } }`
  @inlinable
  public init(_ embed: @escaping (Child) -> Parent, _ extract: @escaping (Parent) -> Child?) {
    self.init(embed: embed, extract: extract)
  }

  /// Composes with a lens one level further down.
  public func appending<Grandchild>(_ other: CaseLens<Child, Grandchild>) -> CaseLens<Parent, Grandchild> {
    CaseLens<Parent, Grandchild>(
      embed: { self.embed(other.embed($0)) },
      extract: { self.extract($0).flatMap(other.extract) }
    )
  }
}

extension CaseLens where Parent == Child {
  /// The identity lens.
  public static var identity: CaseLens { CaseLens(embed: { $0 }, extract: { $0 }) }
}

/// The action side of a scope. Same shape as `CaseLens`; the name reads better at call sites.
public typealias ActionLens<Parent, Child> = CaseLens<Parent, Child>
