import Composable

/// Keeps holders and shares in step during a send. Holders are plain copies in the state (so a
/// state stays one value: diffs, undo, time travel, save and load and the test store's
/// comparisons see shared fields as any other); the share is the truth between them:
///
/// - before a feature's own logic runs, its holders take their shares' values (`pull`), so a
///   parent's handler sees what its child wrote earlier in the same send;
/// - after it ran, a holder it changed writes its share (`push`);
/// - after each action, every holder in the tree takes its share's value (`syncTree`), so the
///   state a send leaves, and every other store's, agree.
///
/// Writes into the state are logged for the send's transaction, as the engine's own writes are.
@MainActor
enum SharedSync {
  /// Logs a write into the state before it is made: the field `key` of the record at a path.
  typealias Log = (_ containerPath: ValuePath, _ key: String, _ old: Value) -> Void

  /// What a feature's holders held after `pull`, in its bindings' order: the first inline (most
  /// features share one field: no array to allocate per call).
  struct Held {
    private(set) var count = 0
    private var first: Value = .null
    private var rest: [Value] = []

    mutating func append(_ value: Value) {
      if count == 0 { first = value } else { rest.append(value) }
      count += 1
    }

    subscript(index: Int) -> Value { index == 0 ? first : rest[index - 1] }
  }

  /// The holders of `feature`'s own state take their shares' values (each write told to `log`
  /// first, with the field and what it held); returns what they hold then (in
  /// `feature.sharedBindings`' order), for `push`. `log` is not escaping: a send's call makes
  /// no closure context.
  static func pull(
    _ feature: FeatureDefinition, _ state: inout Value, registry: SharedRegistry,
    log: (_ key: String, _ old: Value) -> Void
  ) throws -> Held {
    var held = Held()
    try pull(feature, &state, registry: registry, path: [], log: { _, key, old in log(key, old) }) { held.append($0) }
    return held
  }

  /// `pull`, telling `held` what each holder holds after it (in the bindings' order).
  private static func pull(
    _ feature: FeatureDefinition, _ state: inout Value, registry: SharedRegistry, path: ValuePath,
    log: (_ containerPath: ValuePath, _ key: String, _ old: Value) -> Void, held: (Value) -> Void
  ) throws {
    guard case .record = state else { return }
    let shares = try registry.shares(of: feature)
    let bindings = feature.sharedBindings
    // By index, not by element: the loop then reads each binding's parts in place (an element
    // copied out is a retain and a release of its strings per holder).
    for index in bindings.indices {
      let share = shares[index]
      let projection = bindings[index].key.projection
      let holder = state[key: bindings[index].field]
      if projection == .whole, !share.isSettled { registry.settle(share, withDefault: holder) }
      guard let current = share.projected(projection, holder: holder), !holder.isIdentical(to: current) else {
        held(holder)
        continue
      }
      log(path, bindings[index].field, holder)
      state[key: bindings[index].field] = current
      held(current)
    }
  }

  /// A holder of `feature`'s own state that its logic changed (it no longer holds what `pull`
  /// left there, `held`) writes its share; holders it did not touch write nothing, so a stale
  /// copy never overwrites what another holder wrote in the same call.
  static func push(_ feature: FeatureDefinition, _ state: Value, held: Held, registry: SharedRegistry) throws {
    guard case .record = state, held.count == feature.sharedBindings.count else { return }
    let bindings = feature.sharedBindings
    for index in bindings.indices {
      let holder = state[key: bindings[index].field]
      if holder.isIdentical(to: held[index]) || holder == held[index] { continue }
      let share = try registry.shares(of: feature)[index]
      if bindings[index].isWholeAndWritable {
        // (The short path of the commonest write: the holder is the whole value.)
        if let current = share.value, holder == current { continue }
        if share.value == nil, holder.isNull { continue }
        registry.write(share, value: holder)
        continue
      }
      let current = share.projected(bindings[index].key.projection, holder: holder)
      if let current, holder == current { continue }
      if current == nil, holder.isNull { continue }
      if bindings[index].key.isReadOnly {
        throw ReluaError.usage(
          "state.\(bindings[index].field) of \(feature.name) is a read-only share (\(bindings[index].key.description), \(bindings[index].definedAt)): it cannot be written here; write it where it is shared without :readOnly()")
      }
      guard let whole = share.writing(holder, at: bindings[index].key.projection) else {
        registry.warn("\(feature.name).\(bindings[index].field): \(bindings[index].key.description) has no element with id \(holder[key: "id"]) any more; the write was dropped")
        continue
      }
      registry.write(share, value: whole)
    }
  }

  /// Every holder in the tree of `feature` (its state `state`, the whole state) takes its
  /// share's value. Walks only the subtrees that hold shares.
  static func syncTree(_ feature: FeatureDefinition, _ state: inout Value, registry: SharedRegistry, log: Log?) throws {
    var path: ValuePath = []
    try visitHolders(feature, &state, path: &path, log: log) { feature, state, path, log in
      try pull(feature, &state, registry: registry, path: path, log: { log?($0, $1, $2) }) { _ in }
    }
  }

