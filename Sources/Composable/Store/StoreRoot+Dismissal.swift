/// A root store whose own feature calls `dismiss()` from an effect. A store whose root counts as
/// presented (`dismissesItself`: a test store, as TCA's `TestStore.isDismissed`; an embedded
/// screen) is dismissed: its effects are cancelled, without "still running" failures, and later
/// sends are refused. Any other (TCA's live `Store`) keeps a warning naming the call's place, and
/// nothing is dismissed.
extension StoreRoot {
  /// What one of its effects reported.
  func take(_ report: EffectReport) {
    switch report {
    case .warning(let warning): warn(warning)
    case .rootDismissal(let place, let cancelled): dismiss(calledFrom: place, cancelled: cancelled)
    }
  }

  func dismiss(calledFrom place: String, cancelled: Bool) {
    guard dismissesItself else {
      warn("A \"dismiss\" was called from an effect of a feature that is not presented (\(place)); nothing was dismissed.")
      return
    }
    guard !cancelled, !isDismissed else { return }
    isDismissed = true
    dismissedAt = place
    cancelAllEffects()
    signalActivity()
  }

  /// A send to a dismissed store, refused: a warning naming where it was sent from (`sentFrom`,
  /// a script's line; nil when the sender's place is unknown) and where the store dismissed itself.
  @usableFromInline
  func refuseSendAfterDismissal(_ action: Action, sentFrom: String?) {
    warn(dismissedSendMessage(action, sentFrom: sentFrom))
  }

  /// What a send to a dismissed store says (a test store fails with it).
  func dismissedSendMessage(_ action: Action, sentFrom: String?) -> String {
    (sentFrom.map { "\($0): " } ?? "")
      + "An action was sent to a store that dismissed itself (dismiss() at \(dismissedAt ?? "?")): \(describe(action)). It was not processed."
  }
}
