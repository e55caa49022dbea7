import ArgumentParser
import Foundation
import Relua

/// `relua test [PATH…] [--filter PATTERN] [--tap]`: runs Lua test files, busted-like.
struct TestCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "test",
    abstract: "Run Lua tests (*_test.lua and *_spec.lua files), each test in a fresh sandboxed Lua state.",
    discussion: """
      PATHs are test files or directories searched recursively for *_test.lua and *_spec.lua \
      (default: Scripts/Tests if it exists, else the current directory). A file declares tests with \
      test(name, fn), describe(name, fn) / it(name, fn), pending(name) and skip(name, fn), with \
      busted's hooks (before_each, after_each, setup, teardown, lazy_setup, lazy_teardown: the \
      setups and teardowns run once in each test's own state, around it), finally(fn), insulate \
      and expose, and checks with assert, assert_equal(actual, expected[, message]) and \
      expect(actual).to_be(expected).
      `require` finds modules beside the test file and in the repository's Scripts directory.
      relua.testing.websocketEcho() gives a test the URL of a WebSocket echo server on loopback, \
      started on first use on a port the system picks (one per run, stopped at exit).
      Each test may run --instruction-limit instructions between awaits (default 100000000) and \
      allocate --memory-limit bytes (default 268435456).
      The exit code is the number of failed tests (at most 125); 0 when all pass.
      """
  )

  @OptionGroup var sandbox: SandboxOptions

  @Option(help: ArgumentHelp(
    "Run only tests whose full name (describe names and test name, joined with spaces) contains PATTERN; a plain, case-sensitive substring, not a Lua pattern.",
    valueName: "PATTERN"))
  var filter: String?

  @Flag(help: "Print TAP version 13 (Test Anything Protocol) instead of the progress lines.")
  var tap = false

  @Argument(help: "Test files or directories.")
  var paths: [String] = []

  func run() async throws {
    let code = await Self.runTests(
      paths: paths.isEmpty ? [Self.defaultPath] : paths,
      filter: filter, tap: tap, trusted: sandbox.trusted,
      memoryLimit: sandbox.memoryLimit ?? LuaTestConfiguration.defaultMemoryLimit,
      instructionLimit: sandbox.instructionLimit ?? LuaTestConfiguration.defaultInstructionLimit)
    if code != 0 { throw ExitCode(code) }
  }

  static var defaultPath: String {
    var isDirectory: ObjCBool = false
    let exists = FileManager.default.fileExists(atPath: "Scripts/Tests", isDirectory: &isDirectory)
    return exists && isDirectory.boolValue ? "Scripts/Tests" : "."
  }

  @MainActor
  static func runTests(
    paths: [String], filter: String?, tap: Bool, trusted: Bool, memoryLimit: Int, instructionLimit: Int
  ) async -> Int32 {
    // Flushed line by line: piped output is block-buffered, and a suite killed or crashing must not
    // lose the results of the tests that already ran.
    let write: (String) -> Void = { line in
      print(line)
      fflush(nil)  // (all streams: `stdout` itself is not concurrency-safe to name)
    }
    let reporter: any LuaTestReporter =
      tap
      ? LuaTestTAPReporter(write: write)
      : LuaTestConsoleReporter(style: usesSymbols ? .symbols : .plain, write: write)
    let runner = LuaTestRunner(configuration: LuaTestConfiguration(
      filter: filter, instructionLimit: instructionLimit, memoryLimit: memoryLimit, trusted: trusted,
      // In TAP output, what tests print must not look like TAP lines.
      print: tap ? { line in write("# " + line) } : nil))
    let summary = await runner.run(paths: paths, reporter: reporter)
    if let filter, summary.results.isEmpty {
      // A filter that matches nothing is a mistake to say out loud, not a silent success.
      FileHandle.standardError.write(Data("relua test: no test's name contains '\(filter)' (in \(paths.joined(separator: ", ")))\n".utf8))
      return 1
    }
    return summary.exitCode
  }

  /// Symbols and colour on a terminal, plain ASCII in pipes or with NO_COLOR set.
  static var usesSymbols: Bool {
    isatty(STDOUT_FILENO) != 0 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
  }
}
