import Composable

/// Where a reducer's state sits in the whole state of the send being processed: the undo log of a
/// send (`StateViews` transactions) records every session's writes from the root, so a reducer that
/// raises late in a send undoes what the reducers before it wrote, and only that.
///
/// The place follows from the action: the steps the composition operators stripped before the
/// action reached a feature are the path to that feature's state (`rows[id=42].toggle` reaches Row at
/// `state.rows[id = 42]`; `destination.results.remove` reaches ResultList at
/// `state.destination.results`). A derived (lens) child has no place of its own: its writes reach
/// the state through the lens's `set`, which is anchored at the parent.
final class CurrentSend {
  /// The store's root feature (the store keeps it alive for the whole send); nil before the first.
  @exclusivity(unchecked) unowned(unsafe) var feature: FeatureDefinition?
  /// How many steps the action has.
  @exclusivity(unchecked) var stepCount = 0
  /// The action's steps, kept only when it has more than one: a one-step action reaches the root
  /// feature's own reducer (and its lenses) only, whose places need no steps, and so the common
  /// send keeps no reference (a retain and a release per action). Stale when `stepCount` is 1.
  @exclusivity(unchecked) var steps: ArraySlice<FeatureAction.Step> = []

  @inline(__always)
  func set(_ feature: FeatureDefinition, _ action: FeatureAction) {
    self.feature = feature
    stepCount = action.steps.count
    if stepCount > 1 { steps = action.steps }
  }
}

extension ReluaHost {
  /// The anchor of the session a leaf reducer runs for `action` (relative to its feature).
  /// Inlined for the common send, the root feature's own action (no path, and the feature is not
  /// touched, which would retain it); a child's action finds its path out of line.
  @inline(__always)
  func anchor(forLeafAction action: FeatureAction) -> SessionAnchor {
    guard views.inTransaction else { return .none }
    let prefixCount = currentSend.stepCount - action.steps.count
    if prefixCount == 0 { return .wholeState }
    return anchor(stepsBefore: prefixCount)
  }

  /// Logs, for the send's transaction, a write the engine makes outside the views into the
  /// field `key` of the state the leaf reducer for `action` runs on (a binding, a navigation
  /// field, a holder taking its share's value); nothing outside a transaction.
  func recordEngineWrite(ofField key: String, old: Value, forLeafAction action: FeatureAction) {
    if let anchor = anchor(forLeafAction: action).path { views.recordWrite(at: anchor, key: key, old: old) }
  }

  /// The anchor of a child's session: the first `prefixCount` steps of the action being sent.
  private func anchor(stepsBefore prefixCount: Int) -> SessionAnchor {
    // (So the action has more than one step.)
    guard prefixCount > 0, let feature = currentSend.feature else { return .none }
    return SessionAnchor(Self.statePath(currentSend.steps.prefix(prefixCount), in: feature, parentOfLens: nil))
  }

  /// The anchor of the parent of the lens `key` (where its `set` writes).
  func anchor(parentOfLens key: String) -> ValuePath? {
    guard views.inTransaction, let feature = currentSend.feature else { return nil }
    // A one-step action runs only the root feature's scopes: a lens `key` sets while the action
    // `key` is processed, on the root's own state.
    if currentSend.stepCount == 1 {
      guard feature.child(key)?.storage == .derived else { return nil }
      return views.rootPath
    }
    return Self.statePath(currentSend.steps, in: feature, parentOfLens: key)
  }

  static func statePath(
    _ steps: ArraySlice<FeatureAction.Step>, in root: FeatureDefinition, parentOfLens lensKey: String?
  ) -> ValuePath? {
    var path: ValuePath = []
    var feature = root
    var index = steps.startIndex
    func name(at position: Int) -> String? {
      guard position < steps.endIndex, case .name(let name) = steps[position] else { return nil }
      return name
    }
    func id(at position: Int) -> Value? {
      guard position < steps.endIndex, case .id(let id) = steps[position] else { return nil }
      return id
    }
    while index < steps.endIndex {
      guard let key = name(at: index), let child = feature.child(key) else { return nil }
      if child.storage == .derived { return key == lensKey ? path : nil }
      // The key, then the element's id (a collection), then the kind (a child that selects one).
      path.append(.key(key))
      index += 1
      if child.storage == .elements {
        guard let id = id(at: index) else { return nil }
        path.append(.id(id))
        index += 1
      }
      var kind: String? = nil
      if child.selectsKind {
        guard let name = name(at: index) else { return nil }
        path.append(.key(name))
        kind = name
        index += 1
      }
      guard case .feature(let next)? = child.destination(kind: kind) else { return nil }
      feature = next
    }
    return lensKey == nil ? path : nil
  }
}
