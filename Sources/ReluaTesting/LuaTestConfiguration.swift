import Relua

import Lua

/// How `LuaTestRunner` runs tests.
public struct LuaTestConfiguration {
  /// Runs only tests whose full name contains this text (plain substring, case-sensitive).
  public var filter: String?
  /// Runs only tests whose full name has one of these busted tags (`#tag` words); empty: all.
  public var tags: [String]
  /// Leaves out tests whose full name has one of these tags (wins over `tags`).
  public var excludedTags: [String]
  /// Runs the files, and each file's tests, in an order drawn from this seed; nil: declared order.
  public var shuffleSeed: UInt64?
  /// Runs the selected tests this many times (each run reshuffled when shuffling).
  public var repeatCount: Int
  /// Lua VM instructions a test may run in all — loading its file, its body, its effects (each
  /// entry from the host counting at least 1,000); nil: no limit.
  public var instructionLimit: Int?
  /// Bytes each test's Lua state may allocate; nil: no limit.
  public var memoryLimit: Int?
  /// Opens the full standard library in test states (sandboxed by default).
  public var trusted: Bool
  /// More directories `require` may load from, after the test file's directory and `Scripts`.
  public var extraScriptRoots: [String]
  /// Put before `package.path` in each test's state (busted's `--lpath`: `;`-separated templates
  /// such as `./src/?.lua`); trusted states only — a sandboxed one has no `package.path` to search,
  /// and a test file then fails to load, saying so. nil: `package.path` as Lua sets it
  /// (`LUA_PATH_5_4`, `LUA_PATH`, or Lua's default).
  public var packagePathPrefix: String?
  /// Put before `package.cpath` (busted's `--cpath`: C modules); trusted states only, as above.
  public var packageCPathPrefix: String?
  /// Receives what tests `print`, line by line; nil: standard output.
  public var print: ((String) -> Void)?
  /// Called on every fresh test state after the test functions (`test`, `expect`...) and the
  /// feature host (`require "relua"`) are installed, before the test file runs: the place to add
  /// more globals and modules. Throwing fails the test with the error.
  public var prepareState: @MainActor (LuaState) throws -> Void
  /// Counts the lines of Lua files the tests run into this coverage (every test's state: its
  /// file loaded again, its hooks, body and effects; not the load that lists a file's tests);
  /// nil: no line hook, nothing counted. `LuaTestCoverageReport` makes an lcov tracefile of it.
  public var coverage: LuaCoverage?
  /// Seconds of wall clock a test may take — loading its file again, its hooks, body and
  /// `finally` — before it fails as timed out (naming the step), its Lua stopped and its effects
  /// cancelled; nil or 0: no limit. The instruction limit stops a test that computes too long;
  /// this one also stops one that waits forever (on the live clock, a sleep of 9e9 s).
  public var testTimeout: Double?
  /// Rewrites the screen snapshots that differ instead of failing (`relua test --update-snapshots`);
  /// missing ones are written either way (`LuaTestSnapshots`).
  public var updateSnapshots = false

  /// `relua test`'s instruction limit: 100 million VM instructions per test between awaits.
  public static let defaultInstructionLimit = 100_000_000
  /// One minute: far above what any test of this repository takes (the slowest, a few seconds
  /// of live-clock waits), short enough that a hung test ends a CI run in minutes, not hours.
  public static let defaultTestTimeout: Double = 60
  /// `relua test`'s memory limit: 256 MiB of Lua memory per test.
  public static let defaultMemoryLimit = 256 * 1024 * 1024

  /// A configuration: every test, once, in order, sandboxed with `relua test`'s limits, unless told otherwise.
  public init(
    filter: String? = nil,
    tags: [String] = [],
    excludedTags: [String] = [],
    shuffleSeed: UInt64? = nil,
    repeatCount: Int = 1,
    instructionLimit: Int? = LuaTestConfiguration.defaultInstructionLimit,
    memoryLimit: Int? = LuaTestConfiguration.defaultMemoryLimit,
    trusted: Bool = false,
    extraScriptRoots: [String] = [],
    packagePathPrefix: String? = nil,
    packageCPathPrefix: String? = nil,
    print: ((String) -> Void)? = nil,
    prepareState: @escaping @MainActor (LuaState) throws -> Void = { _ in },
    coverage: LuaCoverage? = nil,
    testTimeout: Double? = LuaTestConfiguration.defaultTestTimeout
  ) {
    self.filter = filter
    self.tags = tags
    self.excludedTags = excludedTags
    self.shuffleSeed = shuffleSeed
    self.repeatCount = repeatCount
    self.instructionLimit = instructionLimit
    self.memoryLimit = memoryLimit
    self.trusted = trusted
    self.extraScriptRoots = extraScriptRoots
    self.packagePathPrefix = packagePathPrefix
    self.packageCPathPrefix = packageCPathPrefix
    self.print = print
    self.prepareState = prepareState
    self.coverage = coverage
    self.testTimeout = testTimeout
  }
}
