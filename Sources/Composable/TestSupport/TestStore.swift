import CustomDump
import Foundation

/// Drives a feature in a test and checks it exhaustively, like TCA's TestStore:
/// each `send`/`receive` states the expected state change, actions received from effects must be
/// asserted before the next send, and effects still running at the end fail the test.
@MainActor
public final class TestStore<State, Action> {
  /// The state as asserted so far.
  public internal(set) var state: State

  /// Takes the store's state as it is now as the state the next step starts from: a change the
  /// test made itself (setting a shared value), which no step asserts.
  package func adoptCurrentState() { state = store.state }
  /// Whether every change and received action must be asserted (`.on`, the default), or only those
  /// the test states.
  public var exhaustivity: Exhaustivity = .on
  /// Where failures go (XCTest and Swift Testing by default).
  public var reporter: any TestFailureReporter
  /// Describes the difference of two states (expected, actual); nil when it cannot tell.
  public var diff: (_ expected: State, _ actual: State) -> String?
  /// Describes an action in messages.
  public var describeAction: (Action) -> String
  /// How an expected and a received action that differ are shown (default: CustomDump's diff);
  /// a host whose actions describe themselves as text sets it.
  public var actionDiff: ((_ expected: Action, _ received: Action) -> String)?
  /// Compares states (Equatable by default; hosts with dynamic state can plug their own).
  public let isEqual: (State, State) -> Bool
  /// How long `finish` waits by default.
  public var timeout: Duration = .seconds(1)

  /// Whether Swift concurrency's global jobs run on the main actor's queue while this store lives
  /// (true by default, as in TCA): nonisolated effect code then runs one job at a time, in order
  /// (see `MainSerialExecutor`). Set it to false for a test whose effects need parallel threads.
  public var useMainSerialExecutor = true {
    didSet {
      guard useMainSerialExecutor != oldValue else { return }
      if useMainSerialExecutor { MainSerialExecutor.acquire() } else { MainSerialExecutor.release() }
    }
  }

  /// The store under test (for code that takes a `Store`: its state is the live one, not the
  /// asserted one).
  public let store: Store<State, Action>
  let root: StoreRoot<State, Action>
  /// The id of the first effect it started (`cancelEffect(started:)` counts from it).
  let firstTaskID: Int
  let location: SourceLocation

  struct Received {
    var action: Action
    var state: State
  }
  var received: [Received] = []
  /// State right after the externally sent action of the current send.
  var sentState: State?
  /// Where each effect in flight was started (the send/receive that returned it).
  var effectOrigins = EffectSpans<SourceLocation>()
  /// The action each effect in flight came from: the last action reduced before it started (a
  /// send's effects start once its actions are reduced), for skipped-assertion notes.
  var effectActions = EffectSpans<Action>()
  var lastReducedAction: Action?
  var attributedUpTo = 0
  var currentLocation: SourceLocation

  /// - Parameters:
  ///   - withDependencies: set the dependencies the feature uses. Any other one it reads fails the test
  ///     ("Unimplemented dependency: uuid").
  /// How much work one send may cause (see `SendLimits`).
  public var limits: SendLimits {
    get { store.limits }
    set { store.limits = newValue }
  }

