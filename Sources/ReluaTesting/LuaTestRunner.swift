import Relua

import Composable
import Foundation
import Lua

/// Runs Lua test files (`*_test.lua`, `*_spec.lua`), busted-like: every test in a fresh, sandboxed
/// Lua state, its hooks, body and `finally` each driven as a coroutine by `LuaCoroutineDriver` so
/// they can await Swift work.
///
/// A file runs once to collect its declarations, then once more per test in that test's own state
/// (top-level code and `describe` bodies therefore run once per test, plus once). In a test's
/// state, the `setup`/`lazy_setup` and `teardown`/`lazy_teardown` hooks of the blocks around it
/// run once, before and after it, as busted runs them around a block's only test; `before_each`
/// and `after_each` around it as in busted. A file that fails to load, or whose top-level code
/// raises, is one failed result named after the file.
@MainActor
package final class LuaTestRunner {
  package var configuration: LuaTestConfiguration
  /// The running test's wall-clock limit and declaration line (a timed-out step names them).
  private var watchdog: LuaTestWatchdog?
  private var testLocation: String?
  /// The screen snapshots the tests take (what this run wrote and updated: `written`, `updated`).
  package let snapshots = LuaTestSnapshots()

  package init(configuration: LuaTestConfiguration = LuaTestConfiguration()) {
    self.configuration = configuration
  }

  /// Discovers the test files under `paths` (see `LuaTestDiscovery`) and runs them.
  package func run(paths: [String], reporter: any LuaTestReporter = LuaTestSilentReporter()) async -> LuaTestSummary {
    await run(files: LuaTestDiscovery.testFiles(in: paths), reporter: reporter)
  }

  /// A test that would run: as `--list` prints it.
  package struct Listing: Sendable, Equatable {
    package var file: String
    package var name: String
    /// `file:line` of its declaration, when known.
    package var location: String?
    package var skipped: Bool
    /// Why the file could not be loaded (then `name` is the file's).
    package var loadFailure: LuaTestFailure?
  }

  /// The tests `run(paths:)` would run (filters, tags and shuffling applied, one run), running none.
  package func list(paths: [String]) -> [Listing] {
    var generator = configuration.shuffleSeed.map { SeededGenerator(seed: $0) }
    return order(plan(files: LuaTestDiscovery.testFiles(in: paths)), with: &generator).map { planned in
      switch planned {
      case .test(let file, _, let name, let skipped, let location):
        return Listing(file: file, name: name, location: location, skipped: skipped)
      case .unloadable(let file, let failure):
        return Listing(file: file, name: file, location: nil, skipped: false, loadFailure: failure)
      }
    }
  }

  /// Runs the tests of `files`, in order (or shuffled, see `LuaTestConfiguration.shuffleSeed`),
  /// `repeatCount` times, reporting each result as it comes: one `begin` for all runs, results
  /// numbered on across runs, one `finish`.
  package func run(files: [String], reporter: any LuaTestReporter = LuaTestSilentReporter()) async -> LuaTestSummary {
    let plan = plan(files: files)
    let runs = max(1, configuration.repeatCount)
    var generator = configuration.shuffleSeed.map { SeededGenerator(seed: $0) }
    reporter.begin(testCount: plan.count * runs)
    var summary = LuaTestSummary()
    for run in 1...runs {
      for planned in order(plan, with: &generator) {
        let started = ContinuousClock.now
        var result = await self.run(planned)
        let elapsed = ContinuousClock.now - started
        result.duration = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        result.run = run
        summary.results.append(result)
        reporter.report(result, number: summary.results.count)
      }
    }
    reporter.finish(summary)
    return summary
  }

  private func plan(files: [String]) -> [PlannedTest] {
    var plan: [PlannedTest] = []
    for file in files {
      let watchdog = makeWatchdog()
      defer { watchdog?.stop() }
      do {
        let loaded = try load(file, counted: false, watchdog: watchdog)
        defer { loaded.state.close() }
        var namesSeen: [String: Int] = [:]
        for declaration in loaded.declarations {
          let occurrence = namesSeen[declaration.name, default: 0]
          namesSeen[declaration.name] = occurrence + 1
          guard selects(declaration.name) else { continue }
          plan.append(.test(
            file: file, occurrence: occurrence, name: declaration.name, skipped: declaration.skipped,
            location: declaration.location))
        }
      } catch {
        var failure = LuaTestFailure(error, file: file)
        if let watchdog, watchdog.hasFired { failure = Self.timedOut(failure, after: watchdog, in: "loading the file") }
        plan.append(.unloadable(file: file, failure: failure))
      }
    }
    return plan
  }

  /// The plan as is, or shuffled: the files' order, then each file's tests among themselves.
  private func order(_ plan: [PlannedTest], with generator: inout SeededGenerator?) -> [PlannedTest] {
    guard generator != nil else { return plan }
    var files: [String] = []
    var byFile: [String: [PlannedTest]] = [:]
    for planned in plan {
      if byFile[planned.file] == nil { files.append(planned.file) }
      byFile[planned.file, default: []].append(planned)
    }
    files.shuffle(using: &generator!)
    return files.flatMap { file in byFile[file]!.shuffled(using: &generator!) }
  }

  private func selects(_ name: String) -> Bool {
    if let filter = configuration.filter, !filter.isEmpty, !name.contains(filter) { return false }
    if configuration.tags.isEmpty && configuration.excludedTags.isEmpty { return true }
    let tags = Self.tags(in: name)
    if configuration.excludedTags.contains(where: tags.contains) { return false }
    return configuration.tags.isEmpty || configuration.tags.contains(where: tags.contains)
  }

  /// busted's tags: the words after `#` in a full name (letters, digits, `_` and `-`).
  package static func tags(in name: String) -> Set<String> {
    var tags = Set<String>()
    var current: String?
    for character in name + " " {
      if character == "#" {
        if let tag = current, !tag.isEmpty { tags.insert(tag) }
        current = ""
      } else if current != nil, character.isLetter || character.isNumber || character == "_" || character == "-" {
        current!.append(character)
      } else {
        if let tag = current, !tag.isEmpty { tags.insert(tag) }
        current = nil
      }
    }
    return tags
  }

  /// The shuffle's generator, the engine's SplitMix64: the same seed gives the same order on every
  /// platform and Swift version.
  package typealias SeededGenerator = SplitMix64

  // MARK: One test

  /// A test is found again, in the state each test loads its file into, by its full name and its
  /// place among the tests of that name (`occurrence`, from 0), not by its position: a file that
  /// declares tests in a `pairs()` loop declares them in another order in each state.
  private enum PlannedTest {
    case test(file: String, occurrence: Int, name: String, skipped: Bool, location: String?)
    case unloadable(file: String, failure: LuaTestFailure)

    var file: String {
      switch self {
      case .test(let file, _, _, _, _), .unloadable(let file, _): return file
      }
    }
  }

  private func run(_ planned: PlannedTest) async -> LuaTestResult {
    switch planned {
    case .unloadable(let file, let failure):
      return LuaTestResult(name: file, file: file, outcome: .failed(failure))
    case .test(let file, _, let name, true, let location):
      return LuaTestResult(name: name, file: file, outcome: .skipped, location: location)
    case .test(let file, let occurrence, let name, false, let location):
      var notes: [String] = []
      testLocation = location
      defer { testLocation = nil }
      snapshots.updates = configuration.updateSnapshots
      snapshots.begin(file: file, test: name)
      let outcome = await runTest(file: file, occurrence: occurrence, name: name, notes: &notes)
      notes += snapshots.end()
      return LuaTestResult(name: name, file: file, outcome: outcome, notes: notes, location: location)
    }
  }

  private func runTest(file: String, occurrence: Int, name: String, notes: inout [String]) async -> LuaTestResult.Outcome {
    var state: LuaState?
    defer { state?.close() }
    // The test stores' notes, taken before the state closes (the end-of-test checks add some).
    func takeNotes() {
      if let state, let host = try? ReluaHost.install(in: state) { notes = host.testStateIfMade?.stores.flatMap(\.skipped) ?? [] }
    }
    var verdict = Verdict()
    let watchdog = makeWatchdog()
    self.watchdog = watchdog
    defer {
      watchdog?.stop()
      self.watchdog = nil
    }
    do {
      let loaded = try load(file, counted: true, watchdog: watchdog)
      state = loaded.state
      let sameName = loaded.declarations.indices.filter { loaded.declarations[$0].name == name }
      guard occurrence < sameName.count, let body = loaded.declarations[sameName[occurrence]].body else {
        return .failed(LuaTestFailure(
          message: "the file declared different tests when it was loaded again (tests must not depend on chance)",
          location: nil))
      }
      try loaded.control.seal()
      let blocks = try loaded.hooks(ofTest: sameName[occurrence])
      // In a task of their own, which the wall-clock limit cancels (a step awaiting the live
      // clock); a step spinning in Lua is interrupted instead (`LuaTestWatchdog`).
      let steps = UncheckedSendable((body, blocks, loaded))
      let task = Task { @MainActor [self] () -> Verdict in
        var verdict = Verdict()
        let (body, blocks, loaded) = steps.value
        await self.runHooksAndBody(body, blocks: blocks, in: loaded, file: file, verdict: &verdict)
        return verdict
      }
      watchdog?.onFire { task.cancel() }
      verdict = await task.value
      if verdict.isClean {
        // The end-of-test checks of the test stores, after every hook (an after_each may finish
        // what the test started).
        let host = try ReluaHost.install(in: loaded.state)
        do {
          try host.finishTests()
        } catch {
          verdict.record(.failed(LuaTestFailure(error, file: file), fatal: false))
        }
      }
    } catch {
      var failure = LuaTestFailure(error, file: file)
      if let watchdog, watchdog.hasFired {
        failure = Self.timedOut(failure, after: watchdog, in: "loading the file", orAt: testLocation)
      }
      verdict.record(.failed(failure, fatal: false))
    }
    watchdog?.stop()
    // No effect may outlive the test's Lua state: stop them before it closes.
    if let state, let host = try? ReluaHost.install(in: state) { await host.stopEffects() }
    takeNotes()
    // Its finalizers run now, under a budget of their own (LuaState.close): one that loops fails
    // the test instead of hanging the run.
    if let state {
      state.close()
      if case .instructionLimit(let location)? = state.finalizerFailure {
        _ = verdict.record(.failed(LuaTestFailure(
          message: "instruction budget exhausted (in a __gc finalizer, when the test's state closed)", location: location),
          fatal: false))
      }
    }
    return verdict.outcome(notes: &notes)
  }

  // MARK: Hooks, the body and finally, in busted's order

  /// Runs, in the test's state: every enclosing block's `setup`s (outermost first), their
  /// `lazy_setup`s, their `before_each`es, the body, its `finally`, the `after_each`es (innermost
  /// first), then per block, innermost first, `lazy_teardown`s and `teardown`s — busted's order
  /// for a block's only test. As in busted: all hooks of one block run even when one fails; a
  /// failing setup stops the setups of the blocks inside it, the before_each hooks and the body,
  /// and the teardowns of the blocks whose setups ran still run; a failing before_each stops the
  /// ones inside it and the body, and the after_each hooks of its block and the outer ones still
  /// run. A runaway, memory-hungry or interrupted step stops everything after it.
  private func runHooksAndBody(
    _ body: LuaFunction, blocks: [BlockHooks], in loaded: LoadedFile, file: String, verdict: inout Verdict
  ) async {
    func runAll(_ kind: LuaTestDeclarations.HookKind, of block: BlockHooks) async -> Bool {
      var passed = true
      for hook in block.hooks(kind) where !verdict.fatal {
        let outcome = await runStep(hook.function, phase: hook.name, hook: hook, in: loaded, file: file)
        if !verdict.record(outcome) { passed = false }
      }
      return passed && !verdict.fatal
    }
    var setupsRun = 0, lazySetupsRun = 0
    var ready = true
    for block in blocks where ready {
      setupsRun += 1
      ready = await runAll(.setup, of: block)
    }
    if ready {
      for block in blocks where ready {
        lazySetupsRun += 1
        ready = await runAll(.lazySetup, of: block)
      }
    }
    if ready {
      var beforeEachRun = 0
      for block in blocks where ready {
        beforeEachRun += 1
        ready = await runAll(.beforeEach, of: block)
      }
      if ready {
        verdict.record(await runStep(body, phase: "it", hook: nil, in: loaded, file: file))
        if !verdict.fatal, let finally = try? loaded.control.takeFinally() {
          verdict.record(await runStep(finally, phase: "finally", hook: nil, in: loaded, file: file, label: "finally"))
        }
      }
      for block in blocks.prefix(beforeEachRun).reversed() where !verdict.fatal {
        _ = await runAll(.afterEach, of: block)
      }
    }
    for (offset, block) in blocks.enumerated().reversed() where !verdict.fatal {
      if offset < lazySetupsRun { _ = await runAll(.lazyTeardown, of: block) }
      if offset < setupsRun { _ = await runAll(.teardown, of: block) }
    }
  }

  /// What one step (a hook, the body, `finally`) came to.
  private enum StepOutcome {
    case passed
    case pending(String)
    case failed(LuaTestFailure, fatal: Bool)
  }

  /// Runs `function` as the driven coroutine of one step. A hook's failure names the hook and the
  /// line that declared it (`before_each (x_spec.lua:3) failed: …`).
  private func runStep(
    _ function: LuaFunction, phase: String, hook: Hook?, in loaded: LoadedFile, file: String, label: String? = nil
  ) async -> StepOutcome {
    var context: (location: String?, traceback: String?) = (nil, nil)
    do {
      try loaded.control.phase(.text(phase))
      defer { _ = try? loaded.control.phase(.nil) }
      _ = try await LuaCoroutineDriver.of(loaded.state).run(function, arguments: []) { location, traceback in
        context = (location, traceback)
      }
      return .passed
    } catch {
      // `pending(reason)`: skipped, saying why.
      if case LuaError.runtime(let message, _) = error, message.hasPrefix(LuaTestDeclarations.skipMarker) {
        return .pending(String(message.dropFirst(LuaTestDeclarations.skipMarker.count)))
      }
      var failure = LuaTestFailure(error, file: file)
      // Swift errors carry no position: take it from the coroutine the driver saw fail.
      if failure.location == nil, let location = context.location {
        failure = LuaTestFailure(raised: "\(location): \(failure.message)", traceback: context.traceback, file: file)
      } else if failure.traceback.isEmpty {
        failure.traceback = LuaTestFailure.scriptFrames(in: context.traceback)
      }
      if let watchdog, watchdog.hasFired {
        let step = hook.map { "\($0.name) (\($0.location))" } ?? label ?? "its body"
        return .failed(Self.timedOut(failure, after: watchdog, in: step, orAt: testLocation), fatal: true)
      }
      if let hook {
        failure.message = "\(hook.name) (\(hook.location)) failed: " + failure.message
      } else if let label {
        failure.message = "\(label) failed: " + failure.message
      }
      return .failed(failure, fatal: Self.stopsTheTest(error))
    }
  }

  /// The running test's wall-clock limit; nil when there is none (`testTimeout` nil or 0).
  private func makeWatchdog() -> LuaTestWatchdog? {
    guard let seconds = configuration.testTimeout, seconds > 0 else { return nil }
    return LuaTestWatchdog(seconds: seconds)
  }

  /// A step the wall-clock limit stopped: `test timed out after N s in STEP`, where it stood
  /// (the line Lua was running; for a wait, which leaves none, the test's own line).
  private static func timedOut(
    _ failure: LuaTestFailure, after watchdog: LuaTestWatchdog, in step: String, orAt fallback: String? = nil
  ) -> LuaTestFailure {
    LuaTestFailure(
      message: "test timed out after \(watchdog.shown) in \(step) (the wall-clock limit per test, --test-timeout)",
      location: failure.location ?? fallback, traceback: failure.traceback)
  }

  /// Errors after which no more Lua runs in the test's state: its budget is spent, its memory
  /// full, or it was stopped.
  private static func stopsTheTest(_ error: any Error) -> Bool {
    switch error {
    case LuaError.instructionLimit, LuaError.memory, LuaError.interrupted, is CancellationError: return true
    default: return false
    }
  }

  /// The test's outcome as its steps come in: the first failure is the test's, later ones are
  /// added to its message; `pending` skips it unless something failed.
  private struct Verdict: Sendable {
    var failure: LuaTestFailure?
    var pendingReason: String?
    var alsoFailed: [String] = []
    var fatal = false

    var isClean: Bool { failure == nil && pendingReason == nil }

    /// Whether the step passed.
    @discardableResult
    mutating func record(_ outcome: StepOutcome) -> Bool {
      switch outcome {
      case .passed:
        return true
      case .pending(let reason):
        if pendingReason == nil { pendingReason = reason }
        return false
      case .failed(let failure, let fatal):
        self.fatal = self.fatal || fatal
        if self.failure == nil {
          self.failure = failure
        } else {
          alsoFailed.append(failure.description)
        }
        return false
      }
    }

    func outcome(notes: inout [String]) -> LuaTestResult.Outcome {
      if var failure {
        if !alsoFailed.isEmpty {
          failure.message += alsoFailed.map { "\nalso: " + Elision.standard.cut(text: $0) }.joined()
        }
        return .failed(failure)
      }
      if let pendingReason {
        notes.insert("pending: " + pendingReason, at: 0)
        return .skipped
      }
      return .passed
    }
  }

  // MARK: Loading a file into a fresh state

  private struct Declaration {
    var name: String
    var body: LuaFunction?
    var skipped: Bool
    var location: String?
  }

  /// A hook as `prepare` returns it: the function, the name it was declared with, and where.
  private struct Hook {
    var function: LuaFunction
    var name: String
    var location: String
  }

  /// The hooks of one block around a test.
  private struct BlockHooks {
    var byKind: [LuaTestDeclarations.HookKind: [Hook]]
    func hooks(_ kind: LuaTestDeclarations.HookKind) -> [Hook] { byKind[kind] ?? [] }
  }

  /// The runner's handles on the declarations chunk (see `LuaTestDeclarations`).
  private struct Control {
    var table: LuaTable
    func seal() throws { try function("seal").call() }
    func phase(_ name: LuaValue) throws { try function("phase").call(name) }
    func takeFinally() throws -> LuaFunction? { try function("takeFinally").call().first?.functionValue }
    func prepare(_ index: Int) throws -> LuaTable? {
      try function("prepare").call(.integer(Int64(index + 1))).first?.tableValue
    }
    private func function(_ name: String) throws -> LuaFunction {
      guard let function = try table.rawGet(.text(name)).functionValue else {
        throw LuaError.conversion("the test declarations lack \(name)")
      }
      return function
    }
  }

  private struct LoadedFile {
    var state: LuaState
    var declarations: [Declaration]
    var control: Control

    /// Puts back what `insulate` blocks around test `index` changed, and returns the hooks of
    /// the blocks around it, outermost (the file) first.
    func hooks(ofTest index: Int) throws -> [BlockHooks] {
      guard let chain = try control.prepare(index) else { throw LuaError.conversion("malformed test blocks") }
      return try chain.array().map { entry in
        guard let table = entry.tableValue else { throw LuaError.conversion("malformed test block") }
        var byKind: [LuaTestDeclarations.HookKind: [Hook]] = [:]
        for kind in LuaTestDeclarations.HookKind.allCases {
          guard let list = try table.rawGet(.text(kind.rawValue)).tableValue else { continue }
          byKind[kind] = try list.array().map { item in
            guard let item = item.tableValue, let function = try item.rawGet("fn").functionValue else {
              throw LuaError.conversion("malformed hook")
            }
            return Hook(
              function: function, name: try item.rawGet("name").stringValue ?? kind.rawValue,
              location: try item.rawGet("where").stringValue ?? "?")
          }
        }
        return BlockHooks(byKind: byKind)
      }
    }
  }

  /// A configuration asking a sandboxed state for package paths: every file fails with this.
  struct PackagePathsNeedTrust: Error, CustomStringConvertible {
    var description: String {
      "package.path and package.cpath (busted's --lpath and --cpath) are searched in trusted states only: "
        + "a sandboxed test's require finds modules beside the test file and in Scripts"
    }
  }

  /// busted's `--lpath`/`--cpath`: the prefixes put before `package.path`/`package.cpath`, with
  /// busted's `;;` → `;` (a trailing `;` in a prefix is not Lua's "default path" mark).
  private func setPackagePaths(in state: LuaState) throws {
    let path = configuration.packagePathPrefix, cpath = configuration.packageCPathPrefix
    guard path != nil || cpath != nil else { return }
    guard configuration.trusted else { throw PackagePathsNeedTrust() }
    let chunk = try state.load(
      """
      local path, cpath = ...
      if path ~= "" then package.path = (path .. ";" .. package.path):gsub(";;", ";") end
      if cpath ~= "" then package.cpath = (cpath .. ";" .. package.cpath):gsub(";;", ";") end
      """, name: LuaTestDeclarations.chunkName)
    try state.call(chunk, .text(path ?? ""), .text(cpath ?? ""))
  }

  /// When a block's body raised as the file loaded, a line saying where and why that differs
  /// from busted (whose blocks' bodies run between tests, after the hooks of the tests before).
  private static func blockNote(_ control: LuaTable) -> String {
    guard let function = try? control.rawGet("failedBlock").functionValue,
      let block = try? function.call().first?.stringValue
    else { return "" }
    return "\n(raised by the body of \(block), which relua runs when the file loads, before any test or "
      + "hook: busted runs it when the run reaches it, so it may use what earlier tests' hooks left)"
  }

  /// A fresh state with the test functions, the feature host and luassert, and `file` run in it.
  /// `counted`: a test's state, whose lines count into the configuration's coverage (the load
  /// that only lists a file's tests does not count).
  private func load(_ file: String, counted: Bool, watchdog: LuaTestWatchdog? = nil) throws -> LoadedFile {
    let state = try LuaState(options: LuaOptions(
      trusted: configuration.trusted,
      memoryLimit: configuration.memoryLimit,
      instructionLimit: configuration.instructionLimit,
      sharesInstructionBudget: true,
      scriptRoots: LuaTestDiscovery.scriptRoots(for: file) + configuration.extraScriptRoots,
      print: configuration.print,
      coverage: counted ? configuration.coverage : nil,
      sharesCompiledChunks: true))
    watchdog?.watch(state)
    do {
      try setPackagePaths(in: state)
      // `where(level)`: the `file:line` a hook is declared at (`level` 2: the caller of `before_each`).
      let whereFunction = try state.rawFunction { stack in
        let level = try stack.int(at: 1, default: 1)
        stack.push(stack.raw.location(ofLevel: Int32(level)) ?? "?")
        return .values(1)
      }
      let dsl = try state.call(
        state.load(LuaTestDeclarations.source, name: LuaTestDeclarations.chunkName), .function(whereFunction))
      let printer = try state.call(state.load(LuaValuePrinter.source, name: LuaValuePrinter.chunkName))
      // What `expect` renders values and compares tables with, shared with luassert below.
      let assertions = try state.call(state.load(LuaTestAssertions.source, name: LuaTestAssertions.chunkName), printer[0])
      guard dsl.count == 2, let declared = dsl[0].tableValue, let control = dsl[1].tableValue else {
        throw LuaError.conversion("the test declarations did not load")
      }
      // A test's state: the helpers under `relua.testing` run here (and nowhere else).
      let host = try ReluaHost.install(in: state)
      host.testState.runsTests = true
      // luassert's `assert`, `spy`, `stub`, `mock` and `match`, with diffs through the host's conversion.
      let luassert = try state.call(
        state.load(LuaTestLuassert.source, name: LuaTestLuassert.chunkName),
        assertions.first ?? .nil, .function(LuaTestLuassert.diffFunction(in: state, host: host)),
        assertions.count > 1 ? assertions[1] : .nil)
      // `require "busted"`, `require "luassert"`, `require "say"`…: relua's own.
      try state.call(state.load(LuaTestModules.source, name: LuaTestModules.chunkName), luassert.first ?? .nil)
      // `assert.screen(store)` and `expect(store):to_match_screen()`.
      try snapshots.install(in: state, host: host)
      try configuration.prepareState(state)
      do {
        try state.call(state.load(file: file))
      } catch LuaError.runtime(let message, let traceback) {
        throw LuaError.runtime(message: message + Self.blockNote(control), traceback: traceback)
      }
      let declarations = try declared.array().map { entry in
        guard let entry = entry.tableValue else { throw LuaError.conversion("malformed test declaration") }
        return Declaration(
          name: try entry.rawGet("name").stringValue ?? "?",
          body: try entry.rawGet("fn").functionValue,
          skipped: try entry.rawGet("skipped").boolValue ?? false,
          location: try entry.rawGet("where").stringValue.flatMap { $0 == "?" ? nil : $0 })
      }
      return LoadedFile(state: state, declarations: declarations, control: Control(table: control))
    } catch {
      state.close()
      throw error
    }
  }
}
