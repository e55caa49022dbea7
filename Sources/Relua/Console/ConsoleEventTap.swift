import Composable
import Foundation

/// Turns what the REPL's store does into `ConsoleEvent`s for an observer: each reduced action
/// with its own diff (a send that leads to follow-ups is several actions, each diffed against the
/// one before), told once the send has ended — and never, when the send failed and its state was
/// restored (`Store.onRollBack`): the observer sees only what happened.
@MainActor
final class ConsoleEventTap {
  private struct Reduced {
    var action: FeatureAction
    var received: Bool
    var state: Value
    var time: Date
  }

  private let observer: (ConsoleEvent) -> Void
  /// The actions of the send under way.
  private var pending: [Reduced] = []
  /// The state the observer was last told of.
  private var told: Value = .null
  private var observation: ObservationToken?

  init(observer: @escaping (ConsoleEvent) -> Void) {
    self.observer = observer
  }

  /// Follows `store` (again after `:reload` made a new one). Its reduced actions come through
  /// `reduced`, which the REPL calls from the store's one `onReduce` hook (a recording shares it).
  func attach(to store: Store<Value, FeatureAction>) {
    pending.removeAll()
    told = store.state
    observation?.cancel()
    observation = store.observeSends { [weak self] _ in self?.sendEnded() }
    store.onRollBack = { [weak self] in self?.pending.removeAll() }
  }

  func detach(from store: Store<Value, FeatureAction>) {
    observation?.cancel()
    observation = nil
    store.onRollBack = nil
    pending.removeAll()
  }

  func opened(feature: String, file: String, state: Value) {
    told = state
    observer(ConsoleEvent(kind: .opened(feature: feature, file: file), diff: [], state: state))
  }

  func reduced(_ action: FeatureAction, received: Bool, state: Value) {
    pending.append(Reduced(action: action, received: received, state: state, time: Date()))
  }

  /// The state replaced without an action (`:undo`, `:redo`, `:load`), or the scripts reloaded.
  func replaced(_ reason: ConsoleEvent.Reason, state: Value) {
    let diff = ConsoleEvent.diffLines(from: told, to: state)
    told = state
    observer(ConsoleEvent(kind: .replaced(reason), diff: diff, state: state))
  }

  private func sendEnded() {
    guard !pending.isEmpty else { return }
    let reduced = pending
    pending.removeAll()
    for step in reduced {
      let payload = step.action.payload.isNull ? "" : step.action.payload.luaLiteral(.oneLine.elided())
      let kind = ConsoleEvent.Kind.action(name: step.action.name, payload: payload, sender: step.received ? .effect : .typed)
      let diff = ConsoleEvent.diffLines(from: told, to: step.state)
      told = step.state
      observer(ConsoleEvent(kind: kind, diff: diff, state: step.state, time: step.time))
    }
  }
}