  package init<R: Reducer>(
    initialState: State,
    reducer: R,
    isEqual: @escaping (State, State) -> Bool,
    reporter: any TestFailureReporter = IssueTestFailureReporter(),
    withDependencies prepare: (inout DependencyValues) -> Void = { _ in },
    transactional: Bool = false,
    transaction: StoreTransaction<State>? = nil,
    location: SourceLocation
  ) where R.State == State, R.Action == Action {
    self.state = initialState
    self.isEqual = isEqual
    self.reporter = reporter
    self.location = location
    self.currentLocation = location
    // Cut as every printout is (`Elision`): a failing test on a huge state prints a screenful.
    self.diff = { CustomDump.diff($0, $1, format: .proportional).map(Elision.standard.cut(printout:)) }
    self.describeAction = { action in
      var output = ""
      customDump(action, to: &output)
      return Elision.standard.cut(printout: output)
    }
    let failures = UnimplementedSink()
    var dependencies = DependencyValues.test { name in failures.record(name) }
    prepare(&dependencies)
    self.store = Store(
      initialState: initialState, reduce: reducer.reduce(into:action:), dependencies: dependencies,
      transactional: transactional, transaction: transaction)
    self.root = store.root!
    // As TCA's: the root feature's `dismiss()` dismisses the test store (`isDismissed`).
    root.dismissesItself = true
    firstTaskID = root.nextTaskID
    failures.report = { [weak self] name in
      guard let self else { return }
      self.fail("Unimplemented dependency: \(name)", at: self.currentLocation)
    }
    MainSerialExecutor.acquire()
    root.trackSettling()
    root.didReduce = { [weak self] action, wasReceived in
      guard let self else { return }
      self.attributeEffects()
      self.lastReducedAction = action
      if wasReceived {
        self.received.append(Received(action: action, state: self.root.settledState))
      } else {
        self.sentState = self.root.settledState
      }
    }
  }

  /// A test store of `reducer` at `initialState`, with test dependencies changed by `prepare`: any
  /// other dependency the feature reads without a test value fails the test.
  public convenience init<R: Reducer>(
    initialState: State,
    reducer: R,
    reporter: any TestFailureReporter = IssueTestFailureReporter(),
    withDependencies prepare: (inout DependencyValues) -> Void = { _ in },
    file: StaticString = #filePath, line: UInt = #line
  ) where R.State == State, R.Action == Action, State: Equatable {
    self.init(
      initialState: initialState, reducer: reducer, isEqual: ==, reporter: reporter,
      withDependencies: prepare, location: SourceLocation(file: file, line: line))
  }

  /// A test store whose reducer is built from others by a result builder.
  public convenience init<R: Reducer>(
    initialState: State,
    reporter: any TestFailureReporter = IssueTestFailureReporter(),
    withDependencies prepare: (inout DependencyValues) -> Void = { _ in },
    file: StaticString = #filePath, line: UInt = #line,
    @ReducerBuilder<State, Action> reducer: () -> R
  ) where R.State == State, R.Action == Action, State: Equatable {
    self.init(
      initialState: initialState, reducer: reducer(), reporter: reporter, withDependencies: prepare,
      file: file, line: line)
  }

  /// Warnings the store collected (absent children, effect errors…).
  public var warnings: [RuntimeWarning] { store.warnings }

  /// The dependencies the feature runs with (e.g. to change one mid-test).
  public var dependencies: DependencyValues {
    get { store.dependencies }
    set { store.dependencies = newValue }
  }

  /// (Cut as any message is: its parts are cut already, an error's text may not be.)
  func fail(_ message: String, at location: SourceLocation) {
    reporter.reportFailure(Elision.standard.cut(text: message), at: location)
  }

  /// What an exhaustive store fails on: a failure when exhaustive, a note when skipped assertions
  /// are shown, nothing otherwise.
  func failOrSkip(_ message: @autoclosure () -> String, at location: SourceLocation) {
    switch exhaustivity {
    case .on: fail(message(), at: location)
    case .off(showSkippedAssertions: true): reporter.reportSkippedAssertions(Elision.standard.cut(text: "Skipped assertions.\n\n" + message()), at: location)
    case .off(showSkippedAssertions: false): break
    }
  }

  /// Whether two actions are the same, for an `Equatable` action type (spans of effects that
  /// came from equal actions merge; see `EffectSpans`).
  private let sameAction: ((Action, Action) -> Bool)? = {
    guard let type = Action.self as? any Equatable.Type else { return nil }
    func equality<E: Equatable>(_: E.Type) -> (Action, Action) -> Bool {
      { ($0 as! E) == ($1 as! E) }
    }
    return equality(type)
  }()

  /// Gives the effects started since the last call the action reduced last.
  func attributeEffects() {
    let next = root.nextTaskID
    guard attributedUpTo < next else { return }
    if let lastReducedAction {
      effectActions.note(lastReducedAction, for: attributedUpTo..<next, same: sameAction)
    }
    attributedUpTo = next
    // What is kept per effect goes with the effect.
    effectActions.prune(inFlight: root.inFlight.keys)
    effectOrigins.prune(inFlight: root.inFlight.keys)
  }

