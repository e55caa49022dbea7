import Foundation
import Relua

/// The JSON the inspector's WebSocket sends its page, one text message each (server to page only
/// in this version):
///
///     {"type": "history", "feature": {"name": "Game", "file": "Scripts/Features/GuessingGame.lua"},
///      "entries": [ENTRY, …], "dropped": 0, "state": STATE}
///     {"type": "entry", "entry": ENTRY, "state": STATE}
///
/// `history` comes first on every connection (a page opened late sees everything so far; a page
/// that reconnects starts over from it), and again to every page when a feature opens. Then one
/// `entry` per thing that happened, with the state after it. `feature` is absent until the script
/// returned a feature; `dropped` counts the oldest entries no longer kept (`InspectorHub.keptEntries`).
///
///     ENTRY = {"index": 3, "kind": "action", "name": "counter.setCount", "payload": "5",
///              "sender": "typed", "diff": ["  {", "−   count = 0,", "+   count = 5,", …], "time": 1700000000000}
///
/// `kind` is `action`, or `undo`, `redo`, `load`, `reload` for a state replaced without one (they
/// have no name, payload or sender). `index` counts entries from 1; `payload` is a Lua literal
/// ("" for none); `sender` is `typed` (from the prompt) or `effect`; `diff` holds the lines the
/// REPL prints (cut as they are: 40 lines at most), empty when nothing changed; `time` is when it
/// happened, in milliseconds since 1970 (JavaScript's `Date`). `STATE` is the whole state as JSON
/// (relua's state files' form); a state JSON cannot hold (NaN) comes as `"stateError": "why"`.
enum InspectorMessage {
  static func entry(_ event: ConsoleEvent, index: Int) -> Value {
    var fields: [(String, Value)] = [
      ("index", .integer(Int64(index))),
      ("diff", .array(event.diff.map { .string($0) })),
      ("time", .integer(Int64((event.time.timeIntervalSince1970 * 1000).rounded()))),
    ]
    switch event.kind {
    case .action(let name, let payload, let sender):
      fields += [("kind", "action"), ("name", .string(name)), ("payload", .string(payload)), ("sender", .string(sender.rawValue))]
    case .replaced(let reason):
      fields.append(("kind", .string(reason.rawValue)))
    case .opened:
      fields.append(("kind", "opened"))
    }
    return .record(ValueRecord(fields))
  }

  static func history(feature: Value, entries: [Value], dropped: Int, state: Value) -> String {
    text([("type", "history"), ("feature", feature), ("entries", .array(entries)), ("dropped", .integer(Int64(dropped)))], state: state)
  }

  static func update(entry: Value, state: Value) -> String {
    text([("type", "entry"), ("entry", entry)], state: state)
  }

  /// The message's JSON with `state`, or with `stateError` when the state has no JSON form.
  private static func text(_ fields: [(String, Value)], state: Value) -> String {
    do {
      return try Value.record(ValueRecord(fields + [("state", state)])).json()
    } catch {
      // (The other fields always have one: strings and integers.)
      return (try? Value.record(ValueRecord(fields + [("stateError", .string("\(error)"))])).json()) ?? "{}"
    }
  }
}
