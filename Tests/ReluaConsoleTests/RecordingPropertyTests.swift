import Composable
import Foundation
import Lua
import XCTest

@testable import Relua
@testable import ReluaTesting
@testable import ReluaConsole

/// Issue #31's property: whatever a REPL session does — typed and page actions, effects running
/// and delivering, `:cancel N` / `:cancel all` / the page's Cancel, `:undo`/`:redo`, the page's
/// jumps, waits — the test `:record` … `:stop` writes and the inspector's export both pass
/// `relua test`. Random sessions over the shipped example features, from a seeded generator:
/// a failure prints its seed (`RELUA_RECORDING_SEED=… swift test --filter RecordingPropertyTests`
/// runs that one again). `RELUA_RECORDING_SESSIONS` sets how many (50 by default).
@MainActor
final class RecordingPropertyTests: XCTestCase {
  /// Example features with effects, timers, navigation, recursion, uuids and random numbers.
  /// (Seed 2637015064257354247 on Recursion.lua found a step whose live change was only an empty
  /// table's kind, which the test's JSON cannot state: recordings now compare states as JSON.)
  static let features = [
    "Counter.lua", "GuessingGame.lua", "CaseStudies/Timers.lua", "CaseStudies/NavigateAndLoad.lua",
    "CaseStudies/LoadThenNavigate.lua", "CaseStudies/Stack.lua", "CaseStudies/Destinations.lua",
    "CaseStudies/Recursion.lua",
  ]

  func testRecordedAndExportedSessionsReplay() async throws {
    let environment = ProcessInfo.processInfo.environment
    let sessions = environment["RELUA_RECORDING_SESSIONS"].flatMap(Int.init) ?? 50
    let steps = environment["RELUA_RECORDING_STEPS"].flatMap(Int.init) ?? 15
    let fixedSeed = environment["RELUA_RECORDING_SEED"].flatMap(UInt64.init)
    let scripts = try Self.copyOfScripts()
    var generator = SystemRandomNumberGenerator()
    for index in 0..<(fixedSeed == nil ? sessions : 1) {
      let seed = fixedSeed ?? generator.next()
      let feature = Self.features[Int(seed % UInt64(Self.features.count))]
      do {
        try await Self.session(seed: seed, feature: feature, steps: steps, scripts: scripts)
      } catch {
        XCTFail("session \(index + 1) on \(feature) failed; run it again with RELUA_RECORDING_SEED=\(seed):\n\(error)")
        return
      }
    }
  }

  struct Failure: Error, CustomStringConvertible { var description: String }

  /// A copy of Scripts/Features (the recorded tests go in its Scripts/Tests).
  static func copyOfScripts() throws -> URL {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("relua-recording-\(UUID().uuidString)/Scripts")
    try FileManager.default.createDirectory(at: directory.appendingPathComponent("Tests"), withIntermediateDirectories: true)
    try FileManager.default.copyItem(at: root.appendingPathComponent("Scripts/Features"), to: directory.appendingPathComponent("Features"))
    return directory
  }

  /// SplitMix64 (the runner's, as `--shuffle` uses it): the same seed, the same session.
  typealias Seeded = LuaTestRunner.SeededGenerator

