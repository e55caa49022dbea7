import Composable
import Foundation

/// Turns what a store does (the REPL's, or one a program inspects) into `ConsoleEvent`s for an observer: each reduced action
/// with its own diff (a send that leads to follow-ups is several actions, each diffed against the
/// one before), told once the send has ended — and never, when the send failed and its state was
/// restored (`Store.onRollBack`): the observer sees only what happened.
@MainActor
package final class ConsoleEventTap {
  private struct Reduced {
    var action: FeatureAction
    var sender: ConsoleEvent.Sender
    var state: Value
    var time: Date
  }

  private let observer: (ConsoleEvent) -> Void
  /// What the observer is given with each event (the screens, effects, actions after it).
  private let live: (() -> InspectionLive)?
  /// Who sends the actions passed to `send` (received ones are the effects'): the REPL's prompt,
  /// or the program; `.page` while an inspector's request runs (`sending(from:)`).
  private var sender: ConsoleEvent.Sender
  /// The actions of the send under way.
  private var pending: [Reduced] = []
  /// The state the observer was last told of.
  private var told: Value = .null
  private var observation: ObservationToken?

  package init(sender: ConsoleEvent.Sender = .typed, live: (() -> InspectionLive)? = nil, observer: @escaping (ConsoleEvent) -> Void) {
    self.sender = sender
    self.live = live
    self.observer = observer
  }

  /// Runs `body` with the actions it sends told as sent by `sender`.
  package func sending<R>(from sender: ConsoleEvent.Sender, _ body: () throws -> R) rethrows -> R {
    let saved = self.sender
    self.sender = sender
    defer { self.sender = saved }
    return try body()
  }

  /// Follows `store` (again after `:reload` made a new one). Its reduced actions come through
  /// `reduced`, which the REPL calls from the store's one `onReduce` hook (a recording shares it).
  /// `rolledBack`: also told when a send failed and its state was restored (the store has one
  /// such hook; a host that records the actions undoes its part there).
  package func attach(to store: Store<Value, FeatureAction>, rolledBack: (() -> Void)? = nil) {
    pending.removeAll()
    told = store.state
    observation?.cancel()
    observation = store.observeSends { [weak self] _ in self?.sendEnded() }
    store.onRollBack = { [weak self] in
      self?.pending.removeAll()
      rolledBack?()
    }
  }

  package func detach(from store: Store<Value, FeatureAction>) {
    observation?.cancel()
    observation = nil
    store.onRollBack = nil
    pending.removeAll()
  }

  package func opened(feature: String, file: String, state: Value) {
    told = state
    observer(ConsoleEvent(kind: .opened(feature: feature, file: file), diff: [], state: state, live: live?()))
  }

  package func reduced(_ action: FeatureAction, received: Bool, state: Value) {
    pending.append(Reduced(action: action, sender: received ? .effect : sender, state: state, time: Date()))
  }

  /// The state replaced without an action (`:undo`, `:redo`, `:load`), or the scripts reloaded.
  package func replaced(_ reason: ConsoleEvent.Reason, state: Value) {
    tell(.replaced(reason), state: state)
  }

  /// The state put back to the one after the log's entry `entry` (an inspector's jump).
  package func jumped(to entry: Int, state: Value) {
    tell(.jumped(to: entry), state: state)
  }

  /// What `live` returns changed without an action (a recording started or stopped).
  package func liveChanged() {
    observer(ConsoleEvent(kind: .liveChanged, diff: [], state: told, live: live?()))
  }

  private func tell(_ kind: ConsoleEvent.Kind, state: Value) {
    let diff = ConsoleEvent.diffLines(from: told, to: state)
    told = state
    observer(ConsoleEvent(kind: kind, diff: diff, state: state, live: live?()))
  }

  private func sendEnded() {
    guard !pending.isEmpty else { return }
    let reduced = pending
    pending.removeAll()
    // (One picture of the screens and effects for them all: they are told once the send ended.)
    let now = live?()
    for step in reduced {
      let payload = step.action.payload.isNull ? "" : step.action.payload.luaLiteral(.oneLine.elided())
      let kind = ConsoleEvent.Kind.action(name: step.action.name, payload: payload, sender: step.sender)
      let diff = ConsoleEvent.diffLines(from: told, to: step.state)
      told = step.state
      observer(ConsoleEvent(kind: kind, diff: diff, state: step.state, time: step.time, live: now))
    }
  }
}
