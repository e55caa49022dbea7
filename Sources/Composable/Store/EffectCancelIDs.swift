/// An effect's cancel ids, shared by effects with the same ones (see `StoreRoot.cancelIDs`).
final class EffectCancelIDs {
  /// As the effect was given them.
  let declared: [CancelID]
  /// What the store registers it under: each id at every prefix of its place.
  let groups: [CancelGroup]

  init(declared: [CancelID], groups: [CancelGroup]) {
    self.declared = declared
    self.groups = groups
  }
}

/// The effects in flight under one cancel id (one key of `StoreRoot.cancellables`). Effects hold
/// their groups, so an effect that ends leaves them without hashing the id (a user's id hashes and
/// compares through `AnyHashable`: at 10,000 effects ending, a tenth of the time).
final class CancelGroup {
  let key: CancelID
  var tasks: Set<Int> = []
  /// Whether `StoreRoot.cancellables` still holds it (it leaves when its last effect ends or when
  /// its id is cancelled; a later effect with the id gets a new group).
  var isRegistered = true

  init(key: CancelID) { self.key = key }
}
