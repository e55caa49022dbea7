import Composable
import Foundation

/// A store a Swift program made (`ReluaStore`), as an inspector shows and drives it: its actions
/// come to the observer as `ConsoleEvent`s (sent by the `program`, an `effect`, or the `page`),
/// and a page's requests act on it as they would on the REPL's — without a REPL to print them.
///
/// It takes the store's `onReduce` hook while it lives (`close` gives it back).
@MainActor
package final class ReluaStoreInspection: InspectedSession {
  private let store: ReluaStore
  private let tap: ConsoleEventTap
  /// The session recorded as a test since the store was inspected or a jump (what an export writes).
  private let export: SessionExport
  /// Where the recording stood when the last send ended: a send that fails (its state restored)
  /// is forgotten back to there, the program's own sends too.
  private var recordedUpToLastSend = 0
  private var sends: ObservationToken?

  /// Starts telling `observer` what `store` does: first an `opened` event with its state now.
  package init(store: ReluaStore, observer: @escaping (ConsoleEvent) -> Void) {
    self.store = store
    export = SessionExport(featureFile: Self.file(of: store.feature), store: store.object.store, host: store.object.host)
    var live: (() -> InspectionLive)?
    tap = ConsoleEventTap(sender: .program, live: { live?() ?? InspectionLive() }, observer: observer)
    live = { [unowned self] in self.inspectionLive() }
    let root = store.object.store
    tap.attach(to: root, rolledBack: { [unowned self] in
      // An effect's action that failed cannot be replayed (a test cannot expect a reducer's
      // failure, and the effect would send it again): the export starts over after it.
      if self.export.recording.sendStartedReceived {
        self.export.restart(since: .failure, store: root)
        self.recordedUpToLastSend = 0
      } else {
        self.export.recording.rollBack(to: self.recordedUpToLastSend)
      }
    })
    sends = root.observeSends { [unowned self] _ in
      self.export.recording.sendEnded()
      self.recordedUpToLastSend = self.export.recording.mark
    }
    root.onCancelFromHost = { [unowned self] effect in self.export.recording.cancelled(effect: effect) }
    root.onReduce = { [weak self, weak root] action, received in
      guard let self, let root else { return }
      self.export.recording.reduced(action, received: received, state: root.state)
      self.tap.reduced(action, received: received, state: root.state)
    }
    tap.opened(feature: store.feature.name, file: Self.file(of: store.feature), state: store.state)
  }

  /// Stops telling the observer, and gives the store its dependencies and hook back.
  package func close() {
    let root = store.object.store
    root.onReduce = nil
    root.onCancelFromHost = nil
    sends?.cancel()
    tap.detach(from: root)
    export.close(store: root)
  }

  /// The file the feature was defined in (`definedAt` without its line).
  private static func file(of feature: FeatureDefinition) -> String {
    guard let colon = feature.definedAt.lastIndex(of: ":"), Int(feature.definedAt[feature.definedAt.index(after: colon)...]) != nil else {
      return feature.definedAt
    }
    return String(feature.definedAt[..<colon])
  }

  // MARK: InspectedSession

  package func inspectionLive() -> InspectionLive {
    var live = InspectionLive(feature: store.feature, store: store.object.store, host: store.object.host)
    export.describe(in: &live)
    return live
  }

  package var runningEffects: [RunningEffect] { store.object.store.runningEffects }

  package func inspectorSend(_ action: String, payload: Value) throws {
    do {
      try tap.sending(from: .page) { _ = try store.send(action, payload) }
    } catch {
      // (The recording forgot the failed send's actions with the rollback.)
      throw InspectionRefusal(ReluaError.message(of: error))
    }
  }

  package func inspectorJump(to entry: Int, state: Value) throws {
    do {
      try FeatureStateCheck.check(state, against: store.feature)
    } catch let error as ReluaError {
      throw InspectionRefusal("the state after #\(entry) does not fit the feature: \(error.fullDescription)")
    }
    store.object.restore(state)
    export.restart(since: .jump, store: store.object.store)
    recordedUpToLastSend = 0
    tap.jumped(to: entry, state: store.state)
  }

  package func inspectorCancel(effect id: Int) throws {
    guard store.object.store.cancelEffect(id) else { throw InspectionRefusal("no effect #\(id) is running") }
  }

  package func inspectorExport() throws -> (fileName: String, text: String) {
    try export.test(of: store.object.store)
  }

  package func waitForEffectsChange(from shown: @escaping () -> [Int], timeout: Duration) async {
    await store.object.store.waitForRunningEffects(toDifferFrom: shown, timeout: timeout)
  }
}
