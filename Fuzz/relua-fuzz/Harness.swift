import Foundation
import Lua
import Relua
import ReluaGitHub

/// One fuzz target: runs one input. Errors the host reports (bad JSON, Lua errors, bad actions)
/// are expected; a crash, a hang or a broken invariant (`invariantFailed`) is a bug.
@MainActor
protocol FuzzTarget: AnyObject {
  func run(_ input: UnsafeRawBufferPointer)
}

@MainActor
enum FuzzTargets {
  static let names = [
    "json", "lua-value", "action-path", "run", "websocket-frames", "inspector-request", "inspector-socket", "test-report", "coverage", "pattern", "shared-file", "app-message",
  ]
  nonisolated(unsafe) static var current: (any FuzzTarget)?

  static func make(_ name: String) -> (any FuzzTarget)? {
    switch name {
    case "json": return JSONTarget()
    case "lua-value": return LuaValueTarget()
    case "action-path": return ActionPathTarget()
    case "run": return RunTarget()
    case "websocket-frames": return WebSocketFramesTarget()
    case "inspector-request": return InspectorRequestTarget()
    case "test-report": return TestReportTarget()
    case "coverage": return CoverageTarget()
    case "inspector-socket": return InspectorSocketTarget()
    case "pattern": return PatternTarget()
    case "shared-file": return SharedFileTarget()
    case "app-message": return AppMessageTarget()
    default: return nil
    }
  }
}

/// A broken invariant: a real bug. Traps, so libFuzzer saves the input.
func invariantFailed(_ message: String, file: StaticString = #file, line: UInt = #line) -> Never {
  FileHandle.standardError.write(Data("relua-fuzz: INVARIANT BROKEN: \(message)\n".utf8))
  fatalError("relua-fuzz invariant broken (see above)", file: file, line: line)
}

/// Temporary guards of the harness against bug classes already known and being fixed (so fuzzing
/// gets past them). Each one names its bug; RELUA_FUZZ_NO_GUARDS=1 turns them all off (to check
/// the fixes). Remove a guard once its bug is fixed.
enum FuzzGuards {
  static let enabled = ProcessInfo.processInfo.environment["RELUA_FUZZ_NO_GUARDS"] != "1"
  // None now: deep nesting went with b6c5695 (values nest at most 200 deep), math.mininteger's
  // literal and quadratic JSON strings with a52e648.
}

/// RELUA_FUZZ_VERBOSE=1: the targets print what Lua prints and the errors inputs raise (to see
/// that a corpus input does what it should).
let fuzzVerbose = ProcessInfo.processInfo.environment["RELUA_FUZZ_VERBOSE"] == "1"

/// Where Lua's `print` and warnings go: nowhere, unless verbose.
let luaOutput: (@Sendable (String) -> Void)? = { line in
  if fuzzVerbose { FileHandle.standardError.write(Data(("lua: " + line + "\n").utf8)) }
}

func verbose(_ message: @autoclosure () -> String) {
  if fuzzVerbose { FileHandle.standardError.write(Data((message() + "\n").utf8)) }
}

/// The Scripts directory: `require` root for `run`, the example features for `action-path`.
let scriptsDirectory: String = {
  if let override = ProcessInfo.processInfo.environment["RELUA_FUZZ_SCRIPTS"] { return override }
  // This file is Fuzz/relua-fuzz/Harness.swift in the repository.
  return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Scripts").path
}()

/// The input as text, when it is valid UTF-8 (Lua source may be anything, but state is text).
func inputText(_ input: UnsafeRawBufferPointer) -> String? {
  String(validating: input, as: UTF8.self)
}

/// How deep `[`/`{` nest in JSON text (brackets inside strings not counted).
func jsonNesting(_ input: UnsafeRawBufferPointer) -> Int {
  var depth = 0, deepest = 0, inString = false, escaped = false
  for byte in input {
    if inString {
      if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
      continue
    }
    switch byte {
    case UInt8(ascii: "\""): inString = true
    case UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1; deepest = max(deepest, depth)
    case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
    default: break
    }
  }
  return deepest
}

/// How deep a Value nests (iteratively: it must not overflow itself).
func valueNesting(_ value: Value) -> Int {
  var deepest = 0
  var pending: [(Value, Int)] = [(value, 0)]
  while let (value, depth) = pending.popLast() {
    deepest = max(deepest, depth)
    switch value {
    case .array(let elements): pending += elements.map { ($0, depth + 1) }
    case .identified(let collection): pending += collection.elements.map { ($0, depth + 1) }
    case .record(let record): pending += record.fields.map { ($0.value, depth + 1) }
    default: break
    }
  }
  return deepest
}