  // MARK: Send

  /// Sends an action and asserts the state change it makes (`assert` mutates the previous state into
  /// the expected one; omit it when nothing should change). Returns the effects it started.
  @discardableResult
  public func send(
    _ action: Action, assert: ((inout State) throws -> Void)? = nil,
    file: StaticString = #filePath, line: UInt = #line
  ) async -> TestStoreTask {
    await send(action, assert: assert, at: SourceLocation(file: file, line: line))
  }

  /// `send(_:assert:file:line:)` for a host whose caller's place is not Swift source.
  @discardableResult
  public func send(_ action: Action, assert: ((inout State) throws -> Void)?, at location: SourceLocation) async -> TestStoreTask {
    currentLocation = location
    if root.isDismissed { return refuseSendAfterDismissal(action, at: location) }
    requireReceivedHandled(before: "sending an action", at: location)
    attributeEffects()
    let first = root.nextTaskID
    sentState = nil
    store.send(action)
    if let failure = root.lastFailure {
      root.lastFailure = nil
      fail("The reducer failed for this action: \(failure)", at: location)
      // The state the reducer left was rolled back (a transactional store): the store's is the one.
      sentState = nil
    }
    let task = root.makeTask(first..<root.nextTaskID)
    effectOrigins.note(location, for: task.effects!.ids, same: SourceLocation.same)
    let actual = sentState ?? store.state
    let expected = state
    expect(expected: expected, actual: actual, assert: assert, at: location)
    state = actual
    await effectsStarted()
    return TestStoreTask(storeTask: task, timeout: timeout) { [weak self] message, location in
      self?.fail(message, at: location)
    }
  }

  /// Notes received actions a non-exhaustive store skipped.
  func reportSkipped(_ actions: [Action], at location: SourceLocation) {
    guard !actions.isEmpty, exhaustivity != .on else { return }
    failOrSkip(
      "\(actions.count) received action\(actions.count == 1 ? " was" : "s were") skipped: …\n\n"
        + actions.map { "  " + describeAction($0) }.joined(separator: "\n"),
      at: location)
  }

  func expect(
    expected: State, actual: State, assert: ((inout State) throws -> Void)?, at location: SourceLocation
  ) {
    var expectedState = exhaustivity == .on ? expected : actual
    do {
      try assert?(&expectedState)
    } catch {
      fail("Threw error: \(error)", at: location)
      return
    }
    if exhaustivity == .off(showSkippedAssertions: true), isEqual(expectedState, actual) {
      // What an exhaustive store would have said, from the state before the action.
      var exhaustiveState = expected
      do {
        try assert?(&exhaustiveState)
      } catch {
        failOrSkip("Threw error: \(error)", at: location)
        return
      }
      guard !isEqual(exhaustiveState, actual) else { return }
      failOrSkip(stateMismatch(expected: exhaustiveState, actual: actual, asserted: assert != nil), at: location)
      return
    }
    if exhaustivity == .on, assert != nil, isEqual(expectedState, expected),
      isEqual(expected, actual)
    {
      fail(
        """
        Expected state to change, but no change occurred.

        The trailing closure made no observable modifications to state. If no change to state is \
        expected, omit the trailing closure.
        """, at: location)
      return
    }
    guard !isEqual(expectedState, actual) else { return }
    fail(stateMismatch(expected: expectedState, actual: actual, asserted: assert != nil), at: location)
  }

  func stateMismatch(expected: State, actual: State, asserted: Bool) -> String {
    let difference = diff(expected, actual).map { "\n\n" + $0.indented(by: 2) } ?? ""
    let message =
      asserted
      ? "A state change does not match expectation: …"
      : "State was not expected to change, but a change occurred: …"
    return message + difference + "\n\n(Expected: −, Actual: +)"
  }

  // MARK: Receive

