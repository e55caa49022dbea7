import Composable
import Relua

/// The REPL as an inspector drives it: each request goes to the feature's store
/// (`FeatureConsole+Inspection`), between lines — one that arrives while a line runs (a chunk
/// awaiting an effect) is refused, so that it never lands in the middle of what was typed.
extension ConsoleSession: InspectedSession {
  package func inspectionLive() -> InspectionLive {
    feature?.inspectionLive() ?? InspectionLive()
  }

  package func inspectorSend(_ action: String, payload: Value) throws {
    try ready().inspectorSend(action, payload: payload)
  }

  package func inspectorJump(to entry: Int, state: Value) throws {
    try ready().inspectorJump(to: entry, state: state)
  }

  package func inspectorCancel(effect id: Int) throws {
    try ready().inspectorCancel(effect: id)
  }

  package func inspectorExport() throws -> (fileName: String, text: String) {
    try ready().inspectorExport()
  }

  package var runningEffects: [RunningEffect] { feature?.store.store.runningEffects ?? [] }

  package func waitForEffectsChange(from shown: @escaping () -> [Int], timeout: Duration) async {
    if let feature {
      await feature.waitForEffectsChange(from: shown, timeout: timeout)
    } else {
      try? await Task.sleep(for: timeout)
    }
  }

  private func ready() throws -> FeatureConsole {
    guard let feature else { throw InspectionRefusal("no feature is open (the script returned none)") }
    guard !isHandlingLine else { throw InspectionRefusal("the REPL is running a line; try again when its prompt is back") }
    return feature
  }
}