/// Lua: how deep the tables reachable from a value nest (iteratively, each table once).
let luaNestingSource = """
  local value = ...
  if type(value) ~= "table" then return 0 end
  local deepest, seen, stack = 0, {}, { { value, 1 } }
  while #stack > 0 do
    local top = table.remove(stack)
    local t, depth = top[1], top[2]
    if not seen[t] then
      seen[t] = true
      if depth > deepest then deepest = depth end
      for k, v in next, t do
        if type(v) == "table" then stack[#stack + 1] = { v, depth + 1 } end
        if type(k) == "table" then stack[#stack + 1] = { k, depth + 1 } end
      end
    end
  end
  return deepest
  """

/// Runs `body` on the main actor as a task and turns the main run loop until it is done, for at
/// most `seconds`. Returns whether it finished. (The fuzz callback is synchronous, on the main
/// thread; this is how it waits for effects and coroutines.)
@MainActor
func runAsync(seconds: Double, _ body: @escaping @MainActor () async -> Void) -> (finished: Bool, task: Task<Void, Never>, box: DoneBox) {
  let box = DoneBox()
  let task = Task { @MainActor in
    await body()
    box.done = true
  }
  _ = pump(until: { box.done }, seconds: seconds)
  return (box.done, task, box)
}

/// Turns the main run loop until `condition` holds or `seconds` passed.
@MainActor
func pump(until condition: () -> Bool, seconds: Double) -> Bool {
  let deadline = Date().addingTimeInterval(seconds)
  while !condition() {
    if Date() >= deadline { return false }
    _ = RunLoop.main.run(mode: .default, before: Date().addingTimeInterval(0.002))
  }
  return true
}

@MainActor
final class DoneBox {
  var done = false
}

/// Interrupts a Lua state's running code after a wall-clock time (a handler that loops through
/// Swift, where the instruction budget is reset for every call, still runs Lua code, which then
/// raises "interrupted"). Cancel it when the input is done.
final class Watchdog: @unchecked Sendable {
  private let lock = NSLock()
  private var cancelled = false

  init(_ handle: LuaInterruptHandle, seconds: Double) {
    DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in
      lock.lock()
      defer { lock.unlock() }
      if !cancelled { handle.interrupt() }
    }
  }

  func cancel() {
    lock.lock()
    cancelled = true
    lock.unlock()
  }
}

/// The example feature an input's first line names (`Stack` for `CaseStudies<separator>Stack`),
/// else one picked by the line's hash (djb2): every input reaches some feature.
func fuzzFeature(named selector: String, among features: [String], separator: String) -> String {
  features.first { $0 == selector || $0.hasSuffix(separator + selector) }
    ?? features[Int(selector.utf8.reduce(UInt32(5381)) { ($0 &* 33) &+ UInt32($1) } % UInt32(features.count))]
}

/// A fresh sandboxed state with relua installed, limited as `relua run --memory-limit 64MB
/// --instruction-limit 1000000` limits a script: one budget for all the Lua an input causes.
@MainActor
func makeFuzzHost(for target: String) -> (LuaState, ReluaHost) {
  do {
    let lua = try LuaState(options: LuaOptions(
      memoryLimit: 64 << 20, instructionLimit: 1_000_000, sharesInstructionBudget: true, interruptible: true,
      scriptRoots: [scriptsDirectory], warningHandler: luaOutput, print: luaOutput))
    let host = try ReluaHost.install(in: lua)
    // deps.github as the relua command has it (the plug-in), never reaching the network here.
    try host.register(GitHubDependency.make(.notConfigured))
    return (lua, host)
  } catch {
    fatalError("relua-fuzz \(target): cannot make a Lua state: \(error)")
  }
}

/// A `ReluaStore` of the example feature `feature` (a path below Scripts/Features, no `.lua`) in
/// a fresh runtime limited as ``makeFuzzHost(for:)``'s state is: what the targets that work a
/// store from outside (the inspector's requests, the web app's page messages) start from.
@MainActor
func makeFuzzStore(of feature: String, for target: String) -> (ReluaRuntime, ReluaStore) {
  do {
    let runtime = try ReluaRuntime(options: LuaOptions(
      memoryLimit: 64 << 20, instructionLimit: 1_000_000, sharesInstructionBudget: true, interruptible: true,
      scriptRoots: [scriptsDirectory], warningHandler: luaOutput, print: luaOutput))
    try runtime.register(GitHubDependency.make(.notConfigured))
    return (runtime, try runtime.makeStore(try runtime.loadFeature(file: scriptsDirectory + "/Features/\(feature).lua")))
  } catch {
    fatalError("relua-fuzz \(target): cannot make a store of \(feature): \(error)")
  }
}
