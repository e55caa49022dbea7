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

  /// A send to a dismissed store, refused: a warning naming where it was sent from (the host's
  /// `senderPlace`, when it has one) and where the store dismissed itself.
  @usableFromInline @inline(never)
  func refuseSendAfterDismissal(_ action: Action) {
    warn(dismissedSendMessage(action, sentFrom: senderPlace?()))
  }

  /// A send from inside one of its own reducers (TCA 1.25 warns of it), from `place`.
  func warnOfReentrantSend(_ action: Action, from place: String) {
    warn(
      "\(place): an action was sent to the store from inside one of its reducers (a re-entrant send): \(describe(action)). It is queued after the current action. Return an effect instead (Effect.send, or send in Effect.run); TCA 1.25 warns of this too and will refuse it.")
  }

  /// What a send to a dismissed store says (a test store fails with it).
  func dismissedSendMessage(_ action: Action, sentFrom: String?) -> String {
    (sentFrom.map { "\($0): " } ?? "")
      + "An action was sent to a store that dismissed itself (dismiss() at \(dismissedAt ?? "?")): \(describe(action)). It was not processed."
  }
}
