import Foundation
import Lua
import Relua
import ReluaGitHub
import ReluaInspector

/// `inspector-request`: bytes as lines. The first names an example feature (`GuessingGame`,
/// `RepositorySearch`, `Stack`, `Destinations`, `AlertsAndConfirmationDialogs`; another name picks
/// one by hash); each further line (at most 16) is a message an inspector's page sends
/// (`{"type": "send", "request": 1, "action": "counter.setCount", "payload": 5}`, `jump`, `stateAt`,
/// `cancel`, `export`), answered by the inspector's own control over a store of the feature
/// (`StoreInspector`'s path: `ReluaStoreInspection`, `InspectorHub`, `InspectorControl`).
///
/// Invariants: every answer is a JSON `result` (with the request's number when it had one); a
/// request refused (`error`) leaves the state as it was.
@MainActor
final class InspectorRequestTarget: FuzzTarget {
  static let features = [
    "GuessingGame", "RepositorySearch", "CaseStudies/Stack", "CaseStudies/Destinations",
    "CaseStudies/AlertsAndConfirmationDialogs",
  ]

  func run(_ input: UnsafeRawBufferPointer) {
    guard let text = inputText(input) else { return }
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard !lines.isEmpty else { return }
    let selector = lines.removeFirst().trimmingCharacters(in: .whitespaces)
    let feature = fuzzFeature(named: selector, among: Self.features, separator: "/")

    let (runtime, store) = makeFuzzStore(of: feature, for: "inspector-request")
    defer { runtime.lua.close() }
    let watchdog = Watchdog(runtime.lua.interruptHandle, seconds: 5)
    defer { watchdog.cancel() }

    let hub = InspectorHub()
    let inspection = ReluaStoreInspection(store: store) { hub.record($0) }
    let control = InspectorControl(hub: hub, session: inspection)
    for line in lines.prefix(16) where !line.isEmpty {
      let before = store.state
      let answer = control.answer(line)
      let request = try? Value(json: line)
      check(answer, for: request)
      let refused = (try? Value(json: answer))?[key: "error"].stringValue != nil
      if refused, store.state != before {
        invariantFailed("a refused request changed the state: \(line) -> \(answer)")
      }
    }
    inspection.close()
    hub.close()
    let (finished, _, _) = runAsync(seconds: 10) { await runtime.host.stopEffects() }
    if !finished { invariantFailed("the store's effects did not stop within 10 s of being cancelled") }
  }

  /// An answer is a JSON object of type `result`, numbered as its request when it had a number.
  private func check(_ answer: String, for request: Value?) {
    guard let parsed = try? Value(json: answer), parsed[key: "type"].stringValue == "result" else {
      invariantFailed("an answer that is not a JSON result: \(answer)")
    }
    if case .integer(let number)? = request?[key: "request"], request?[key: "type"].stringValue != nil,
      parsed[key: "request"] != .integer(number)
    {
      invariantFailed("the answer to request \(number) is numbered otherwise: \(answer)")
    }
  }
}