  /// The other way: each share takes the value its holders have in `state` — all of them (a
  /// state put back by `:undo`, time travel or `:load`; the last holder visited wins where they
  /// disagree), or, given `before`, only those that differ from the holder at the same place there
  /// (an expected state a test wrote from `before`).
  static func adoptTree(_ feature: FeatureDefinition, _ state: Value, changedSince before: Value? = nil, registry: SharedRegistry) throws {
    var state = state
    var path: ValuePath = []
    try visitHolders(feature, &state, path: &path, log: nil) { feature, state, path, _ in
      guard case .record = state else { return }
      let old = before?[path: path]
      for binding in feature.sharedBindings where !binding.key.isReadOnly {
        let holder = state[key: binding.field]
        guard !holder.isNull else { continue }
        if let old, holder == old[key: binding.field] { continue }
        let share = try registry.share(for: binding.key)
        if let current = share.projected(binding.key.projection, holder: holder), holder.isIdentical(to: current) || holder == current { continue }
        if let whole = share.writing(holder, at: binding.key.projection) { registry.write(share, value: whole) }
      }
    }
  }

  /// Where `state` holds shared values, and which: `(state.items, fileStorage("items.json"))`, in
  /// the tree's order (what the REPL and the inspector mark as shared).
  static func places(_ feature: FeatureDefinition, in state: Value) -> [(path: ValuePath, key: SharedKeyDescriptor)] {
    var state = state
    var path: ValuePath = []
    var found: [(ValuePath, SharedKeyDescriptor)] = []
    try? visitHolders(feature, &state, path: &path, log: nil) { feature, state, path, _ in
      for binding in feature.sharedBindings where !state[key: binding.field].isNull {
        found.append((path + [.key(binding.field)], binding.key))
      }
    }
    return found
  }

  /// Calls `body` with each feature instance in the tree that holds shares itself, its state
  /// (in place), its path and how to log a write; walks only the subtrees that hold shares.
  /// A collection's elements are changed in place, and logged once as the whole collection
  /// (one entry instead of one per element: a rollback puts the collection back as it was).
  private static func visitHolders(
    _ feature: FeatureDefinition, _ state: inout Value, path: inout ValuePath, log: Log?,
    _ body: (FeatureDefinition, inout Value, ValuePath, Log?) throws -> Void
  ) throws {
    guard feature.reachesShares else { return }
    if !feature.sharedBindings.isEmpty { try body(feature, &state, path, log) }
    guard case .record = state else { return }
    for child in feature.childrenHoldingShares {
      try visitChildField(child, &state, path: &path, log: log, body)
    }
  }

  /// The holders of one child of a feature holding shares below it (`state`: the feature's
  /// state): what a session of that feature reads when its code first looks into that child
  /// (see `SharedReadBarrier`). Writes are logged at paths from `state`.
  static func syncChild(_ child: FeatureChild, in state: inout Value, registry: SharedRegistry, log: Log?) throws {
    var path: ValuePath = []
    try visitChildField(child, &state, path: &path, log: log) { feature, state, path, log in
      try pull(feature, &state, registry: registry, path: path, log: { log?($0, $1, $2) }) { _ in }
    }
  }

  /// `body` for each feature instance holding shares in the child field `child` of `state` (a
  /// record), at `path` (where `state` is).
  private static func visitChildField(
    _ child: FeatureChild, _ state: inout Value, path: inout ValuePath, log: Log?,
    _ body: (FeatureDefinition, inout Value, ValuePath, Log?) throws -> Void
  ) throws {
    let key = child.key
    switch child.storage {
    case .derived:
      return  // a lens child's state is made from its parent's each time: nothing is held there
    case .field, .optionalField:
      guard !state[key: key].isNull else { return }
      path.append(.key(key))
      defer { path.removeLast() }
      try visitChild(child, &state[key: key], path: &path, log: log, body)
    case .elements:
      guard case .identified = state[key: key] else { return }
      try visitElements(of: child, &state[key: key], path: &path, log: log, body)
    }
  }

  private static func visitElements(
    of child: FeatureChild, _ field: inout Value, path: inout ValuePath, log: Log?,
    _ body: (FeatureDefinition, inout Value, ValuePath, Log?) throws -> Void
  ) throws {
    // The collection is taken out of the state while its elements change, so that it is the
    // only reference (or the log's copy is): each element then changes in place.
    guard case .identified(var collection) = field else { return }
    field = .null
    defer { field = .identified(collection) }
    path.append(.key(child.key))
    defer { path.removeLast() }
    // With a log, the collection as it was is kept (its first change copies it once) and logged
    // whole if any element changed; the elements' own writes are not logged one by one.
    var changedAny = false
    let original = log != nil ? collection : nil
    for position in 0..<collection.count {
      try collection.modifyElement(at: position) { element in
        let id = IdentifiedValues.id(of: element)
        path.append(.id(id))
        defer { path.removeLast() }
        try visitChild(child, &element, path: &path, log: log == nil ? nil : { _, _, _ in changedAny = true }, body)
      }
    }
    if changedAny, let log, let original {
      var parent = path
      parent.removeLast()
      log(parent, child.key, .identified(original))
    }
  }

  /// One child's state: its only feature's, or the selected kind's inside `{ <kind> = state }`.
  private static func visitChild(
    _ child: FeatureChild, _ state: inout Value, path: inout ValuePath, log: Log?,
    _ body: (FeatureDefinition, inout Value, ValuePath, Log?) throws -> Void
  ) throws {
    if child.selectsKind {
      guard let kind = DestinationReducer.kind(of: state), case .feature(let feature)? = child.destinationsByKind[kind] else { return }
      path.append(.key(kind))
      defer { path.removeLast() }
      try visitHolders(feature, &state[key: kind], path: &path, log: log, body)
    } else if case .feature(let feature)? = child.onlyDestination {
      try visitHolders(feature, &state, path: &path, log: log, body)
    }
  }
}