  static func session(seed: UInt64, feature: String, steps: Int, scripts: URL) async throws {
    var random = Seeded(seed: seed)
    let file = scripts.appendingPathComponent("Features/" + feature).path
    let lua = try LuaState(options: LuaOptions(scriptRoots: [scripts.path]))
    defer { lua.close() }
    let printed = Printed()
    let output = ConsoleOutput(useColor: false, write: { printed.add($0) }, writeError: { printed.add($0) })
    let session = try ConsoleSession(lua: lua, reader: LineReader(interactive: false), output: output)
    var states: [Value] = []
    session.eventObserver = { event in
      if case .action = event.kind { states.append(event.state) }
    }
    guard await session.load(file: file), let console = session.feature else { throw Failure(description: "did not load:\n\(printed.text)") }
    defer { console.stop() }
    let name = URL(fileURLWithPath: feature).deletingPathExtension().lastPathComponent
    let recorded = scripts.appendingPathComponent("Tests/\(name)_\(seed)_test.lua").path
    var recording = false
    var log: [String] = ["seed \(seed), \(feature)"]

    for _ in 0..<steps {
      // Between two lines (or two page requests) the REPL awaits its input, and the effects a
      // step started get their turns: no person types within a main-queue turn of the last line.
      try await Task.sleep(for: .milliseconds(3))
      let roll = Int.random(in: 0..<100, using: &random)
      switch roll {
      case 0..<40:
        // An action the store accepts now, typed or from the page.
        let actions = session.inspectionLive().actions.compactMap { action -> (String, Value)? in
          guard let payload = Self.payload(for: action.payload, using: &random) else { return nil }
          return (action.path, payload)
        }
        guard let (path, payload) = actions.randomElement(using: &random) else { continue }
        if Bool.random(using: &random) {
          log.append(":send \(path) \(payload.luaLiteral())")
          await session.handle(":send \(path)" + (payload.isNull ? "" : " " + payload.luaLiteral()))
        } else {
          log.append("(page) send \(path) \(payload.luaLiteral())")
          try? session.inspectorSend(path, payload: payload)
        }
      case 40..<60:
        // Time passes: effects sleep, tick and deliver.
        let seconds = Int.random(in: 0..<10, using: &random) < 7 ? Double.random(in: 0.01...0.15, using: &random) : Double.random(in: 0.9...1.2, using: &random)
        log.append("wait \(seconds)")
        try await Task.sleep(for: .seconds(seconds))
      case 60..<70:
        let running = session.runningEffects
        guard let effect = running.randomElement(using: &random) else { continue }
        if Bool.random(using: &random) {
          log.append(":cancel \(effect.id)")
          await session.handle(":cancel \(effect.id)")
        } else {
          log.append("(page) cancel \(effect.id)")
          try? session.inspectorCancel(effect: effect.id)
        }
      case 70..<75:
        log.append(":cancel all")
        await session.handle(":cancel all")
      case 75..<82:
        let command = Bool.random(using: &random) ? ":undo" : ":redo"
        log.append(command)
        await session.handle(command)
      case 82..<88:
        guard !states.isEmpty else { continue }
        let entry = Int.random(in: 0..<states.count, using: &random)
        log.append("(page) jump \(entry)")
        try? session.inspectorJump(to: entry, state: states[entry])
      default:
        if recording {
          log.append(":stop")
          await session.handle(":stop")
          recording = false
          try await Self.passes(recorded, what: ":record", log: log, printed: printed)
        } else {
          log.append(":record")
          await session.handle(":record \(recorded)")
          recording = true
        }
      }
    }
    try await Task.sleep(for: .milliseconds(3))
    if recording {
      log.append(":stop")
      await session.handle(":stop")
      try await Self.passes(recorded, what: ":record", log: log, printed: printed)
    }
    let (fileName, text) = try session.inspectorExport()
    let exported = URL(fileURLWithPath: file).deletingLastPathComponent().appendingPathComponent(fileName).path
    try text.write(toFile: exported, atomically: true, encoding: .utf8)
    try await Self.passes(exported, what: "the export", log: log, printed: printed)
  }

  static func payload(for type: PayloadType?, using random: inout Seeded) -> Value? {
    switch type {
    case nil, .some(.none): return .null
    case .integer: return .integer(Int64.random(in: -2...12, using: &random))
    case .number, .float: return .float(Double(Int.random(in: 0...8, using: &random)) / 2 + 0.5)
    case .boolean: return .boolean(Bool.random(using: &random))
    case .string: return .string(["", "a", "ab", "relua"].randomElement(using: &random)!)
    case .optional(let wrapped): return Bool.random(using: &random) ? .null : payload(for: wrapped, using: &random)
    default: return nil
    }
  }

  static func passes(_ path: String, what: String, log: [String], printed: Printed) async throws {
    let summary = await LuaTestRunner().run(paths: [path])
    guard summary.failed == 0, summary.passed == 1 else {
      let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? "(no file)"
      throw Failure(description: """
        \(what)'s test failed: \(summary.results.compactMap(\.failure).map { "\($0)" }.joined(separator: "\n"))
        --- the session:
        \(log.joined(separator: "\n"))
        --- the test:
        \(text)
        --- the REPL printed (end):
        \(printed.text.suffix(3000))
        """)
    }
  }

  final class Printed: @unchecked Sendable {  // `lines` is under `lock`
    private let lock = NSLock()
    private var lines: [String] = []
    func add(_ line: String) { lock.withLock { lines.append(line) } }
    var text: String { lock.withLock { lines.joined(separator: "\n") } }
  }
}
