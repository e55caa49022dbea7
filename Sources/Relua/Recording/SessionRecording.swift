import Composable
import Foundation

/// A REPL session being recorded as a test (`:record FILE_test.lua` … `:stop`).
///
/// It writes down everything the replay needs to happen exactly as it did live:
/// - every action the store reduced, in order, with the whole state it led to: the ones sent from
///   the prompt (`store:send`) and the ones effects delivered (`store:receive`), as the engine tells
///   them apart (`Store.onReduce`);
/// - when each happened, on a monotonic clock, in milliseconds: the test runs on a test clock and
///   advances it by the time between steps, so debounces, timers and cancellations fire in the
///   replay where they fired live;
/// - what the live dependencies produced: uuids, random numbers, and each call to a dependency the
///   host program registered (`deps.github.search`, a program's own): its arguments, its answer
///   and how long it took, replayed by stubs that check the calls (`relua.recordedCalls`).
///
/// Times: an effect's step in the replay happens at its ideal time (a sleep of exactly 0.3 s), live
/// a little later (the machine's latency), so every recorded time is at or after the replay's;
/// times are rounded to the millisecond (all from one origin, so rounding never accumulates), and
/// an answer's latency is rounded down, so a replayed answer never comes after the step that
/// received it. Left: a timer that sleeps many times drifts live (about a millisecond per sleep);
/// a prompt action typed within that drift of a tick may replay on the other side of it.
@MainActor
package final class SessionRecording {
  package struct Step {
    var action: FeatureAction
    var received: Bool
    var state: Value
    var time: Duration
    /// Delivered by an effect that started before the recording (not in the test): the replay
    /// sends it (what it does to the state is the same; no effect of the test could deliver it).
    var fromEarlierEffect = false
  }

  /// Effects cancelled from outside the reducers (`:cancel`, the inspector's Cancel, Ctrl-C),
  /// which the replay must cancel at the same point (`Store.onCancelFromHost`).
  struct Cancel {
    /// The store's id of the effect; nil for every effect (`:cancel all`).
    var effect: Int?
    var time: Duration
  }

  /// A call the session made to a dependency the host registered (`deps.github.search{…}`).
  package struct Call {
    enum Answer {
      case pending
      case values([Value])
      /// Cancelled (a newer query, a dismissed screen) before it was answered.
      case cancelled
    }
    var dependency: String
    var member: String
    var arguments: [Value]
    var time: Duration
    var answer: Answer = .pending
    var latency: Duration = .zero
    /// Whether it was awaited (the replay waits its latency) or answered at once.
    var awaited: Bool

    var shown: String {
      "deps.\(dependency)\(member.isEmpty ? "" : "." + member)(\(arguments.map { $0.luaLiteral() }.joined(separator: ", ")))"
    }
  }

  enum Event {
    case step(Step)
    /// The call made at that time (an index into `calls`).
    case call(Int)
    case cancel(Cancel)
  }

  package let path: String
  /// `:record FILE --screens`: the test asserts the screen (`assert.screen(store)`, a snapshot
  /// written on its first run) when it starts and after each step.
  package var assertsScreens = false
  let featureFile: String
  let initialState: Value
  private let start = ContinuousClock.now
  private(set) var events: [Event] = []
  package private(set) var calls: [Call] = []
  let uuids = LockedValue<[String]>([])
  /// The store's next stack element id when recording began (the test store starts there).
  private var firstStackID = 0
  let randoms = LockedValue<[Int]>([])
  /// The store's dependencies before the recorders were installed (put back by `uninstall`).
  private var savedDependencies: DependencyValues?
  private var stopTime: Duration?
  private var effectsInFlightAtStop = 0
  /// The id of the first effect started while recording (`Store.nextEffectID` at `install`):
  /// the test's effects are numbered from it (`store:cancelEffect(n)`), older ones are not in it.
  private(set) var firstEffectID = 0
  /// Where the send being reduced began in `events` (nil between sends), and whether its first
  /// action was delivered by an effect (`sendEnded` clears them).
  private var sendStart: Int?
  package private(set) var sendStartedReceived = false
  /// Why the recording ended early, if it did (an effect's action that failed: see `endAtFailure`).
  package private(set) var endedEarly: String?

  package init(path: String, featureFile: String, initialState: Value) {
    self.path = path
    self.featureFile = featureFile
    self.initialState = initialState
  }

  private var now: Duration { ContinuousClock.now - start }

  package var sentCount: Int { steps.filter { !$0.received }.count }
  package var receivedCount: Int { steps.filter(\.received).count }
  package var steps: [Step] {
    events.compactMap { if case .step(let step) = $0 { step } else { nil } }
  }

  // MARK: Recording

  /// Where the recording is now; `rollBack(to:)` forgets what came after (a send that failed).
  package var mark: Int { events.count }

  package func rollBack(to mark: Int) {
    if events.count > mark { events.removeLast(events.count - mark) }
  }

  package func reduced(_ action: FeatureAction, received: Bool, state: Value) {
    guard endedEarly == nil else { return }
    var step = Step(action: action, received: received, state: state, time: now)
    if sendStart == nil {
      sendStart = events.count
      sendStartedReceived = received
      // The first action of an effect's delivery: an effect older than the recording is not in
      // the test, so what it sent is sent there.
      if received, let effect = EffectDelivery.current, effect < firstEffectID { step.fromEarlierEffect = true }
    }
    events.append(.step(step))
  }

  /// A send ended (`Store.observeSends`): the next action reduced begins another.
  package func sendEnded() {
    sendStart = nil
    sendStartedReceived = false
  }

  /// The send being reduced failed and its state was restored (`Store.onRollBack`): its steps
  /// never happened. (A send from the prompt is also rolled back by its mark, see `perform`.)
  package func sendRolledBack() {
    if let sendStart { rollBack(to: sendStart) }
  }

  /// Ends the recording where an effect's action failed (its reducer threw, the state was
  /// restored): a test cannot replay a reducer's failure, and the effect that sent it would send
  /// it again in the replay. The test keeps what came before, advances the clock no further than
  /// its last event, and cancels the effects left (`skipInFlightEffects`), that one among them.
  package func endAtFailure(store: Store<Value, FeatureAction>) {
    guard endedEarly == nil else { return }
    var action = "?"
    if let sendStart, sendStart < events.count, case .step(let step) = events[sendStart] { action = step.action.name }
    sendRolledBack()
    endedEarly = "an effect's action (\(action)) failed in its reducer, which a test cannot replay"
    stopTime = events.last.map(time(of:)) ?? .zero
    effectsInFlightAtStop = max(1, store.effectsInFlight)
  }

  /// Effects cancelled from outside the reducers (`effect`: one, nil: all).
  package func cancelled(effect: Int?) {
    guard endedEarly == nil else { return }
    events.append(.cancel(Cancel(effect: effect, time: now)))
  }

  private func time(of event: Event) -> Duration {
    switch event {
    case .step(let step): step.time
    case .call(let index): calls[index].time
    case .cancel(let cancel): cancel.time
    }
  }

  func callMade(_ call: Call) -> Int? {
    guard endedEarly == nil else { return nil }
    var call = call
    call.time = now
    calls.append(call)
    events.append(.call(calls.count - 1))
    return calls.count - 1
  }

  func callAnswered(_ index: Int, _ values: [Value]?) {
    guard index < calls.count else { return }
    calls[index].latency = now - calls[index].time
    calls[index].answer = values.map { .values($0) } ?? .cancelled
  }

  /// Wraps the store's uuid and random dependencies and those the host registered so that what
  /// they produce is written down. (The REPL tells it of the store's reduced actions: `reduced`.)
  package func install(on store: Store<Value, FeatureAction>, host: ReluaHost) {
    registered = host.named.declarations.values.filter { $0.declaredAt == nil }
    var dependencies = store.dependencies
    let live = savedDependencies ?? dependencies
    savedDependencies = live
    firstStackID = live.stackElementID.peek
    firstEffectID = store.nextEffectID
    let uuids = self.uuids
    let randoms = self.randoms
    dependencies.uuid = UUIDGenerator {
      let uuid = live.uuid()
      uuids.withLock { $0.append(uuid.uuidString) }
      return uuid
    }
    dependencies.random = RandomNumber { range in
      let value = live.random(in: range)
      randoms.withLock { $0.append(value) }
      return value
    }
    for declaration in registered { record(declaration, in: &dependencies, live: live) }
    store.dependencies = dependencies
  }

  /// The dependencies the host registered (their calls are recorded; a script's own run again).
  private var registered: [NamedDependencies.Declaration] = []

  /// Gives the store a copy of `declaration`'s Swift implementation that writes down each call
  /// of a function or async member. (A store given Lua values for it runs those again.)
  private func record(_ declaration: NamedDependencies.Declaration, in dependencies: inout DependencyValues, live: DependencyValues) {
    let name = declaration.name
    var implementation = declaration.live
    if let given = live[named: name] as? NamedDependencies.Given {
      guard let givenImplementation = given.implementation else { return record(name, implementation, in: &dependencies) }
      implementation = givenImplementation
    }
    record(name, implementation, in: &dependencies)
  }

  private func record(_ name: String, _ implementation: NamedDependencies.Implementation, in dependencies: inout DependencyValues) {
    guard case .swift(let shape) = implementation else { return }
    func wrap(_ member: String, _ found: ReluaDependency.Member) -> ReluaDependency.Member {
      switch found {
      case .function(let body):
        return .function { [weak self] arguments in
          let index = self?.callMade(Call(dependency: name, member: member, arguments: arguments, time: .zero, awaited: false)) ?? nil
          let answer = try Self.answer { try body(arguments) }
          if let index { self?.callAnswered(index, answer) }
          return answer
        }
      case .async(let body):
        return .async { [weak self] arguments in
          let index = self?.callMade(Call(dependency: name, member: member, arguments: arguments, time: .zero, awaited: true)) ?? nil
          let answer = try await Self.answer { try await body(arguments) }
          if let index { self?.callAnswered(index, Task.isCancelled ? nil : answer) }
          return answer
        }
      case .stream, .value:
        return found
      }
    }
    switch shape {
    case .function(let member):
      dependencies.setReluaDependency(name, to: .function(wrap("", member)))
    case .members(let members):
      dependencies.setReluaDependency(name, to: .members(Dictionary(uniqueKeysWithValues: members.map { ($0.key, wrap($0.key, $0.value)) })))
    }
  }

  /// A member's answer as Lua sees it: its values, or `nil, err` for a failure (argument errors
  /// and cancellation are not answers).
  private static func answer(_ body: () throws -> [Value]) throws -> [Value] {
    do { return try body() } catch let error as ReluaDependency.ArgumentError { throw error } catch {
      return [.null, ReluaDependency.Failure.from(error).record]
    }
  }

  private static func answer(_ body: () async throws -> [Value]) async throws -> [Value] {
    do { return try await body() } catch let error as ReluaDependency.ArgumentError { throw error } catch is CancellationError {
      throw CancellationError()
    } catch {
      return [.null, ReluaDependency.Failure.from(error).record]
    }
  }

  /// Ends the recording: notes the time and the effects still running, puts the live dependencies back.
  /// Notes when the session stopped and what was still running (what `write` ends the test with).
  /// Noted again at each `:stop`: one whose write failed goes on recording.
  package func noteStop(of store: Store<Value, FeatureAction>) {
    guard endedEarly == nil else { return }
    stopTime = now
    effectsInFlightAtStop = store.effectsInFlight
  }

  package func uninstall(from store: Store<Value, FeatureAction>) {
    if stopTime == nil { noteStop(of: store) }
    if let savedDependencies { store.dependencies = savedDependencies }
  }

  // MARK: Writing

  /// `require` name of the feature script for a test written at `testPath`, as `relua test`
  /// finds modules (`LuaTestDiscovery.scriptRoots`): its path below the test's directory or below
  /// the `Scripts` directory found from there, dotted; nil when neither holds it.
  func moduleName(forTestAt testPath: String) -> String? {
    Self.moduleName(of: featureFile, forTestAt: testPath)
  }

  /// `moduleName(forTestAt:)`, or the reason a test at `testPath` cannot require `featureFile`.
  package static func module(of featureFile: String, forTestAt testPath: String) throws -> String {
    guard let module = moduleName(of: featureFile, forTestAt: testPath) else {
      throw ReluaError.usage(
        "cannot write \(testPath): its test could not require \(featureFile) (relua test finds modules beside the test and under Scripts/); record into the feature's directory or under Scripts/")
    }
    return module
  }

  static func moduleName(of featureFile: String, forTestAt testPath: String) -> String? {
    let feature = URL(fileURLWithPath: featureFile).standardizedFileURL.resolvingSymlinksInPath().path
    for root in LuaTestDiscovery.scriptRoots(for: testPath) {
      let prefix = URL(fileURLWithPath: root).standardizedFileURL.resolvingSymlinksInPath().path + "/"
      guard feature.hasPrefix(prefix), feature.hasSuffix(".lua") else { continue }
      return String(feature.dropFirst(prefix.count).dropLast(4)).replacingOccurrences(of: "/", with: ".")
    }
    return nil
  }

  /// Milliseconds, rounded (times) or rounded down (latencies).
  private static func milliseconds(_ duration: Duration, roundingDown: Bool = false) -> Int64 {
    let (seconds, attoseconds) = duration.components
    let fraction = Double(attoseconds) / 1e15
    return seconds * 1000 + Int64(roundingDown ? fraction.rounded(.down) : fraction.rounded())
  }

  /// `0.3`, `1.25`, `12`: seconds as the test writes them.
  private static func seconds(_ milliseconds: Int64) -> String {
    let whole = milliseconds / 1000
    let fraction = milliseconds % 1000
    guard fraction != 0 else { return String(whole) }
    var digits = String(fraction)
    digits = String(repeating: "0", count: 3 - digits.count) + digits
    while digits.hasSuffix("0") { digits.removeLast() }
    return "\(whole).\(digits)"
  }

  /// Writes the test to `path` (the `:record` file unless `:stop` names another).
  package func write(to path: String) throws {
    try ConsoleFile.write(text(forTestAt: path), to: path)
  }

  /// The test, as it would be written at `path` (which decides how it requires the feature).
  /// `exported`: made by an inspector's export rather than `:record` … `:stop` (its first line says so).
  package func text(forTestAt path: String, exported: Bool = false) throws -> String {
    let module = try Self.module(of: featureFile, forTestAt: path)
    var deps: [String] = ["clock = \"test\""]
    let uuidList = uuids.withLock { $0 }
    let randomList = randoms.withLock { $0 }
    if !uuidList.isEmpty { deps.append("uuid = { " + uuidList.map { quoteLuaString($0) }.joined(separator: ", ") + " }") }
    if !randomList.isEmpty { deps.append("random = { " + randomList.map(String.init).joined(separator: ", ") + " }") }
    for name in Set(calls.map(\.dependency)).sorted() { deps.append("\(name) = recorded.\(name)") }
    if firstStackID > 0 { deps.append("stackElementID = \(firstStackID)") }
    let steps = self.steps
    let firstLine = exported
      ? "-- Exported from the inspector of \(featureFile) on \(Self.today()):"
      : "-- Recorded with `relua repl \(featureFile)` (:record … :stop) on \(Self.today()):"
    var lines = [
      firstLine,
      "-- \(steps.count) action(s), \(sentCount) sent at the prompt and \(receivedCount) received from effects"
        + (calls.isEmpty ? "" : ", \(calls.count) dependency call(s)") + ".",
      "-- Each step sends (or receives) what the session did and expects the whole state it led to;",
      "-- the test clock advances by the time that passed before it, so effects run when they did.",
      "local relua = require \"relua\"",
      "local Feature = require \"\(module)\"",
      "",
      "local function becomes(json)",
      "  local expected = relua.fromJSON(json)",
      "  return function(state)",
      "    for key in pairs(state) do state[key] = nil end",
      "    for key, value in pairs(expected) do state[key] = value end",
      "  end",
      "end",
      "",
    ]
    if !calls.isEmpty { lines += try recordedCallLines() }
    let title = steps.filter { !$0.received }.map(\.action.name).prefix(3).joined(separator: ", ")
    lines += [
      "test(\(quoteLuaString("recorded session: " + title)), function()",
      "  local store = relua.TestStore(Feature, {",
      "    json = \(Self.longString(try initialState.json())),",
      "    deps = { \(deps.joined(separator: ", ")) },",
      "  })",
    ]
    if assertsScreens { lines.append("  assert.screen(store)") }
    // Times from the first event (the wait before it does not matter).
    let origin: Int64 = events.first.map { Self.milliseconds(time(of: $0)) } ?? 0
    var clock: Int64 = 0
    var previousJSON = try initialState.json()
    func advance(to time: Duration, _ comment: String? = nil) {
      let target = Self.milliseconds(time) - origin
      guard target > clock else { return }
      lines.append("  store:advance(\(Self.seconds(target - clock)))" + (comment.map { "  -- " + $0 } ?? ""))
      clock = target
    }
    for event in events {
      switch event {
      case .step(let step):
        advance(to: step.time)
        let received = step.received && !step.fromEarlierEffect
        let verb = received ? "receive" : "send"
        var arguments = [quoteLuaString(step.action.name)]
        if let payload = received ? Self.receivedPayload(step.action.payload) : (step.action.payload.isNull ? nil : step.action.payload.luaLiteral()) {
          arguments.append(payload)
        }
        // An action that changed nothing the test can state is asserted without a change (a
        // TestStore fails one given an update that expected a change: TCA's "Expected state to
        // change"). Compared as the test will see it, its JSON: a change of an empty table's kind
        // alone (an empty record for an empty array, after a jump) is a change of the live `Value`
        // that the replay, whose states come from that JSON, never makes.
        let json = try step.state.json()
        if json != previousJSON { arguments.append("becomes(\(Self.longString(json)))") }
        previousJSON = json
        lines.append("  store:\(verb)(\(arguments.joined(separator: ", ")))"
          + (step.fromEarlierEffect ? "  -- delivered by an effect started before the recording" : ""))
        if assertsScreens { lines.append("  assert.screen(store)") }
      case .call(let index):
        // The replay's call is made by now (an effect woke up): move the clock here first so that
        // the stub's answer, due after its latency, is scheduled before the clock passes it.
        advance(to: calls[index].time, calls[index].shown)
      case .cancel(let cancel):
        // Not advanced to its time: what effects delivered before it are steps already (each
        // advanced to), and a sleep due between the last step and the cancel did not wake live
        // (it would have been a step), so the replay must not wake it either.
        lines.append(cancelLine(cancel))
      }
    }
    if !events.isEmpty, let stopTime { advance(to: stopTime, ":stop") }
    if let endedEarly {
      lines.append("  store:skipInFlightEffects()  -- the recording ended here: \(endedEarly)")
    } else if effectsInFlightAtStop > 0 {
      lines.append("  store:skipInFlightEffects()  -- \(effectsInFlightAtStop) effect(s) were still running at :stop")
    }
    lines += ["end)", ""]
    return lines.joined(separator: "\n")
  }

  /// A cancellation from outside the reducers as the test writes it: every effect
  /// (`skipInFlightEffects`, TCA's way to cancel what is in flight), or one, by its number among
  /// the effects the test store started (`store:cancelEffect(n)`: the store numbers effects in the
  /// order they start, live and in the replay alike). One started before the recording is not in
  /// the test: a comment says so.
  private func cancelLine(_ cancel: Cancel) -> String {
    guard let effect = cancel.effect else { return "  store:skipInFlightEffects()  -- :cancel all" }
    guard effect >= firstEffectID else {
      return "  -- :cancel #\(effect): an effect started before the recording (not in this test)"
    }
    return "  store:cancelEffect(\(effect - firstEffectID + 1))  -- :cancel #\(effect)"
  }

  /// A received action's payload when it is a plain value (matched exactly); a table payload (a
  /// search response) is matched by the action's name, and what it did is in the state expected.
  private static func receivedPayload(_ payload: Value) -> String? {
    switch payload {
    case .string, .integer, .boolean: return payload.luaLiteral()
    default: return nil
    }
  }

  /// `local recorded = relua.recordedCalls{ … }`: the session's calls in order, each answered as
  /// it was live (see `relua.recordedCalls`).
  private func recordedCallLines() throws -> [String] {
    var lines = [
      "-- The calls the session made to the host's dependencies, in order: the arguments, then the",
      "-- answer and its latency in seconds, or `cancelled` when it was cancelled (or unanswered at :stop).",
      "local recorded = relua.recordedCalls {",
    ]
    for call in calls {
      var fields = [quoteLuaString(call.dependency), quoteLuaString(call.member), "arguments = " + (try Self.list(call.arguments))]
      switch call.answer {
      case .values(let values):
        if call.awaited { fields.append("seconds = " + Self.seconds(Self.milliseconds(call.latency, roundingDown: true))) }
        fields.append("results = " + (try Self.list(values, json: true)))
      case .cancelled, .pending:
        fields.append("cancelled = true")
      }
      lines.append("  { " + fields.joined(separator: ", ") + " },")
    }
    lines += ["}", ""]
    return lines
  }

  /// `{ n = 2, nil, { … } }`: values in a Lua list that keeps its nils (big tables as JSON).
  private static func list(_ values: [Value], json: Bool = false) throws -> String {
    let items = try values.map { value -> String in
      if json, value.isContainer { return "relua.fromJSON" + longString(try value.json()) }
      return value.luaLiteral()
    }
    return "{ n = \(values.count)" + items.map { ", " + $0 }.joined() + " }"
  }

  private static func longString(_ text: String) -> String {
    var level = 1
    while text.contains("]" + String(repeating: "=", count: level) + "]") { level += 1 }
    let equals = String(repeating: "=", count: level)
    return "[\(equals)[\(text)]\(equals)]"
  }

  private static func today() -> String {
    let formatter = DateFormatter()
    formatter.dateFormat = "yyyy-MM-dd"
    return formatter.string(from: Date())
  }
}
