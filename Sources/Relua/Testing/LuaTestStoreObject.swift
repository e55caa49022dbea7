import Composable
import Lua

/// The engine's exhaustive `TestStore` for a Lua feature (`relua.TestStore(Feature, options)`):
///
///     store:send("increment", function(s) s.count = 1 end)
///     store:send("setCount", 5, function(s) s.count = 5 end)
///     store:advance(1)                     -- with deps = { clock = "test" }
///     store:receive("timerTicked", function(s) s.ticks = 1 end)
///     store:finish()
///
/// An expectation function gets a plain copy of the state before the action and changes it into
/// the state expected after; omit it when nothing should change. `receive(name)` matches the
/// action by name (any payload); `receive(name, payload)` matches it exactly;
/// `receive(name, check, expect)` by name and `check(payload)`; `receive(function(action) … end)`
/// by a predicate over the action's record (see `ReluaHost.pushRecord`). Failures raise at the
/// test's line, worded as the engine's (diffs in Lua table syntax, `−` expected, `+` actual).
/// `send` returns a task handle (`LuaTestStoreTaskObject`). With `store:exhaustive(false,
/// { showSkipped = true })` what the store skipped is collected as notes (`store:skipped()`),
/// which `relua test` prints under the test.
@MainActor
package final class LuaTestStoreObject {
  let host: ReluaHost
  let feature: FeatureDefinition
  let testStore: TestStore<Value, FeatureAction>
  let resolver: ActionResolver
  let clock: TestStoreClock?
  /// This test's shared values (fresh for each test store).
  let shares: SharedRegistry
  private var failures: [String] = []
  /// Skipped assertions, each starting with the script line it concerns.
  package private(set) var skipped: [String] = []
  /// Where the store was made (end-of-test notes name it, as TCA names the store's creation).
  private let location: String
  /// The script line of the operation running now.
  var callerLocation: String?

  init(
    host: ReluaHost, feature: FeatureDefinition, state: Value?, options: DependencyOptions, files: (any SharedFileSystem)? = nil,
    location: String, buildState: LuaFunction? = nil
  ) throws {
    self.host = host
    self.feature = feature
    resolver = host.resolver(for: feature)
    clock = options.testClock
    let missingDependencies = LockedValue<[String]>([])
    var initialDependencies = DependencyValues.test { name in missingDependencies.withLock { $0.append(name) } }
    options.prepare(&initialDependencies)
    // Each test store starts from fresh shares: its files in memory, unless the test gives some.
    let shares = host.testShares(files: files)
    self.shares = shares
    // Load and save errors are the store's warnings (until it exists, kept here).
    var earlyWarnings: [String] = []
    shares.warn = { earlyWarnings.append($0) }
    initialDependencies[SharedRegistryKey.self] = shares
    var initial = try state.map { state in
      try FeatureStateCheck.check(state, against: feature)
      return FeatureStateShape.conform(state, to: feature)
    }
      ?? buildState.map { try host.givenState(calling: $0, of: feature, dependencies: initialDependencies) }
      ?? host.initialState(of: feature, dependencies: initialDependencies)
    if let missing = missingDependencies.withLock({ $0.first }) {
      let reader = buildState == nil ? "feature '\(feature.name)' reads it in state(deps)" : "the test's state(deps) reads it"
      throw ReluaError.usage("Unimplemented dependency: \(missing) (\(reader); give it in deps = { … })")
    }
    try DependencyValues.withValues(initialDependencies) { try host.prepareShares(&initial, of: feature, registry: shares) }
    self.location = location
    let (file, line) = Self.split(location)
    let transaction = host.storeTransaction(of: feature, shares: shares)
    testStore = TestStore(
      initialState: initial, reducer: Reduce(host.rootReducer(for: feature, transaction: transaction)), isEqual: { $0.sameInLua(as: $1) },
      reporter: ClosureTestFailureReporter { _, _ in }, withDependencies: {
        options.prepare(&$0)
        $0.withOwnNotifications()
        $0[SharedRegistryKey.self] = shares
      },
      transaction: transaction, location: SourceLocation(file: file, line: line))
    testStore.reporter = ClosureTestFailureReporter(
      { [weak self] message, _ in self?.failures.append(message) },
      skipped: { [weak self] message, _ in
        guard let self else { return }
        self.skipped.append((self.callerLocation ?? self.location) + ": " + message)
      })
    transaction.sender = ObjectIdentifier(testStore.store)
    for warning in earlyWarnings { testStore.store.warn(warning) }
    shares.warn = { [weak store = testStore.store] in store?.warn($0) }
    if feature.reachesShares {
      let link = SharedStoreLink(store: testStore.store, feature: feature, transaction: transaction)
      shares.link(link)
    }
    testStore.diff = { expected, actual in ValueDiff.lines(from: expected, to: actual).map { indent($0) } }
    testStore.describeAction = { $0.description }
    testStore.actionDiff = { expected, received in "− " + expected.description + "\n+ " + received.description }
  }

  private static func split(_ location: String) -> (String, UInt) {
    guard let colon = location.lastIndex(of: ":"), let line = UInt(location[location.index(after: colon)...]) else {
      return (location, 0)
    }
    return (String(location[..<colon]), line)
  }

  /// `relua.TestStore(Feature, { state = table, json = text, deps = { … }, limits = { … }, timeout = seconds })`.
  static func make(host: ReluaHost, stack: LuaStack) throws -> LuaValue {
    let feature = try host.feature(stack.value(at: 1), what: "relua.TestStore(Feature, options)")
    let options = stack.isNil(at: 2) ? nil : try stack.table(at: 2)
    let dependencies = try DependencyOptions(options?["deps"].tableValue, host: host)
    var state: Value?
    // `state = function(deps) … end`: built under the test's dependencies (TCA's initialState).
    var buildState: LuaFunction?
    if let options {
      let given = try options["state"]
      if let function = given.functionValue { buildState = function } else if !given.isNil { state = try host.value(from: given) }
      if let json = try options["json"].stringValue { state = try Value(json: json) }
    }
    let object = try LuaTestStoreObject(
      host: host, feature: feature, state: state, options: dependencies, files: try host.testFiles(options?["files"]),
      location: stack.raw.location(ofLevel: 1) ?? "?", buildState: buildState)
    object.testStore.limits = try SendLimits(luaOptions: options)
    // TCA's `TestStore.timeout`: how long receive and finish wait for effects on live dependencies.
    if let timeout = try options?["timeout"], !timeout.isNil {
      guard let duration = timeout.doubleValue.flatMap(Duration.luaSeconds) else {
        throw LuaError.runtime(message: "relua.TestStore: timeout must be \(Duration.luaSecondsRule)", traceback: nil)
      }
      object.testStore.timeout = duration
    }
    host.testState.stores.append(object)
    return .userdata(try host.lua.userdata(object))
  }

  // MARK: Operations

  /// Runs one engine operation; its failures (and a Lua reducer's error) raise afterwards.
  func perform(_ body: () async throws -> Void) async throws {
    host.lastReducerError = nil
    failures.removeAll()
    try await body()
    if let error = host.lastReducerError {
      host.lastReducerError = nil
      failures.insert(error.fullDescription, at: 0)
    }
    failures.insert(contentsOf: host.testState.takeDependencyFailures(), at: 0)
    if !failures.isEmpty {
      let message = failures.joined(separator: "\n\n")
      failures.removeAll()
      throw LuaError.runtime(message: message, traceback: nil)
    }
  }

  /// Splits `(name, [payload], [expect])`.
  private func actionArguments(_ arguments: ArraySlice<LuaValue>) throws -> (String, LuaValue?, LuaFunction?) {
    guard let name = arguments.first?.stringValue else {
      throw LuaError.argument(position: 2, message: "expected an action name")
    }
    var rest = arguments.dropFirst()
    var expect: LuaFunction?
    if let last = rest.last, case .function(let function) = last {
      expect = function
      rest = rest.dropLast()
    } else if let last = rest.last, !last.isNil, rest.count == 2 {
      throw LuaError.argument(position: 4, message: "the expectation must be a function(state)")
    }
    return (name, rest.first, expect)
  }

  func expectation(_ function: LuaFunction?) -> ((inout Value) throws -> Void)? {
    guard let function else { return nil }
    let feature = feature
    return { [host, testStore] state in
      let before = state
      let table = try host.lua.value(state)
      // Under the test's dependencies, as TCA runs an assertion: `relua.deps.date()` there is the
      // test's date (TCA's testDependenciesEarlyBinding).
      try DependencyValues.withValues(testStore.dependencies) { _ = try host.lua.call(function, table) }
      state = try host.value(from: table, hint: state)
      // A shared value asserted at one of its places is expected at all of them (as a TCA test
      // asserts a `@Shared` reference once).
      if feature.reachesShares { state = try host.spreadingSharedChanges(in: state, from: before, of: feature) }
    }
  }

  func send(_ arguments: ArraySlice<LuaValue>) async throws -> LuaTestStoreTaskObject {
    let (name, payload, expect) = try actionArguments(arguments)
    let action = try resolver.resolve(name, payload: try payload.map { try host.value(from: $0) } ?? .null)
    var task: TestStoreTask?
    try await perform {
      task = await testStore.send(action, assert: expectation(expect), at: testStore.currentLocationForLua)
    }
    return LuaTestStoreTaskObject(store: self, task: task!)
  }

  func receive(_ arguments: ArraySlice<LuaValue>) async throws {
    let matcher = try LuaReceiveMatcher(arguments, resolver: resolver, host: host)
    try await perform {
      await testStore.receive(
        matching: { [host] in matcher.matches($0, host: host) },
        expected: matcher.expected, timeout: nil, assert: expectation(matcher.expect),
        at: testStore.currentLocationForLua)
      // The check's error first: it is why the action did not match.
      if let error = matcher.check?.error { failures.insert(error, at: 0) }
    }
  }

  /// `store:advance(seconds)`; `store:advance()` runs the clock until no sleep is left.
  func advance(_ duration: Duration?) async throws {
    guard let clock else {
      throw LuaError.runtime(message: "store:advance needs a test clock: relua.TestStore(Feature, { deps = { clock = \"test\" } })", traceback: nil)
    }
    try await perform {
      if let duration {
        await testStore.advance(clock, by: duration)
      } else {
        await testStore.run(clock, timeout: nil, failing: true, at: testStore.currentLocationForLua)
      }
    }
  }

  /// `store:finish([seconds])`: waits for the effects still running and checks that nothing is
  /// left (TCA's `finish`: it does not move the test clock; `store:advance()` does).
  func finish(timeout: Duration?) async throws {
    try await perform { await testStore.finish(timeout: timeout) }
  }

  /// The exhaustive checks at the end of a test (actions received but not asserted, effects still
  /// running); the runner then stops the effects (`ReluaHost.stopEffects`).
  func finishTest() -> [String] {
    failures.removeAll()
    callerLocation = nil
    testStore.assertNothingPending()
    defer { failures.removeAll() }
    return host.testState.takeDependencyFailures() + failures
  }

  static func register(in host: ReluaHost) throws {
    let lua = host.lua
    let type = try lua.register(
      type: LuaTestStoreObject.self, name: "TestStore",
      methods: [
        "state": { store, stack in
          let path = stack.isNil(at: 2) ? "" : try stack.string(at: 2)
          return [try lua.value(try store.testStore.state.at(path: path))]
        },
        "warnings": { store, _ in [.table(try lua.table(array: store.testStore.warnings.map { .text($0.message) }))] },
        "exhaustive": { store, stack in
          // store:exhaustive(false, { showSkipped = true }): skipped assertions become notes.
          var showSkipped = false
          if !stack.isNil(at: 3) {
            let options = try stack.table(at: 3)
            for (key, _) in try options.pairs() where key.stringValue != "showSkipped" {
              throw LuaError.argument(position: 3, message: "unknown option \(key.stringValue.map { "'\($0)'" } ?? "\(key.type)"); the option is showSkipped")
            }
            showSkipped = try options["showSkipped"].isTruthy
            if showSkipped && stack.isTruthy(at: 2) {
              throw LuaError.argument(position: 3, message: "showSkipped is for a non-exhaustive store: store:exhaustive(false, { showSkipped = true })")
            }
          }
          store.testStore.exhaustivity = stack.isTruthy(at: 2) ? .on : .off(showSkippedAssertions: showSkipped)
          return []
        },
        "skipped": { store, _ in [.table(try lua.table(array: store.skipped.map { .text($0) }))] },
        // store:shared(key): the test's value of a share (nil: nothing yet);
        // store:setShared(key, value): sets it, as something outside the feature would (every
        // holder in the store takes it; the next step starts from there, no step asserts it).
        "shared": { store, stack in
          let key = try SharedKeyDescriptor(table: stack.table(at: 2), host: host)
          return [try store.shares.value(of: key).map { try lua.value($0) } ?? .nil]
        },
        "setShared": { store, stack in
          let key = try SharedKeyDescriptor(table: stack.table(at: 2), host: host)
          let value = try host.value(from: stack.value(at: 3), hint: store.shares.hint(for: key))
          do {
            try store.shares.set(key, to: value)
          } catch let error as SharedStorageError {
            throw LuaError.argument(position: 3, message: error.description)
          }
          store.testStore.adoptCurrentState()
          return []
        },
        "sharedError": { store, stack in
          let key = try SharedKeyDescriptor(table: stack.table(at: 2), host: host)
          let which = stack.isNil(at: 3) ? "load" : try stack.string(at: 3)
          return [try store.shares.error(of: key, saving: which == "save").map { .text($0) } ?? .nil]
        },
        "files": { store, _ in
          // The test's files as the shares left them (name → contents), for asserting what was saved.
          guard let files = store.shares.environment.files as? InMemoryFileSystem else { return [.nil] }
          let table = try lua.table()
          for (path, data) in files.contents { try table.rawSet(.text(host.sharedFileName(path)), .text(String(decoding: data, as: UTF8.self))) }
          return [.table(table)]
        },
        "screens": { store, _ in
          [.table(try lua.table(array: FeatureScreens.screens(of: store.feature, state: store.testStore.state).map { .text($0.place) }))]
        },
        // The top screen's view as the REPL draws it, as a Store's `view` (nil without a view).
        "view": { store, _ in
          let screens = FeatureScreens.screens(of: store.feature, state: store.testStore.state)
          guard let top = screens.last else { return [] }
          return [try host.screenText(top, in: screens).map(LuaValue.text) ?? .nil]
        },
        "viewJSON": { store, _ in [try host.topViewJSON(of: store.feature, state: store.testStore.state).map(LuaValue.text) ?? .nil] },
      ])
    func awaitableReturning(
      _ name: String, _ body: @escaping @MainActor (LuaTestStoreObject, ArraySlice<LuaValue>) async throws -> [LuaValue]
    ) throws {
      try type.methods.rawSet(.text(name), .function(host.driver.awaitable(name: "store:\(name)", in: lua) { arguments, caller in
        guard let store = try arguments.first?.userdataValue?.object(as: LuaTestStoreObject.self) else {
          throw LuaError.argument(position: 1, message: "TestStore expected (call it as store:\(name)(…))")
        }
        store.callerLocation = caller
        return try await body(store, arguments.dropFirst())
      }))
    }
    func awaitable(_ name: String, _ body: @escaping @MainActor (LuaTestStoreObject, ArraySlice<LuaValue>) async throws -> Void) throws {
      try awaitableReturning(name) { store, arguments in
        try await body(store, arguments)
        return []
      }
    }
    try LuaTestStoreTaskObject.register(in: host)
    try awaitableReturning("send") { store, arguments in
      [.userdata(try lua.userdata(try await store.send(arguments)))]
    }
    try awaitable("receive") { store, arguments in try await store.receive(arguments) }
    try registerStateAssertionsAndFields(type, in: host)
    try awaitableReturning("post") { store, arguments in
      // store:post(name[, value]): posts to the store's notifications, then lets the effects
      // that got it run to their next suspension; returns how many loops it reached.
      guard let name = arguments.first?.stringValue else {
        throw LuaError.argument(position: 2, message: "expected a notification name (a string)")
      }
      let value = arguments.count > 1 ? try store.host.value(from: arguments[arguments.startIndex + 1]) : .null
      let reached = await store.testStore.dependencies.notifications.post(name, value) { await store.testStore.settle() }
      return [.integer(Int64(reached))]
    }
    try awaitable("advance") { store, arguments in
      // store:advance(seconds), or store:advance(): run the clock until no sleep is left.
      try await store.advance(try Duration.luaSecondsArgument(arguments.first))
    }
    try awaitable("finish") { store, arguments in
      // store:finish([seconds]): how long to wait for effects waiting on a live dependency (1 s).
      try await store.finish(timeout: try Duration.luaSecondsArgument(arguments.first))
    }
    try awaitable("skipReceivedActions") { store, _ in try await store.perform { await store.testStore.skipReceivedActions() } }
    try awaitable("skipInFlightEffects") { store, _ in try await store.perform { await store.testStore.skipInFlightEffects() } }
    try awaitable("cancelEffect") { store, arguments in
      // store:cancelEffect(n): cancels the n-th effect this store started, as a host's cancel
      // of one effect does (the REPL's `:cancel N`, written so by a recorded session).
      guard let number = arguments.first?.integerValue else {
        throw LuaError.argument(position: 2, message: "expected the effect's number (an integer: 1 for the first effect this store started)")
      }
      let started = store.testStore.effectsStarted
      try await store.perform {
        guard await store.testStore.cancelEffect(started: Int(clamping: number)) else {
          throw LuaError.runtime(
            message: number >= 1 && number <= started
              ? "store:cancelEffect(\(number)): effect \(number) is not running (it ended or was cancelled)"
              : "store:cancelEffect(\(number)): this store started \(started) effect(s)",
            traceback: nil)
        }
      }
    }
  }
}

private func indent(_ text: String) -> String {
  text.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n")
}

extension TestStore {
  /// Lua failures raise at the script's line themselves; the engine's location is not used.
  var currentLocationForLua: SourceLocation { SourceLocation(file: "lua", line: 0) }
}