  /// Asserts that an effect sent `action` (next in order) and the state change it made.
  public func receive(
    _ action: Action, timeout: Duration? = nil, assert: ((inout State) throws -> Void)? = nil,
    file: StaticString = #filePath, line: UInt = #line
  ) async where Action: Equatable {
    await receive(
      matching: { $0 == action }, expected: action, timeout: timeout, assert: assert,
      at: SourceLocation(file: file, line: line))
  }

  /// Asserts that an effect sent an action matching `predicate`.
  public func receive(
    _ predicate: @escaping (Action) -> Bool, timeout: Duration? = nil,
    assert: ((inout State) throws -> Void)? = nil,
    file: StaticString = #filePath, line: UInt = #line
  ) async {
    await receive(
      matching: predicate, expected: nil, timeout: timeout, assert: assert, at: SourceLocation(file: file, line: line))
  }

  /// Asserts that an effect sent an action matching `predicate` (`expected`, when given, is how
  /// messages show it), for a host whose caller's place is not Swift source.
  public func receive(
    matching predicate: @escaping (Action) -> Bool, expected: Action?, timeout: Duration?,
    assert: ((inout State) throws -> Void)?, at location: SourceLocation
  ) async {
    currentLocation = location
    let timeout = timeout ?? self.timeout
    let tasksBefore = root.nextTaskID
    // Waits until the action came, or no effect can still send it: none is left (a finished
    // effect's actions have all arrived: they are sent on the main actor, as this runs), or every
    // one left is parked — asleep on a test clock, or waiting for the test — so nothing runs until
    // the test acts. Only effects waiting on something else (a live dependency) are waited for,
    // up to the timeout.
    let root = self.root
    if received.isEmpty || (exhaustivity != .on && !received.contains(where: { predicate($0.action) })) {
      await waitForReceived(timeout: timeout) {
        let came = self.exhaustivity == .on ? !self.received.isEmpty : self.received.contains { predicate($0.action) }
        return came || root.inFlightCount == 0 || root.allEffectsAsleep
      }
    }
    effectOrigins.note(location, for: tasksBefore..<root.nextTaskID, same: SourceLocation.same)
    // Why nothing came (for the failures below only).
    func why() -> String {
      if root.inFlightCount == 0 { return ": no effect is running to send it" }
      if root.allEffectsAsleep {
        return ": every effect still running waits for the test (asleep on the test clock: advance it; or on a stream the test feeds)"
      }
      return " after \(seconds(timeout))"
    }
    guard !received.isEmpty else {
      fail("Expected to receive \(expected.map { "an action matching " + describeAction($0) } ?? "an action"), but received none\(why()).", at: location)
      return
    }
    if exhaustivity != .on {
      guard let index = received.firstIndex(where: { predicate($0.action) }) else {
        fail("Expected to receive an action matching the predicate, but received none\(why()).", at: location)
        return
      }
      if index > 0 {
        reportSkipped(received[..<index].map(\.action), at: location)
        state = received[index - 1].state
      }
      received.removeFirst(index)
    }
    let next = received.removeFirst()
    if !predicate(next.action) {
      var message = "Received unexpected action: …"
      if let expected, let actionDiff {
        message += "\n\n" + actionDiff(expected, next.action).indented(by: 2) + "\n\n(Expected: −, Received: +)"
      } else if let expected, let difference = CustomDump.diff(expected, next.action, format: .proportional) {
        message += "\n\n" + Elision.standard.cut(printout: difference).indented(by: 2) + "\n\n(Expected: −, Received: +)"
      } else {
        message += "\n\n  " + describeAction(next.action)
      }
      fail(message, at: location)
    } else {
      expect(expected: state, actual: next.state, assert: assert, at: location)
    }
    state = next.state
    await effectsStarted()
  }

  /// Lets every effect started so far begin (a Lua effect runs to its first await), then yields.
  private func effectsStarted() async {
    let root = self.root
    await root.wait(until: { root.allEffectsStarted }, timeout: timeout)
    await Task.megaYield()
  }

  /// Event-driven: re-checks `condition` each time an effect delivers an action or finishes.
  private func waitForReceived(timeout: Duration, until condition: @escaping () -> Bool) async {
    await Task.megaYield()
    await root.wait(until: condition, timeout: timeout)
  }

