import Composable
import Foundation

/// A REPL session being recorded as a test (`:record FILE_test.lua` … `:stop`): the state it
/// started from, each action with the state it led to, and every uuid and random number the live
/// dependencies produced meanwhile, so the test replays the session exactly.
@MainActor
final class SessionRecording {
  let path: String
  let featureFile: String
  let initialState: Value
  private(set) var steps: [(action: String, payload: Value, state: Value)] = []
  let uuids = LockedValue<[String]>([])
  let randoms = LockedValue<[Int]>([])

  init(path: String, featureFile: String, initialState: Value) {
    self.path = path
    self.featureFile = featureFile
    self.initialState = initialState
  }

  func append(action: String, payload: Value, state: Value) {
    steps.append((action, payload, state))
  }

  /// Wraps the store's uuid and random dependencies so that what they produce is written down.
  static func installRecorders(on store: Store<Value, FeatureAction>, into recording: SessionRecording) {
    var dependencies = store.dependencies
    let live = dependencies
    let uuids = recording.uuids
    let randoms = recording.randoms
    dependencies.uuid = UUIDGenerator {
      let uuid = live.uuid()
      uuids.withLock { $0.append(uuid.uuidString) }
      return uuid
    }
    dependencies.random = RandomNumber { range in
      let value = live.random(in: range)
      randoms.withLock { $0.append(value) }
      return value
    }
    store.dependencies = dependencies
  }

  /// `require` name of the feature script: its path under `Scripts/`, dotted.
  var moduleName: String {
    var relative = featureFile
    if let range = featureFile.range(of: "Scripts/", options: .backwards) { relative = String(featureFile[range.upperBound...]) }
    if relative.hasSuffix(".lua") { relative.removeLast(4) }
    return relative.replacingOccurrences(of: "/", with: ".")
  }

  func write() throws {
    var deps: [String] = ["clock = \"immediate\""]
    let uuidList = uuids.withLock { $0 }
    let randomList = randoms.withLock { $0 }
    if !uuidList.isEmpty { deps.append("uuid = { " + uuidList.map { quoteLuaString($0) }.joined(separator: ", ") + " }") }
    if !randomList.isEmpty { deps.append("random = { " + randomList.map(String.init).joined(separator: ", ") + " }") }
    var lines = [
      "-- Recorded with `relua repl \(featureFile)` (:record … :stop) on \(Self.today()).",
      "-- Each step sends what was sent in the session and expects the whole state it led to.",
      "local relua = require \"relua\"",
      "local Feature = require \"\(moduleName)\"",
      "",
      "local function becomes(json)",
      "  local expected = relua.fromJSON(json)",
      "  return function(state)",
      "    for key in pairs(state) do state[key] = nil end",
      "    for key, value in pairs(expected) do state[key] = value end",
      "  end",
      "end",
      "",
      "test(\(quoteLuaString("recorded session: " + (steps.map(\.action).prefix(3).joined(separator: ", ")))), function()",
      "  local store = relua.TestStore(Feature, {",
      "    json = \(Self.longString(try initialState.json())),",
      "    deps = { \(deps.joined(separator: ", ")) },",
      "  })",
    ]
    for step in steps {
      let payload = step.payload.isNull ? "" : step.payload.luaLiteral() + ", "
      lines.append("  store:send(\(quoteLuaString(step.action)), \(payload)becomes(\(Self.longString(try step.state.json()))))")
    }
    lines += ["  store:skipInFlightEffects()", "end)", ""]
    try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
  }

  private static func longString(_ text: String) -> String {
    var level = 1
    while text.contains("]" + String(repeating: "=", count: level) + "]") { level += 1 }
    let equals = String(repeating: "=", count: level)
    return "[\(equals)[\(text)]\(equals)]"
  }

  private static func today() -> String {
    let formatter = DateFormatter()
    formatter.dateFormat = "yyyy-MM-dd"
    return formatter.string(from: Date())
  }
}
