import Composable

/// Where a reducer's state sits in the whole state of the send being processed: the undo log of a
/// send (`StateViews` transactions) records every session's writes from the root, so a reducer that
/// raises late in a send undoes what the reducers before it wrote, and only that.
///
/// The place follows from the action: the steps the composition operators stripped before the
/// action reached a feature are the path to that feature's state (`rows[42].toggle` reaches Row at
/// `state.rows[id = 42]`; `destination.results.remove` reaches ResultList at
/// `state.destination.results`). A derived (lens) child has no place of its own: its writes reach
/// the state through the lens's `set`, which is anchored at the parent.
struct CurrentSend {
  /// The store's root feature (the store keeps it alive for the whole send).
  unowned(unsafe) let feature: FeatureDefinition
  let steps: ArraySlice<FeatureAction.Step>
}

extension ReluaHost {
  /// The anchor of the session a leaf reducer runs for `action` (relative to its feature).
  func anchor(forLeafAction action: FeatureAction) -> ValuePath? {
    guard views.inTransaction, let send = currentSend else { return nil }
    let prefixCount = send.steps.count - action.steps.count
    if prefixCount == 0 { return views.rootPath }  // the root feature's own action
    guard prefixCount > 0 else { return nil }
    return Self.statePath(send.steps.prefix(prefixCount), in: send.feature, parentOfLens: nil)
  }

  /// The anchor of the parent of the lens `key` (where its `set` writes).
  func anchor(parentOfLens key: String) -> ValuePath? {
    guard views.inTransaction, let send = currentSend else { return nil }
    return Self.statePath(send.steps, in: send.feature, parentOfLens: key)
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
      switch child.kind {
      case .scope(let next), .optional(let next):
        path.append(.key(key))
        feature = next
        index += 1
      case .lens:
        return key == lensKey ? path : nil
      case .forEach(let next):
        guard let id = id(at: index + 1) else { return nil }
        path += [.key(key), .id(id)]
        feature = next
        index += 2
      case .presents(let kinds):
        guard let kind = name(at: index + 1), case .feature(let next)? = kinds[kind] else { return nil }
        path += [.key(key), .key(kind)]
        feature = next
        index += 2
      case .stack(let kinds):
        guard let id = id(at: index + 1), let kind = name(at: index + 2), case .feature(let next)? = kinds[kind] else {
          return nil
        }
        path += [.key(key), .id(id), .key(kind)]
        feature = next
        index += 3
      }
    }
    return lensKey == nil ? path : nil
  }

  /// The store-side transaction over this host's views (see `StoreTransaction`).
  var storeTransaction: StoreTransaction<Value> { ViewsTransaction(views: views) }

  /// The root reducer of a store of `feature`: notes the action being processed (for anchors).
  func rootReducer(for feature: FeatureDefinition) -> (inout Value, FeatureAction) -> Effect<FeatureAction> {
    let reducer = FeatureReducerBuilder.reducer(for: feature, host: self)
    // Unowned(unsafe): the host outlives its stores (it lives as long as the Lua state).
    return { [unowned(unsafe) self] state, action in
      self.currentSend = CurrentSend(feature: feature, steps: action.steps)
      return reducer.reduce(into: &state, action: action)
    }
  }
}

/// A store's transactions through the state views' write log (see `StoreTransaction`).
final class ViewsTransaction: StoreTransaction<Value> {
  let views: StateViews

  init(views: StateViews) { self.views = views }

  override func begin() { views.beginTransaction() }
  override func end() { views.endTransaction() }
  override func rollBack(_ state: inout Value) { views.rollBackTransaction(&state) }
}
