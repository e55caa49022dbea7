import Composable

/// Brings a session's shared holders up to date when its code first reads them (see
/// `StateReadBarrier`). A write to a share is copied into its other holders lazily: when the
/// store's state is read from outside (`ViewsTransaction.settle`), or here, when a reducer of a
/// feature whose tree holds shares looks into a child holding some while its store's holders are
/// behind the shares. A reducer that never looks at them (a root writing a number 100 rows also
/// hold) costs no walk of the rows.
@MainActor
final class SharedReadBarrier: @preconcurrency StateReadBarrier {
  /// The transaction of the send running now that has shares (the innermost, when one store's
  /// send runs inside another's).
  /// (Not retained, here and below: set and cleared around the send or session that holds them.)
  @exclusivity(unchecked) nonisolated(unsafe) unowned(unsafe) var send: ViewsTransaction?

  /// The registry of the send running now, not retained (the send's transaction keeps it).
  @inline(__always)
  var runningShares: Unmanaged<SharedRegistry>? { send?.sharesUnretained }
  @exclusivity(unchecked) private unowned(unsafe) var feature: FeatureDefinition?
  @exclusivity(unchecked) private unowned(unsafe) var registry: SharedRegistry?
  /// The session's fields brought up to date so far (each is walked once per session).
  @exclusivity(unchecked) private var synced: [String] = []

  /// After a session of `feature` opened: watches its reads if its store's holders may be behind.
  @inline(__always)
  func arm(_ views: StateViews, for feature: FeatureDefinition) {
    guard let send, let shares = send.sharesUnretained, withUnretained(shares, { $0.writes }) != send.settledAt else { return }
    self.feature = feature
    registry = shares.takeUnretainedValue()
    if !synced.isEmpty { synced.removeAll(keepingCapacity: true) }
    views.readBarrier = self
  }

  func willRead(_ views: StateViews, under component: PathComponent) throws {
    guard case .key(let key) = component, !synced.contains(key) else { return }
    synced.append(key)
    guard let feature, let registry, let child = feature.childrenHoldingShares.first(where: { $0.key == key }) else { return }
    try SharedSync.syncChild(child, in: &views.value, registry: registry) { container, key, old in
      views.undoLog.record(.init(containerPath: container, component: .key(key), change: .replaced, old: old))
    }
  }

  func willReadWhole(_ views: StateViews) throws {
    guard let feature else { return }
    for child in feature.childrenHoldingShares { try willRead(views, under: .key(child.key)) }
  }
}
