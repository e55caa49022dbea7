import Composable
import Relua

/// Carries out a page's requests (`InspectorRequest`) on the inspected session, on the main actor,
/// and answers each (`InspectorMessage.result`); and keeps the pages' effects in flight current
/// while the store runs them (`watchEffects`).
@MainActor
package final class InspectorControl {
  private let hub: InspectorHub
  private weak var session: (any InspectedSession)?

  package init(hub: InspectorHub, session: any InspectedSession) {
    self.hub = hub
    self.session = session
  }

  /// The answer to a page's message `text` (JSON: a `result`).
  package func answer(_ text: String) -> String {
    let request: InspectorRequest
    do {
      request = try InspectorRequest(parsing: text)
    } catch {
      return InspectorMessage.result(request: error.request, error: error.message)
    }
    guard let session else { return InspectorMessage.result(request: request.id, error: "the inspected store is gone") }
    do {
      switch request.kind {
      case .send(let action, let payload):
        try session.inspectorSend(action, payload: payload)
      case .jump(let entry):
        try session.inspectorJump(to: entry, state: try kept(entry))
      case .stateAt(let entry):
        return InspectorMessage.stateResult(request: request.id, entry: entry, state: try kept(entry))
      case .cancel(let effect):
        try session.inspectorCancel(effect: effect)
        hub.effectsChanged(session.inspectionLive().effects)
      case .export:
        let export = try session.inspectorExport()
        return InspectorMessage.result(request: request.id, [("fileName", .string(export.fileName)), ("text", .string(export.text))])
      }
      return InspectorMessage.result(request: request.id)
    } catch {
      return InspectorMessage.result(request: request.id, error: "\(error)")
    }
  }

  private func kept(_ entry: Int) throws -> Value {
    guard let state = hub.state(after: entry) else { throw InspectionRefusal("entry #\(entry) is not in the log (or no longer kept)") }
    return state
  }

  /// Tells the hub of each change of the effects in flight, until the task is cancelled or the
  /// session is gone (an effect that ends tells no entry, so the pages would not know). It
  /// compares with what the pages were last told (`InspectorHub.effectIDsTold`: entries carry
  /// effects too), so an effect that starts and ends within one send's entry is not missed.
  func watchEffects() async {
    let hub = self.hub
    while !Task.isCancelled, let session {
      await session.waitForEffectsChange(from: { hub.effectIDsTold }, timeout: .seconds(1))
      guard let session = self.session else { return }
      let effects = session.runningEffects
      if effects.map(\.id) != hub.effectIDsTold { hub.effectsChanged(effects) }
    }
  }
}
