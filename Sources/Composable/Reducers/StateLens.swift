/// A get/set view of a part of the parent state, possibly derived (not stored): the child sees what
/// `get` builds and only what `set` writes back can change in the parent.
/// For a stored part, use a `WritableKeyPath` (`StateLens(\.counter)`), which modifies in place.
public struct StateLens<Parent, Child>: @unchecked Sendable {
  @usableFromInline
  enum Access {
    case keyPath(WritableKeyPath<Parent, Child>)
    case closures(get: (Parent) -> Child, set: (inout Parent, Child) -> Void)
  }

  @usableFromInline let access: Access

  /// Identifies this lens for navigation ids (the key path, or a name given by the caller).
  public let identity: AnyHashableSendable

  @inlinable
  public init(_ keyPath: WritableKeyPath<Parent, Child> & Sendable) {
    self.access = .keyPath(keyPath)
    self.identity = AnyHashableSendable(keyPath)
  }

  public init(
    get: @escaping (Parent) -> Child, set: @escaping (inout Parent, Child) -> Void,
    identity: some Hashable & Sendable
  ) {
    self.access = .closures(get: get, set: set)
    self.identity = AnyHashableSendable(identity)
  }

  public init(
    get: @escaping (Parent) -> Child, set: @escaping (inout Parent, Child) -> Void,
    fileID: StaticString = #fileID, line: UInt = #line
  ) {
    self.init(get: get, set: set, identity: "\(fileID):\(line)")
  }

  @inlinable
  public func get(_ parent: Parent) -> Child {
    switch access {
    case let .keyPath(keyPath): return parent[keyPath: keyPath]
    case let .closures(get, _): return get(parent)
    }
  }

  public func set(_ parent: inout Parent, _ child: Child) {
    switch access {
    case let .keyPath(keyPath): parent[keyPath: keyPath] = child
    case let .closures(_, set): set(&parent, child)
    }
  }

  /// Runs `body` on the child in place (key paths) or on a copy written back (closures).
  @inlinable
  public func modify<Result>(_ parent: inout Parent, _ body: (inout Child) -> Result) -> Result {
    switch access {
    case let .keyPath(keyPath):
      return body(&parent[keyPath: keyPath])
    case let .closures(get, set):
      var child = get(parent)
      let result = body(&child)
      set(&parent, child)
      return result
    }
  }
}
