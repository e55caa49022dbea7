import Composable
import Foundation
import Relua

/// The JSON the inspector's WebSocket sends its page, one text message each:
///
///     {"type": "history", "feature": {"name": "Game", "file": "Scripts/Features/GuessingGame.lua"},
///      "entries": [ENTRY, …], "dropped": 0, "state": STATE, "live": LIVE}
///     {"type": "entry", "entry": ENTRY, "state": STATE, "live": LIVE}
///     {"type": "live", "live": LIVE}
///     {"type": "result", "request": N, …}
///
/// `history` comes first on every connection (a page opened late sees everything so far; a page
/// that reconnects starts over from it), and again to every page when a feature opens. Then one
/// `entry` per thing that happened, with the state after it; `live` when the effects in flight
/// changed without one; `result` answers the page's request N (`InspectorRequest`). `feature` is
/// null until the script returned a feature; `dropped` counts the oldest entries no longer kept
/// (`InspectorHub.keptEntries`).
///
///     ENTRY = {"index": 3, "kind": "action", "name": "counter.setCount", "payload": "5",
///              "sender": "typed", "diff": ["  {", "−   count = 0,", "+   count = 5,", …], "time": 1700000000000}
///
/// `kind` is `action`, or `undo`, `redo`, `load`, `reload`, `jump` for a state replaced without
/// one (they have no name, payload or sender; a `jump` has `to`, the entry whose state it put
/// back). `index` counts entries from 1; `payload` is a Lua literal ("" for none); `sender` is
/// `typed` (the REPL's prompt), `effect`, `page` (an inspector's form), `program` (the Swift
/// program's `ReluaStore.send`) or `task` (the REPL, as a screen appeared: its feature's `task`); `diff` holds the lines the REPL prints (cut as they are: 40 lines
/// at most), empty when nothing changed; `time` is when it happened, in milliseconds since 1970
/// (JavaScript's `Date`). `STATE` is the whole state as JSON (relua's state files' form); a state
/// JSON cannot hold (NaN) comes as `"stateError": "why"`.
///
///     LIVE = {"screens": [{"name": "Game", "place": "", "kind": "root", "text": "…"}, …],
///             "effects": [{"id": 7, "cancelIDs": ["search"], "concatenation": false,
///                          "name": "timer", "place": "Timer.lua:12"}, …],   (name, place: a named effect's)
///             "actions": [{"path": "counter.setCount", "payload": "integer"}, …],
///             "travel": true, "export": {"actions": 4, "since": "open"},
///             "shared": [{"path": "/path/[1]/detail/note", "key": "fileStorage(\"notes.json\"):element()"}, …]}
///
/// `shared` (absent when there is none) names the places of the state tree that hold shared values (record keys, 1-based
/// positions), with their keys. `screens` go from the root to the top (`kind`: root, presented, pushed, alert,
/// confirmationDialog; `close`, the action that closes it, is absent for the root; `closePayload`
/// is there when that action takes one: a pushed screen's id; `tasks`, absent when none, the actions
/// sent when it appears: its feature's `task`); `effects`' cancel ids are Lua
/// literals, as `:cancel` lists them; `actions` are every action that can be sent now, with the
/// declared payload type as `:help` writes it (absent: none); `travel` is false while jumps are
/// refused (the REPL records a test); `export` says how many actions an export would hold, and
/// since what. (A field that would be null is absent, as in relua's state files.)
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
    case .jumped(let entry):
      fields += [("kind", "jump"), ("to", .integer(Int64(entry)))]
    // (Not entries: the hub tells them otherwise.)
    case .opened:
      fields.append(("kind", "opened"))
    case .liveChanged:
      fields.append(("kind", "live"))
    }
    return .record(ValueRecord(fields))
  }

  static func live(_ live: InspectionLive) -> Value {
    let screens: [Value] = live.screens.map { screen in
      var fields: [(String, Value)] = [
        ("name", .string(screen.name)), ("place", .string(screen.place)), ("kind", .string(screen.kind.rawValue)),
        ("close", screen.close.map(Value.string) ?? .null), ("text", .string(screen.text)),
      ]
      if let payload = screen.closePayload { fields.append(("closePayload", payload)) }
      if !screen.tasks.isEmpty { fields.append(("tasks", .array(screen.tasks.map(Value.string)))) }
      return .record(ValueRecord(fields))
    }
    let effects: [Value] = live.effects.map { effect in
      var fields: [(String, Value)] = [
        ("id", .integer(Int64(effect.id))), ("cancelIDs", .array(effect.cancelIDs.map(Value.string))),
        ("concatenation", .boolean(effect.isConcatenation)),
      ]
      // A named effect's name and where it was made (`Effect.run(fn, { name = "timer" })`).
      if let name = effect.name { fields.append(("name", .string(name))) }
      if let place = effect.place { fields.append(("place", .string(place))) }
      return .record(ValueRecord(fields))
    }
    let actions: [Value] = live.actions.map { action in
      .record(ValueRecord([("path", .string(action.path)), ("payload", action.payload.map { .string($0.description) } ?? .null)]))
    }
    // `shared` only when the state holds shared values.
    let shared: Value = live.shared.isEmpty ? .null
      : .array(live.shared.map { .record(ValueRecord([("path", .string($0.treePath)), ("key", .string($0.key))])) })
    return .record(ValueRecord([
      ("screens", .array(screens)), ("effects", .array(effects)), ("actions", .array(actions)),
      ("travel", .boolean(live.canTravel)), ("shared", shared),
      ("export", .record(ValueRecord([("actions", .integer(Int64(live.exportActions))), ("since", .string(live.exportSince))]))),
    ]))
  }

  static func history(feature: Value, entries: [Value], dropped: Int, state: Value, live: Value) -> String {
    text([("type", "history"), ("feature", feature), ("entries", .array(entries)), ("dropped", .integer(Int64(dropped))), ("live", live)], state: state)
  }

  static func update(entry: Value, state: Value, live: Value) -> String {
    text([("type", "entry"), ("entry", entry), ("live", live)], state: state)
  }

  static func liveUpdate(_ live: Value) -> String {
    encode([("type", "live"), ("live", live)])
  }

  /// The answer to request `request` (nil: a message too broken to have one): `fields`, or `error`.
  static func result(request: Int64?, _ fields: [(String, Value)] = [], error: String? = nil) -> String {
    var all: [(String, Value)] = [("type", "result"), ("request", request.map(Value.integer) ?? .null)]
    if let error { all.append(("error", .string(error))) } else { all += fields }
    return encode(all)
  }

  /// A state answer (`stateAt`): the state, or `stateError` when it has no JSON form.
  static func stateResult(request: Int64, entry: Int, state: Value) -> String {
    text([("type", "result"), ("request", .integer(request)), ("index", .integer(Int64(entry)))], state: state)
  }

  /// The message's JSON with `state`, or with `stateError` when the state has no JSON form.
  private static func text(_ fields: [(String, Value)], state: Value) -> String {
    do {
      return try Value.record(ValueRecord(fields + [("state", state)])).json()
    } catch {
      return encode(fields + [("stateError", .string("\(error)"))])
    }
  }

  /// Fields that always have a JSON form (strings, integers, booleans; a payload from the state).
  private static func encode(_ fields: [(String, Value)]) -> String {
    (try? Value.record(ValueRecord(fields)).json()) ?? "{}"
  }
}
