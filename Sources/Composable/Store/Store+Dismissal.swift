/// A root store that dismissed itself (see StoreRoot+Dismissal).
extension Store {
  /// Whether the store dismissed itself: its root feature called `dismiss()` from an effect
  /// while the store counts its root as presented (`dismissesItself`). Its effects were then
  /// cancelled, and every later send is refused with a warning. Root stores (false for scoped ones).
  @inlinable public var isDismissed: Bool { root?.isDismissed ?? false }

  /// Where the store dismissed itself (the `dismiss()` call's place), or nil.
  public var dismissedAt: String? { root?.dismissedAt }

  /// Whether the root feature's `dismiss()` dismisses the store (a test store; a host's screen)
  /// rather than being a warning with nothing dismissed (TCA's live `Store`, the default). Root
  /// stores only.
  package var dismissesItself: Bool {
    get { root?.dismissesItself ?? false }
    set { root?.dismissesItself = newValue }
  }

  /// Where the send being made comes from (a script's line, nil when unknown): what the warnings
  /// of sends refused (a dismissed store) or queued (from inside a reducer) name. Asked only on
  /// those paths, never on a common send. Root stores only.
  package var senderPlace: (() -> String?)? {
    get { root?.senderPlace }
    set { root?.senderPlace = newValue }
  }
}