  // MARK: Finishing

  /// Waits for every effect to finish; fails for those still running after `timeout`.
  public func finish(timeout: Duration? = nil, file: StaticString = #filePath, line: UInt = #line) async {
    let location = SourceLocation(file: file, line: line)
    currentLocation = location
    let timeout = timeout ?? self.timeout
    await Task.megaYield()
    let root = self.root
    // Every effect left parked (asleep on a test clock, or waiting for the test): none can end
    // before the test acts, so there is nothing to wait for.
    await root.wait(until: { root.inFlightCount == 0 || root.allEffectsAsleep }, timeout: timeout)
    if exhaustivity == .on {
      // (Waited only when some effect was busy; parked ones were not waited for.)
      assertNoInFlightEffects(at: location, timeout: root.allEffectsAsleep ? nil : timeout)
    }
    assertNoReceivedActions(at: location)
  }

  /// Accepts the actions received so far without asserting them.
  public func skipReceivedActions(file: StaticString = #filePath, line: UInt = #line) async {
    await Task.megaYield()
    // Only a store showing skipped assertions says anything (an exhaustive one's skip is the
    // test's choice, a silent one's too): the others do not copy every received action.
    if exhaustivity == .off(showSkippedAssertions: true) {
      reportSkipped(received.map(\.action), at: SourceLocation(file: file, line: line))
    }
    if let last = received.last { state = last.state }
    received.removeAll()
  }

  /// Cancels the `number`-th effect this test store started (1 for the first; effects count in
  /// the order they start, those effects started included), as a host's cancel of one effect
  /// (the REPL's `:cancel N`) does: it stops, and what it would send never arrives. False when that
  /// effect is not running (it ended, was cancelled, or was never started).
  @discardableResult
  public func cancelEffect(started number: Int) async -> Bool {
    await Task.megaYield()
    guard number >= 1, number <= Int.max - firstTaskID else { return false }
    let id = firstTaskID + number - 1
    guard root.inFlight[id] != nil else { return false }
    root.cancelTasks(id..<(id + 1))
    await Task.megaYield()
    return true
  }

  /// How many effects this test store has started so far (concatenations and their parts included).
  public var effectsStarted: Int { root.nextTaskID - firstTaskID }

  /// Cancels the effects still running, accepting that they never finish.
  public func skipInFlightEffects(file: StaticString = #filePath, line: UInt = #line) async {
    if exhaustivity != .on { reportCancelledEffects(at: SourceLocation(file: file, line: line)) }
    root.cancelAllEffects()
    effectOrigins.removeAll()
    await Task.megaYield()
  }

  /// Notes the effects in flight a non-exhaustive store is about to cancel, by the actions they
  /// came from.
  func reportCancelledEffects(at location: SourceLocation) {
    attributeEffects()
    let taskIDs = root.inFlightTaskIDs.sorted()
    guard !taskIDs.isEmpty, exhaustivity != .on else { return }
    let origins = taskIDs.map { effectActions[$0].map(describeAction) ?? "(unknown)" }
    failOrSkip(
      "\(taskIDs.count) in-flight effect\(taskIDs.count == 1 ? " was" : "s were") cancelled, originating from: …\n\n"
        + origins.map { "  " + $0 }.joined(separator: "\n"),
      at: location)
  }

  /// Checks that nothing is left: no unasserted received action, no running effect (exhaustive mode).
  /// Also done when the test store is released.
  public func assertNothingPending(file: StaticString = #filePath, line: UInt = #line) {
    let location = SourceLocation(file: file, line: line)
    assertNoReceivedActions(at: location)
    if exhaustivity == .on {
      assertNoInFlightEffects(at: location, timeout: nil)
    } else if root.inFlightCount > 0 {
      reportCancelledEffects(at: location)
      root.cancelAllEffects()
      effectOrigins.removeAll()
    }
  }

