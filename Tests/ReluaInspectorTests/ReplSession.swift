import Foundation
import Lua
@testable import Relua
@testable import ReluaConsole

/// A REPL session over a feature script written for the test, as `relua repl FILE` runs it but
/// without a terminal: lines go in through `handle`, what it prints is kept.
@MainActor
final class ReplSession {
  let session: ConsoleSession
  let lua: LuaState
  private let printed = Printed()

  /// A tally with an action that fails after writing, and one that sends a follow-up.
  static let tally = """
    local relua = require "relua"
    local feature, on, Effect = relua.feature, relua.on, relua.Effect
    return feature "Tally" {
      state = { count = 0 },
      actions = { increment = {}, setCount = "integer", fail = {}, double = {}, doubled = {} },
      reduce = on {
        increment = function(s) s.count = s.count + 1 end,
        setCount = function(s, n) s.count = n end,
        fail = function(s) s.count = 99; error("no") end,
        double = function(s) s.count = s.count + 1; return Effect.send("doubled") end,
        doubled = function(s) s.count = s.count * 2 end,
      },
    }
    """

  init(feature source: String = ReplSession.tally, events: @escaping (ConsoleEvent) -> Void) async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("relua-inspector-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let file = directory.appendingPathComponent("Tally.lua").path
    try source.write(toFile: file, atomically: true, encoding: .utf8)
    lua = try LuaState(options: LuaOptions(scriptRoots: [directory.path]))
    let printed = self.printed
    let output = ConsoleOutput(useColor: false, write: { printed.add($0) }, writeError: { printed.add($0) })
    session = try ConsoleSession(lua: lua, reader: LineReader(interactive: false), output: output)
    session.eventObserver = events
    guard await session.load(file: file) else { throw Failure(description: "the feature did not load:\n\(printed.text)") }
  }

  /// Types `line` at the prompt.
  func type(_ line: String) async {
    await session.handle(line)
  }

  var output: String { printed.text }

  func close() {
    session.feature?.stop()
    lua.close()
  }

  struct Failure: Error, CustomStringConvertible { var description: String }

  private final class Printed: @unchecked Sendable {  // `lines` is under `lock`
    private let lock = NSLock()
    private var lines: [String] = []
    func add(_ line: String) { lock.withLock { lines.append(line) } }
    var text: String { lock.withLock { lines.joined(separator: "\n") } }
  }
}
