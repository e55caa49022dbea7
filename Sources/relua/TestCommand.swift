import ArgumentParser
import Foundation
import Lua
import Relua
import ReluaTesting

/// `relua test [PATH…] [--filter PATTERN] [-o FORMAT] [--list] [--shuffle] [--repeat N] …`: runs
/// Lua test files, busted-like.
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
      `require` finds modules beside the test file and in the repository's Scripts directory; with \
      --trusted, then in package.path and package.cpath: LUA_PATH/LUA_CPATH (as lua reads them), \
      with --lpath/--cpath before them (busted's; default ./src/?.lua;./src/?/?.lua;./src/?/init.lua \
      and ./csrc/?.so;./csrc/?/?.so).
      relua.testing.websocketEcho() gives a test the URL of a WebSocket echo server on loopback, \
      started on first use on a port the system picks (one per run, stopped at exit).
      Each test may run --instruction-limit instructions between awaits (default 100000000) and \
      allocate --memory-limit bytes (default 268435456), and take --test-timeout seconds of wall \
      clock (default 60; 0: no limit): past it the test fails as timed out, naming the step \
      (its body, finally, a hook), its Lua is stopped, its effects cancelled, and the next test runs.
      -o json and -o junit write their document when the run ends, to standard output or to \
      -Xoutput FILE. --shuffle prints its seed (on standard error for json, junit and TAP).
      --coverage writes an lcov tracefile (lcov.info, or --coverage-output FILE) of the Lua files \
      the tests ran — the test files and the scripts they require — every line holding code with \
      the times it ran (0: never); genhtml renders it as HTML. Without it no line hook is installed.
      The exit code is the number of failed tests, over all runs (at most 125); 0 when all pass.
      """
  )

  @OptionGroup var sandbox: SandboxOptions

  @Option(help: ArgumentHelp(
    "Run only tests whose full name (describe names and test name, joined with spaces) contains PATTERN; a plain, case-sensitive substring, not a Lua pattern.",
    valueName: "PATTERN"))
  var filter: String?

  enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case console, tap, json, junit
    init?(argument: String) {
      switch argument.lowercased() {
      // busted's names of its terminal outputs are relua's console one.
      case "console", "utfterminal", "plainterminal", "terminal": self = .console
      case "tap": self = .tap
      case "json": self = .json
      case "junit": self = .junit
      default: return nil
      }
    }
    static var allValueStrings: [String] { ["console", "TAP", "json", "junit"] }
  }

  @Option(name: [.customShort("o"), .long], help: ArgumentHelp(
    "Output format: console (default: a line per test), TAP (TAP 13), json (busted's: successes, failures, errors, pendings) or junit (JUnit XML).",
    valueName: "FORMAT"))
  var output: OutputFormat = .console

  @Flag(help: "Print TAP version 13 (Test Anything Protocol): the same as -o TAP.")
  var tap = false

  @Option(name: [.customLong("Xoutput", withSingleDash: true), .customLong("Xoutput")], help: ArgumentHelp(
    "Write the json or junit document to FILE instead of standard output (busted's -Xoutput).",
    valueName: "FILE"))
  var outputFile: String?

  @Flag(help: ArgumentHelp(
    "Rewrite the screen snapshots (__snapshots__/…) that differ from the screen instead of failing; says which."))
  var updateSnapshots = false

  @Flag(help: "Print the tests that would run, one per line as FILE:LINE: NAME, and run none.")
  var list = false

  @Flag(help: "Run the files, and each file's tests, in a random order; prints the seed.")
  var shuffle = false

  @Option(help: ArgumentHelp("Shuffle with this seed (implies --shuffle), to repeat an order.", valueName: "N"))
  var seed: UInt64?

  @Option(name: .customLong("repeat"), help: ArgumentHelp(
    "Run the selected tests N times; fails if any run fails.", valueName: "N"))
  var repeatCount: Int = 1

  @Option(name: [.customShort("t"), .long], help: ArgumentHelp(
    "Run only tests whose full name has one of these #tags (comma-separated, repeatable; busted's).",
    valueName: "TAGS"))
  var tags: [String] = []

  @Option(name: .customLong("exclude-tags"), help: ArgumentHelp(
    "Leave out tests whose full name has one of these #tags (comma-separated, repeatable).", valueName: "TAGS"))
  var excludeTags: [String] = []

  @Flag(help: ArgumentHelp(
    "Write an lcov tracefile of the lines of Lua files the tests ran to \(Self.defaultCoverageFile) (or --coverage-output FILE), for genhtml."))
  var coverage = false

  @Option(name: .customLong("coverage-output"), help: ArgumentHelp(
    "Write --coverage's tracefile to FILE (implies --coverage).", valueName: "FILE"))
  var coverageOutput: String?

  /// The file `--coverage` writes without --coverage-output (in the current directory, after -C):
  /// lcov's usual name, which editors' coverage plug-ins look for.
  static let defaultCoverageFile = "lcov.info"

  @Option(name: [.customShort("m"), .customLong("lpath")], help: ArgumentHelp(
    "Put PATH (;-separated templates like ./lib/?.lua) before package.path, busted's --lpath; repeatable. Needs --trusted. Default with --trusted: \(Self.defaultLuaPath)",
    valueName: "PATH"))
  var lpath: [String] = []

  @Option(name: .customLong("cpath"), help: ArgumentHelp(
    "Put PATH before package.cpath (C modules), busted's --cpath; repeatable. Needs --trusted. Default with --trusted: \(Self.defaultCPath)",
    valueName: "PATH"))
  var cpath: [String] = []

  @Option(name: .customLong("test-timeout"), help: ArgumentHelp(
    "Fail a test that takes more than SECONDS of wall clock (its file loaded again, hooks, body, finally), naming the step it was in, and go on with the next; 0: no limit. Default: 60.",
    valueName: "SECONDS"))
  var testTimeout: Double = LuaTestConfiguration.defaultTestTimeout

  @Option(name: [.customShort("C"), .customLong("directory")], help: ArgumentHelp(
    "Change to directory DIR before running tests (busted's -C); several are each relative to the one before.",
    valueName: "DIR"))
  var directories: [String] = []

  @Argument(help: "Test files or directories.")
  var paths: [String] = []

  /// busted's defaults for `--lpath` and `--cpath`, used when they are not given (trusted only).
  static let defaultLuaPath = "./src/?.lua;./src/?/?.lua;./src/?/init.lua"
  static let defaultCPath = "./csrc/?.so;./csrc/?/?.so;"

  func validate() throws {
    let pathOptions = [("--lpath", lpath), ("--cpath", cpath)].filter { !$0.1.isEmpty }.map(\.0)
    if !sandbox.trusted && !pathOptions.isEmpty {
      throw ValidationError(
        "\(pathOptions.joined(separator: " and ")) \(pathOptions.count > 1 ? "need" : "needs") --trusted: "
          + "a sandboxed test's require finds modules only beside the test file and in Scripts")
    }
    if repeatCount < 1 { throw ValidationError("--repeat must be at least 1") }
    if !testTimeout.isFinite || testTimeout < 0 || testTimeout > 1e9 {
      throw ValidationError("--test-timeout takes seconds from 0 (no limit) to 1e9")
    }
    if tap && output != .console && output != .tap { throw ValidationError("--tap and -o \(output.rawValue) disagree") }
    if outputFile != nil && ![.json, .junit].contains(tap ? .tap : output) {
      throw ValidationError("-Xoutput FILE applies to -o json and -o junit")
    }
    if coverageOutput?.isEmpty == true { throw ValidationError("--coverage-output needs a file name") }
    if (coverage || coverageOutput != nil) && list {
      throw ValidationError("--coverage counts the lines tests run: --list runs none")
    }
  }

  func run() async throws {
    // busted's -C: before anything else, so paths, --lpath templates and -Xoutput are relative to it.
    for directory in directories where !FileManager.default.changeCurrentDirectoryPath(directory) {
      FileHandle.standardError.write(Data("relua test: cannot change to directory \(directory)\n".utf8))
      throw ExitCode(1)
    }
    let split = { (values: [String]) in
      values.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
        .map { $0.hasPrefix("#") ? String($0.dropFirst()) : $0 }.filter { !$0.isEmpty }
    }
    let options = Options(
      paths: paths.isEmpty ? [Self.defaultPath] : paths,
      filter: filter, format: tap ? .tap : output, outputFile: outputFile, list: list,
      seed: seed ?? (shuffle ? UInt64.random(in: 0..<(1 << 31)) : nil), repeatCount: repeatCount,
      tags: split(tags), excludedTags: split(excludeTags), coverageFile: coverageOutput ?? (coverage ? Self.defaultCoverageFile : nil),
      trusted: sandbox.trusted,
      // busted joins repeated ones with `;`; trusted, its defaults stand when none is given.
      luaPath: sandbox.trusted ? (lpath.isEmpty ? Self.defaultLuaPath : lpath.joined(separator: ";")) : nil,
      cPath: sandbox.trusted ? (cpath.isEmpty ? Self.defaultCPath : cpath.joined(separator: ";")) : nil,
      memoryLimit: sandbox.memoryLimit ?? LuaTestConfiguration.defaultMemoryLimit,
      instructionLimit: sandbox.instructionLimit ?? LuaTestConfiguration.defaultInstructionLimit,
      testTimeout: testTimeout, updateSnapshots: updateSnapshots)
    let code = await Self.runTests(options)
    if code != 0 { throw ExitCode(code) }
  }

  struct Options {
    var paths: [String]
    var filter: String?
    var format: OutputFormat
    var outputFile: String?
    var list: Bool
    var seed: UInt64?
    var repeatCount: Int
    var tags: [String]
    var excludedTags: [String]
    /// Where to write the lcov tracefile; nil: no coverage.
    var coverageFile: String? = nil
    var trusted: Bool
    var luaPath: String? = nil
    var cPath: String? = nil
    var memoryLimit: Int
    var instructionLimit: Int
    /// Seconds of wall clock per test; 0: no limit.
    var testTimeout: Double = LuaTestConfiguration.defaultTestTimeout
    /// `--update-snapshots`.
    var updateSnapshots = false
  }

  static var defaultPath: String {
    var isDirectory: ObjCBool = false
    let exists = FileManager.default.fileExists(atPath: "Scripts/Tests", isDirectory: &isDirectory)
    return exists && isDirectory.boolValue ? "Scripts/Tests" : "."
  }

  @MainActor
  static func runTests(_ options: Options) async -> Int32 {
    // Flushed line by line: piped output is block-buffered, and a suite killed or crashing must not
    // lose the results of the tests that already ran.
    let write: (String) -> Void = { line in
      print(line)
      fflush(nil)  // (all streams: `stdout` itself is not concurrency-safe to name)
    }
    let writeError: (String) -> Void = { line in FileHandle.standardError.write(Data((line + "\n").utf8)) }
    // The whole json or junit document: to -Xoutput's file, else standard output.
    var fileError: String?
    let writeDocument: (String) -> Void = { text in
      guard let path = options.outputFile else { return write(text) }
      do {
        try Data((text + "\n").utf8).write(to: URL(fileURLWithPath: path))
      } catch {
        fileError = "relua test: cannot write \(path): \(error.localizedDescription)"
      }
    }
    let format = options.format
    let coverage = options.coverageFile.map { _ in LuaCoverage() }
    let runner = LuaTestRunner(configuration: LuaTestConfiguration(
      filter: options.filter, tags: options.tags, excludedTags: options.excludedTags,
      shuffleSeed: options.seed, repeatCount: options.repeatCount,
      instructionLimit: options.instructionLimit, memoryLimit: options.memoryLimit, trusted: options.trusted,
      packagePathPrefix: options.luaPath, packageCPathPrefix: options.cPath,
      // In TAP output, what tests print must not look like TAP lines; json and junit documents
      // must stay documents: what tests print goes to standard error there. In TAP each line of
      // it is a comment, its control characters escaped (a print must not add a result line).
      print: format == .tap ? { text in for line in LuaTestText.lines(text) { write("# " + line) } }
        : format == .console ? nil : writeError,
      coverage: coverage, testTimeout: options.testTimeout))
    runner.configuration.updateSnapshots = options.updateSnapshots
    if let seed = options.seed {
      (format == .console ? write : writeError)("Shuffled with seed \(seed) (--seed \(seed) repeats this order)")
    }
    if options.list {
      let listed = runner.list(paths: options.paths)
      var broken = 0
      for test in listed {
        if let failure = test.loadFailure {
          broken += 1
          writeError(LuaTestText.line("relua test: \(test.file) does not load: \(failure.description)"))
        } else {
          write(LuaTestText.line("\(test.location ?? test.file): \(test.name)") + (test.skipped ? " (skipped)" : ""))
        }
      }
      if broken > 0 { return Int32(min(broken, 125)) }
      return noTestSelected(listed.isEmpty, options) ? 1 : 0
    }
    let reporter: any LuaTestReporter =
      switch format {
      case .tap: LuaTestTAPReporter(write: write)
      case .json: LuaTestJSONReporter(seed: options.seed, write: writeDocument)
      case .junit: LuaTestJUnitReporter(runs: options.repeatCount, seed: options.seed, write: writeDocument)
      case .console: LuaTestConsoleReporter(style: usesSymbols ? .symbols : .plain, write: write)
      }
    let summary = await runner.run(paths: options.paths, reporter: reporter)
    if let line = snapshotLine(runner.snapshots) { (format == .console ? write : writeError)(line) }
    if let coverage, let path = options.coverageFile {
      let report = LuaTestCoverageReport(
        coverage, roots: LuaTestCoverageReport.roots(ofTestFiles: LuaTestDiscovery.testFiles(in: options.paths)))
      for (file, reason) in report.skipped { writeError(LuaTestText.line("relua test: coverage leaves out \(file): \(reason)")) }
      do {
        try Data(report.lcov.utf8).write(to: URL(fileURLWithPath: path))
        // Beside the closing line, where the shuffle seed goes: json, junit and TAP keep standard
        // output a document.
        (format == .console ? write : writeError)("\(report.summary), written to \(path)")
      } catch {
        fileError = fileError ?? "relua test: cannot write \(path): \(error.localizedDescription)"
      }
    }
    if let fileError {
      writeError(fileError)
      return max(1, summary.exitCode)
    }
    if noTestSelected(summary.results.isEmpty, options) { return 1 }
    return summary.exitCode
  }

  /// `Snapshots: 2 written, 1 updated` after the closing line, when the run wrote any (each test
  /// names its own in a note).
  @MainActor
  private static func snapshotLine(_ snapshots: LuaTestSnapshots) -> String? {
    let written = Set(snapshots.written).count, updated = Set(snapshots.updated).count
    guard written + updated > 0 else { return nil }
    return "Snapshots: " + [written > 0 ? "\(written) written" : nil, updated > 0 ? "\(updated) updated" : nil]
      .compactMap { $0 }.joined(separator: ", ")
  }

  /// A filter or tags that select nothing are a mistake to say out loud, not a silent success.
  private static func noTestSelected(_ empty: Bool, _ options: Options) -> Bool {
    guard empty else { return false }
    let paths = options.paths.joined(separator: ", ")
    if let filter = options.filter {
      FileHandle.standardError.write(Data("relua test: no test's name contains '\(filter)' (in \(paths))\n".utf8))
      return true
    }
    if !options.tags.isEmpty || !options.excludedTags.isEmpty {
      let tags = options.tags.map { "#" + $0 }.joined(separator: ", ")
      let excluded = options.excludedTags.map { "#" + $0 }.joined(separator: ", ")
      let what = (tags.isEmpty ? "" : "tagged \(tags)") + (excluded.isEmpty ? "" : (tags.isEmpty ? "" : " and ") + "not \(excluded)")
      FileHandle.standardError.write(Data("relua test: no test is \(what) (in \(paths))\n".utf8))
      return true
    }
    return false
  }

  /// Symbols and colour on a terminal, plain ASCII in pipes or with NO_COLOR set.
  static var usesSymbols: Bool {
    isatty(STDOUT_FILENO) != 0 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
  }
}
