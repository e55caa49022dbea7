import Lua

/// Runs Lua test files (`*_test.lua`), busted-like: every test in a fresh, sandboxed Lua state,
/// its body driven as a coroutine by `LuaCoroutineDriver` so it can await Swift work.
///
/// A file runs once to collect its declarations, then once more per test in that test's own state
/// (top-level code therefore runs once per test, plus once). A file that fails to load, or whose
/// top-level code raises, is one failed result named after the file.
@MainActor
public final class LuaTestRunner {
  public var configuration: LuaTestConfiguration

  public init(configuration: LuaTestConfiguration = LuaTestConfiguration()) {
    self.configuration = configuration
  }

  /// Discovers the test files under `paths` (see `LuaTestDiscovery`) and runs them.
  public func run(paths: [String], reporter: any LuaTestReporter = LuaTestSilentReporter()) async -> LuaTestSummary {
    await run(files: LuaTestDiscovery.testFiles(in: paths), reporter: reporter)
  }

  /// Runs the tests of `files`, in order, reporting each result as it comes.
  public func run(files: [String], reporter: any LuaTestReporter = LuaTestSilentReporter()) async -> LuaTestSummary {
    var plan: [PlannedTest] = []
    for file in files {
      do {
        let loaded = try load(file)
        defer { loaded.state.close() }
        for (index, declaration) in loaded.declarations.enumerated() where matchesFilter(declaration.name) {
          plan.append(.test(file: file, index: index, name: declaration.name, skipped: declaration.skipped))
        }
      } catch {
        plan.append(.unloadable(file: file, failure: LuaTestFailure(error, file: file)))
      }
    }
    reporter.begin(testCount: plan.count)
    var summary = LuaTestSummary()
    for (offset, planned) in plan.enumerated() {
      let result = await run(planned)
      summary.results.append(result)
      reporter.report(result, number: offset + 1)
    }
    reporter.finish(summary)
    return summary
  }

  private func matchesFilter(_ name: String) -> Bool {
    guard let filter = configuration.filter, !filter.isEmpty else { return true }
    return name.contains(filter)
  }

  // MARK: One test

  private enum PlannedTest {
    case test(file: String, index: Int, name: String, skipped: Bool)
    case unloadable(file: String, failure: LuaTestFailure)
  }

  private func run(_ planned: PlannedTest) async -> LuaTestResult {
    switch planned {
    case .unloadable(let file, let failure):
      return LuaTestResult(name: file, file: file, outcome: .failed(failure))
    case .test(let file, _, let name, true):
      return LuaTestResult(name: name, file: file, outcome: .skipped)
    case .test(let file, let index, let name, false):
      var notes: [String] = []
      let outcome = await runTest(file: file, index: index, name: name, notes: &notes)
      return LuaTestResult(name: name, file: file, outcome: outcome, notes: notes)
    }
  }

  private func runTest(file: String, index: Int, name: String, notes: inout [String]) async -> LuaTestResult.Outcome {
    var context: (location: String?, traceback: String?) = (nil, nil)
    var state: LuaState?
    defer { state?.close() }
    // The test stores' notes, taken before the state closes (the end-of-test checks add some).
    func takeNotes() {
      if let state, let host = try? ReluaHost.install(in: state) { notes = host.testStores.flatMap(\.skipped) }
    }
    do {
      let loaded = try load(file)
      state = loaded.state
      guard index < loaded.declarations.count, loaded.declarations[index].name == name,
        let body = loaded.declarations[index].body
      else {
        return .failed(LuaTestFailure(
          message: "the file declared different tests when it was loaded again (tests must not depend on chance)",
          location: nil))
      }
      try loaded.seal.call()
      _ = try await LuaCoroutineDriver.of(loaded.state).run(body, arguments: []) { location, traceback in
        context = (location, traceback)
      }
      let host = try ReluaHost.install(in: loaded.state)
      do {
        try host.finishTests()
      } catch {
        await host.stopEffects()
        throw error
      }
      await host.stopEffects()
      takeNotes()
      return .passed
    } catch {
      // No effect may outlive the test's Lua state: stop them before it closes.
      if let state, let host = try? ReluaHost.install(in: state) { await host.stopEffects() }
      takeNotes()
      // `pending(reason)` inside the test: skipped, saying why.
      if case LuaError.runtime(let message, _) = error, message.hasPrefix(LuaTestDeclarations.skipMarker) {
        notes.insert("pending: " + message.dropFirst(LuaTestDeclarations.skipMarker.count), at: 0)
        return .skipped
      }
      var failure = LuaTestFailure(error, file: file)
      // Swift errors carry no position: take it from the coroutine the driver saw fail.
      if failure.location == nil, let location = context.location {
        failure = LuaTestFailure(raised: "\(location): \(failure.message)", traceback: context.traceback, file: file)
      } else if failure.traceback.isEmpty {
        failure.traceback = LuaTestFailure.scriptFrames(in: context.traceback)
      }
      return .failed(failure)
    }
  }

  // MARK: Loading a file into a fresh state

  private struct Declaration {
    var name: String
    var body: LuaFunction?
    var skipped: Bool
  }

  private struct LoadedFile {
    var state: LuaState
    var declarations: [Declaration]
    var seal: LuaFunction
  }

  private func load(_ file: String) throws -> LoadedFile {
    let state = try LuaState(options: LuaOptions(
      trusted: configuration.trusted,
      memoryLimit: configuration.memoryLimit,
      instructionLimit: configuration.instructionLimit,
      sharesInstructionBudget: true,
      scriptRoots: LuaTestDiscovery.scriptRoots(for: file) + configuration.extraScriptRoots,
      print: configuration.print))
    do {
      let dsl = try state.call(state.load(LuaTestDeclarations.source, name: LuaTestDeclarations.chunkName))
      let printer = try state.call(state.load(LuaValuePrinter.source, name: LuaValuePrinter.chunkName))
      try state.call(state.load(LuaTestAssertions.source, name: LuaTestAssertions.chunkName), printer[0])
      guard dsl.count == 2, let declared = dsl[0].tableValue, let seal = dsl[1].functionValue else {
        throw LuaError.conversion("the test declarations did not load")
      }
      // A test's state: the helpers under `relua.testing` run here (and nowhere else).
      try ReluaHost.install(in: state).runsTests = true
      try configuration.prepareState(state)
      try state.call(state.load(file: file))
      let declarations = try declared.array().map { entry in
        guard let entry = entry.tableValue else { throw LuaError.conversion("malformed test declaration") }
        return Declaration(
          name: try entry.rawGet("name").stringValue ?? "?",
          body: try entry.rawGet("fn").functionValue,
          skipped: try entry.rawGet("skipped").boolValue ?? false)
      }
      return LoadedFile(state: state, declarations: declarations, seal: seal)
    } catch {
      state.close()
      throw error
    }
  }
}