  func assertNoReceivedActions(at location: SourceLocation) {
    guard !received.isEmpty, exhaustivity == .on else {
      reportSkipped(received.map(\.action), at: location)
      if let last = received.last { state = last.state }
      received.removeAll()
      return
    }
    fail(
      "The store received \(received.count) unexpected action\(received.count == 1 ? "" : "s"): …\n\n"
        + received.map { "  " + describeAction($0.action) }.joined(separator: "\n"),
      at: location)
    state = received.last!.state
    received.removeAll()
  }

  func assertNoInFlightEffects(at location: SourceLocation, timeout: Duration?) {
    for taskID in root.inFlightTaskIDs.sorted() {
      let named = root.inFlight[taskID]?.name.map { name in
        "An effect named \"\(name)\"" + (root.inFlight[taskID]?.place.map { " (\($0))" } ?? "")
          + " is still running. It was returned for this action and must complete before the end of the test. …"
      }
      fail(
        (named ?? "An effect returned for this action is still running. It must complete before the end of the test. …")
          + """


        To fix, inspect any effects the reducer returns for this action and ensure that all of them \
        complete by the end of the test. There are a few reasons why an effect may not have completed:

        • If using async/await in your effect, it may need a little bit of time to properly finish. To fix \
        you can simply perform "await store.finish()" at the end of your test.

        • If an effect uses a clock (or scheduler, via "receive(on:)", "delay", "debounce", etc.), make \
        sure that you wait enough time for it to perform the effect. If you are using a test clock, advance \
        it so that the effects may complete, or consider using an immediate clock to immediately perform \
        the effect instead.

        • If you are returning a long-living effect (timers, notifications, subjects, etc.), then make sure \
        those effects are torn down by marking the effect ".cancellable" and returning a corresponding \
        cancellation effect ("Effect.cancel") from another action, or, if your effect is driven by a \
        Combine subject, send it a completion.
        """ + (timeout.map { "\n\n(Waited \(seconds($0)).)" } ?? ""),
        at: effectOrigins[taskID] ?? location)
    }
    root.cancelAllEffects()
    effectOrigins.removeAll()
  }

  isolated deinit {
    assertNoReceivedActions(at: currentLocation)
    if exhaustivity == .on && root.inFlightCount > 0 {
      assertNoInFlightEffects(at: currentLocation, timeout: nil)
    } else if root.inFlightCount > 0 {
      reportCancelledEffects(at: currentLocation)
    }
    root.cancelAllEffects()
    if useMainSerialExecutor { MainSerialExecutor.release() }
  }
}

/// Collects "unimplemented dependency" reports from effects and reducers and forwards them on the main actor.
final class UnimplementedSink: @unchecked Sendable {
  private let lock = NSLock()
  private var _report: (@MainActor (String) -> Void)?

  var report: (@MainActor (String) -> Void)? {
    get { lock.withLock { _report } }
    set { lock.withLock { _report = newValue } }
  }

  func record(_ name: String) {
    let report = self.report
    if Thread.isMainThread {
      MainActor.assumeIsolated { report?(name) }
    } else {
      Task { @MainActor in report?(name) }
    }
  }
}

func seconds(_ duration: Duration) -> String {
  let (seconds, attoseconds) = duration.components
  let value = Double(seconds) + Double(attoseconds) / 1e18
  return "\(value)s"
}

extension String {
  func indented(by count: Int) -> String {
    let indent = String(repeating: " ", count: count)
    return split(separator: "\n", omittingEmptySubsequences: false).map { indent + $0 }.joined(separator: "\n")
  }
}

extension TestStore {
  /// Before a send or an assertion: actions received and not asserted yet fail an exhaustive
  /// store (`Must handle N received actions before …`) or are reported skipped; the state
  /// asserted last moves past them.
  func requireReceivedHandled(before what: String, at location: SourceLocation) {
    guard !received.isEmpty else { return }
    if exhaustivity == .on {
      fail(
        "Must handle \(received.count) received action\(received.count == 1 ? "" : "s") before \(what): …\n\n"
          + "Unhandled actions:\n" + received.map { "  " + describeAction($0.action) }.joined(separator: "\n"),
        at: location)
    } else {
      reportSkipped(received.map(\.action), at: location)
    }
    if let last = received.last { state = last.state }
    received.removeAll()
  }
}
