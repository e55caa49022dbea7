import Foundation
import Lua
import Relua
import ReluaGitHub
import ReluaWebApp

/// `app-message`: bytes as lines. The first names an example feature (as `inspector-request`'s:
/// `GuessingGame`, `RepositorySearch`, `CaseStudies/Stack`, …; another name picks one by hash);
/// each further line (at most 16) is a message a page of `relua app` sends (`{"screen": "", "at":
/// [1, 1, 0]}`, `{"close": "destination.results"}`, `{"alert": "alert", "button": 0}`), decoded,
/// checked and worked by the app's own session (`WebAppSession.answer`).
///
/// Invariants: every answer is a JSON object of type `ok` or `error`; a message refused leaves the
/// state as it was; every message the pages are sent is JSON.
@MainActor
final class AppMessageTarget: FuzzTarget {
  func run(_ input: UnsafeRawBufferPointer) {
    guard let text = inputText(input) else { return }
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard !lines.isEmpty else { return }
    let selector = lines.removeFirst().trimmingCharacters(in: .whitespaces)
    let feature = fuzzFeature(named: selector, among: InspectorRequestTarget.features, separator: "/")

    let (runtime, store) = makeFuzzStore(of: feature, for: "app-message")
    defer { runtime.lua.close() }
    let watchdog = Watchdog(runtime.lua.interruptHandle, seconds: 5)
    defer { watchdog.cancel() }

    let feed = WebAppFeed()
    let (messages, _) = feed.subscribe()
    let session = WebAppSession(store: store, feed: feed)
    session.refresh()
    for line in lines.prefix(16) where !line.isEmpty {
      let before = store.state
      let answer = session.answer(line)
      guard let parsed = try? Value(json: answer), let type = parsed[key: "type"].stringValue, type == "ok" || type == "error" else {
        invariantFailed("an answer that is not a JSON ok or error: \(answer)")
      }
      if type == "error", store.state != before {
        invariantFailed("a refused message changed the state: \(line) -> \(answer)")
      }
    }
    session.stop()
    feed.close()
    let (drained, _, _) = runAsync(seconds: 10) {
      for await message in messages {
        do { _ = try Value(json: message) } catch {
          invariantFailed("a message to the pages that is not JSON: \(message.prefix(200))")
        }
      }
    }
    if !drained { invariantFailed("the pages' messages did not end when the feed closed") }
    let (finished, _, _) = runAsync(seconds: 10) { await runtime.host.stopEffects() }
    if !finished { invariantFailed("the store's effects did not stop within 10 s of being cancelled") }
  }
}
