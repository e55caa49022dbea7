/// A get/set view of a part of the parent state, possibly derived (not stored): the child sees what
/// `get` builds and only what `set` writes back can change in the parent.
/// For a stored part, use a `WritableKeyPath` (`StateLens(\.counter)`), which modifies in place.
public struct StateLens<Parent, Child>: @unchecked Sendable {
  @usableFromInline
  enum Access {
    case keyPath(WritableKeyPath<Parent, Child>)
    case closures(get: (Parent) -> Child, set: (inout Parent, Child) -> Void)
    case inPlace(get: (Parent) -> Child, modify: (inout Parent, (inout Child) -> Void) -> Void)
  }

  @usableFromInline let access: Access

  /// The child's byte offset in the parent when the key path names stored properties kept inline (struct
  /// and tuple fields, no computed or observed property, no class hop): `MemoryLayout.offset(of:)`
  /// guarantees that the key path and the offset pointer then reach the same memory. -1 otherwise.
  /// `modify` uses it to skip the key path runtime (about 25 ns per access).
  @usableFromInline let offset: Int

  /// Identifies this lens for navigation ids (the key path, or a name given by the caller).
  public let identity: AnyHashableSendable

  /// A lens over a stored property: the child is modified in place.
  @inlinable
  public init(_ keyPath: WritableKeyPath<Parent, Child> & Sendable) {
    self.access = .keyPath(keyPath)
    self.offset = MemoryLayout<Parent>.offset(of: keyPath) ?? -1
    self.identity = AnyHashableSendable(keyPath)
  }

  /// A derived child: `get` builds it, `set` writes it back; `identity` names the lens in
  /// navigation ids.
  public init(
    get: @escaping (Parent) -> Child, set: @escaping (inout Parent, Child) -> Void,
    identity: some Hashable & Sendable
  ) {
    self.access = .closures(get: get, set: set)
    self.offset = -1
    self.identity = AnyHashableSendable(identity)
  }

  /// A derived child, named by the place it was made at.
  public init(
    get: @escaping (Parent) -> Child, set: @escaping (inout Parent, Child) -> Void,
    fileID: StaticString = #fileID, line: UInt = #line
  ) {
    self.init(get: get, set: set, identity: "\(fileID):\(line)")
  }

  /// A lens whose `modify` reaches the child in place (through `_modify` accessors), for hosts
  /// whose state is dynamic: unlike a key path through computed properties (get, then set) or a
  /// get/set pair, the child is never copied, so writing one element of a big collection inside it
  /// costs what the element costs.
  public init(
    get: @escaping (Parent) -> Child, modify: @escaping (inout Parent, (inout Child) -> Void) -> Void,
    identity: some Hashable & Sendable
  ) {
    self.access = .inPlace(get: get, modify: modify)
    self.offset = -1
    self.identity = AnyHashableSendable(identity)
  }

  /// The child in `parent`.
  @inlinable
  public func get(_ parent: Parent) -> Child {
    // Stored offset: skips `KeyPath._projectReadOnly`, which also instantiates generic metadata per call.
    if offset >= 0 {
      return withUnsafePointer(to: parent) { pointer in
        (UnsafeRawPointer(pointer) + offset).assumingMemoryBound(to: Child.self).pointee
      }
    }
    switch access {
    case let .keyPath(keyPath): return parent[keyPath: keyPath]
    case let .closures(get, _): return get(parent)
    case let .inPlace(get, _): return get(parent)
    }
  }

  /// Writes `child` into `parent`.
  public func set(_ parent: inout Parent, _ child: Child) {
    switch access {
    case let .keyPath(keyPath): parent[keyPath: keyPath] = child
    case let .closures(_, set): set(&parent, child)
    case let .inPlace(_, modify): modify(&parent) { $0 = child }
    }
  }

  /// Runs `body` on the child in place (key paths, in-place lenses) or on a copy written back (get/set).
  @inlinable
  public func modify<Result>(_ parent: inout Parent, _ body: (inout Child) -> Result) -> Result {
    if offset >= 0 { return _modifyStored(&parent, at: offset, body) }
    switch access {
    case let .keyPath(keyPath):
      return body(&parent[keyPath: keyPath])
    case let .closures(get, set):
      var child = get(parent)
      let result = body(&child)
      set(&parent, child)
      return result
    case let .inPlace(_, modify):
      return withoutActuallyEscaping(body) { body in
        var result: Result?
        modify(&parent) { result = body(&$0) }
        return result!
      }
    }
  }
}

/// Runs `body` on the `Child` stored inline at byte `offset` of `parent` (an offset from
/// `MemoryLayout<Parent>.offset(of:)`, so the memory there is bound to `Child`). The access to `parent`
/// is the caller's inout access, held for the whole call, as with `parent[keyPath:]`.
@inlinable @inline(__always)
func _modifyStored<Parent, Child, Result>(
  _ parent: inout Parent, at offset: Int, _ body: (inout Child) -> Result
) -> Result {
  withUnsafeMutablePointer(to: &parent) { pointer in
    body(&(UnsafeMutableRawPointer(pointer) + offset).assumingMemoryBound(to: Child.self).pointee)
  }
}
