import Composable
import Foundation
import Lua
import Relua

/// Feature mode of the REPL: a store of the feature the script returned, with live dependencies.
/// It shows the top screen (its `view`, under a breadcrumb like `Game › ResultList`), and after
/// each action the state diff and the new screen. Effects run in the background with the real
/// clock; what they change is shown as it arrives. Diffs and states are cut as every printout is
/// (`Elision.standard`: a million-row change prints a screenful); `:state [PATH] --all` shows all.
///
/// Beyond TCA: `:undo`/`:redo` (time travel over state snapshots), `:reload` (re-read the scripts,
/// keep the state), `:save`/`:load` (state files; loading one opens the screens it implies), and
/// `:record`/`:stop` (the session written as an exhaustive `*_test.lua`).
@MainActor
final class FeatureConsole {
  unowned let session: ConsoleSession
  let file: String
  private(set) var definition: FeatureDefinition
  private(set) var store: LuaStoreObject
  private(set) var storeValue: LuaValue
  private var observation: ObservationToken?
  private(set) var isRunningCommand = false
  /// The screens' task actions sent and the effects they started (`FeatureConsole+ScreenTasks`).
  let screenTasks = ScreenTasks()
  var isRunningScreenTasks = false
  /// The commands the view on top showed when last drawn (`renderTopView`): `:help` and Tab.
  var shownViewCommands: [String] = []
  var shownState: Value
  // Time travel.
  var past: [Value] = []
  var future: [Value] = []
  // Recording.
  private(set) var recording: SessionRecording?
  /// What the store does, told to the session's event observer (the inspector), if it has one.
  private(set) var eventTap: ConsoleEventTap?
  /// With an inspector: what the page's export writes.
  private(set) var export: SessionExport?
  /// The REPL commands whose clash with a screen's action was explained (`+CommandClashes`).
  var explainedClashes: Set<String> = []
  /// The actions reduced since the screen was last shown, and the effect's action shown over and
  /// over in place (`+EffectRuns`).
  var reducedSinceShown = ReducedSinceShown()
  var effectRun: EffectRun?

  static let helpLines = [
    "Feature mode (the global `store` is the app's store):",
    "  :ACTION [PAYLOAD]  send an action of the screen on top (or a full path): :increment, :setCount 5",
    "  :send ACTION [PAYLOAD]  the same, explicitly; PAYLOAD is a Lua expression",
    "  :state [PATH]      the state (or part of it: :state counter.count), cut to a screenful;",
    "                     :state [PATH] --all prints all of it",
    "  :screens           what is on screen, from the root to the top",
    "  :back              dismiss or pop the screen on top",
    "  :cancel [N | all]  list the running effects, or cancel one (or every one)",
    "  :undo / :redo      step back and forth through the states of this session",
    "  :reload            re-read the scripts, keep the state (a script error keeps the old code)",
    "  :save FILE         write the state as JSON;  :load FILE  open a saved state",
    "  :record FILE       record the session as a test (FILE ends in _test.lua);  :stop [FILE]  write it",
    "  :record FILE --screens   the same, asserting the screen after each step (snapshots in __snapshots__)",
    "  ::COMMAND          always the REPL's command: a screen's action named like one (save, cancel…)",
    "                     is what :save sends there (:save FILE stays the command when the action takes no payload)",
  ]

  init(session: ConsoleSession, file: String, featureValue: LuaValue) throws {
    self.session = session
    self.file = file
    let host = session.host
    definition = try host.feature(featureValue, what: "relua repl")
    store = try LuaStoreObject(host: host, feature: definition, dependencies: DependencyValues.fallback)
    storeValue = .userdata(try host.lua.userdata(store))
    shownState = store.store.state
    observe()
    hookReductions()
    if let observer = session.eventObserver {
      let tap = ConsoleEventTap(live: { [unowned self] in self.inspectionLive() }, observer: observer)
      eventTap = tap
      tap.attach(to: store.store, rolledBack: { [unowned self] in self.sendRolledBack() })
      export = SessionExport(featureFile: file, store: store.store, host: host)
      tap.opened(feature: definition.name, file: file, state: currentState)
      hookReductions()
    }
  }

  var currentState: Value { store.store.state }

  var breadcrumb: String {
    store.screens.map(\.breadcrumbName).joined(separator: " › ")
  }

  /// The breadcrumb for the prompt: `Game/ResultList`.
  var promptPath: String {
    store.screens.map(\.breadcrumbName).joined(separator: "/")
  }

  private func observe() {
    let output = session.output
    store.store.onWarning { warning in output.writeError(output.styled("warning: " + warning.message, .yellow)) }
    observation = store.store.observe({ $0 }) { [weak self] state in
      guard let self, !self.isRunningCommand else { return }
      // A change that no command made: an effect's action arriving in the background.
      self.showBackgroundChange()
    }
  }

  func stop() {
    observation?.cancel()
    screenTasks.cancelAll()
    store.store.cancelAllEffects()
  }

  /// The store's one hook on reduced actions, for all that want them: a recording (written as
  /// a test), the event tap (the inspector) and its export's recording. None when none is there.
  ///
  /// The recordings are also told when a send ends or fails (rolled back: through the event
  /// tap's hook when there is one) and when effects are cancelled from outside the reducers
  /// (`:cancel`, the inspector's Cancel, Ctrl-C), which they write down for the replay.
  func hookReductions() {
    let store = store.store
    guard recording != nil || eventTap != nil else {
      store.onReduce = { [weak self] action, received in self?.reducedSinceShown.note(action, received: received) }
      store.onCancelFromHost = nil
      store.onRollBack = nil
      sends?.cancel()
      sends = nil
      return
    }
    store.onReduce = { [weak self, weak store] action, received in
      guard let self, let store else { return }
      self.reducedSinceShown.note(action, received: received)
      let state = store.state
      self.recording?.reduced(action, received: received, state: state)
      self.export?.recording.reduced(action, received: received, state: state)
      self.eventTap?.reduced(action, received: received, state: state)
    }
    store.onCancelFromHost = { [weak self] effect in
      self?.recording?.cancelled(effect: effect)
      self?.export?.recording.cancelled(effect: effect)
    }
    // (With an event tap, the store's one rollback hook is the tap's, which calls `sendRolledBack`.)
    if eventTap == nil { store.onRollBack = { [weak self] in self?.sendRolledBack() } }
    sends?.cancel()
    sends = store.observeSends { [weak self] _ in
      self?.recording?.sendEnded()
      self?.export?.recording.sendEnded()
    }
  }

  private var sends: ObservationToken?

  /// A send failed and its state was restored. Its steps are forgotten; but an effect's action
  /// that failed cannot be replayed (a test cannot expect a reducer's failure, and the effect
  /// would send it again): the `:record`ing ends there and is written, the export starts over.
  func sendRolledBack() {
    if let recording {
      if recording.sendStartedReceived {
        recording.endAtFailure(store: store.store)
        finishRecording(recording, why: recording.endedEarly ?? "an effect's action failed")
      } else {
        recording.sendRolledBack()
      }
    }
    if let export {
      if export.recording.sendStartedReceived {
        export.restart(since: .failure, store: store.store)
        eventTap?.liveChanged()
      } else {
        export.recording.sendRolledBack()
      }
    }
  }

  // MARK: Showing

  /// Rows a diff shows of those added or removed together, before it sums up the rest (a page of
  /// search results: three rows and `… 7 more rows [id=…]`). Test failures show them all.
  static let rowsShown = 3

  /// `background`: the change came from an effect, not a command; Ctrl-C while it shows stops
  /// the running effects too, as at a prompt (the Ctrl-C was meant for what keeps changing it).
  /// `block`: the change an effect made, shown with the screen in one write, over the block
  /// before it when that one showed the same effect's action (`+EffectRuns`); returns where it
  /// stands on the terminal.
  @discardableResult
  func showScreen(background: Bool = false, block: EffectBlock? = nil) -> LineReader.BlockMark? {
    let output = session.output
    let screens = store.screens
    guard let top = screens.last else { return nil }
    reducedSinceShown = ReducedSinceShown()
    let header = output.styled("── " + breadcrumb + " ──", .cyan)
    if block == nil { output.write(header) }
    var screenText = ""
    var pressed = false
    do {
      // The view is the script's Lua: Ctrl-C stops it, here too (a change an effect made included).
      let text: String? = try InterruptSignal.armed(session.lua) { () throws -> String? in
        defer { pressed = InterruptSignal.takePress() }
        if let style = top.alertStyle {
          self.shownViewCommands = []
          return AlertText.render(top.state, style: style)
        }
        return try self.renderTopView(top)
      }
      screenText = text ?? top.state.luaLiteral(.multiLine.elided())
      if block == nil { output.write(screenText) }
    } catch {
      session.report(error)
    }
    var mark: LineReader.BlockMark?
    if let block {
      let text = [block.preface, header, screenText].filter { !$0.isEmpty }.joined(separator: "\n")
      if session.reader.isInteractive {
        mark = LineReader.writeBlock(text, replacing: block.replacing)
      } else {
        output.write(text)
      }
    }
    if background, pressed {
      let stopped = session.host.cancelRunningEffects()
      if stopped > 0 { output.writeError("stopped \(stopped) running effect(s)") }
      InterruptSignal.deliverToPrompt()  // and a fresh prompt, as a press at the prompt gives
    }
    shownState = store.store.state
    session.showPromptOfTopScreen()
    runScreenTasks()
    return mark
  }

  /// Prints the diff since `old` (like TCA's `_printChanges`) and the screen, if anything changed.
  func showChange(from old: Value, cause: String?) {
    let new = store.store.state
    guard let diff = ValueDiff.lines(from: old, to: new, rowsShown: Self.rowsShown) else { return }
    let output = session.output
    if let cause { output.write(output.styled("(\(cause))", .dim)) }
    output.write(output.diff(diff))
    if cause == nil {
      past.append(old)
      future.removeAll()
    }
    showScreen(background: cause == "effect")
  }

  // MARK: Commands

  /// Runs `body` as a command: what it changes is shown as its own, not as an effect's, and
  /// Ctrl-C stops the Lua it runs (a reducer that never returns fails with "interrupted!", its
  /// send is rolled back, and the prompt comes back).
  func asCommand<R>(_ body: () -> R) -> R {
    isRunningCommand = true
    InterruptSignal.arm(session.lua)
    defer {
      InterruptSignal.disarm()
      isRunningCommand = false
    }
    return body()
  }

  /// `:name argument`; `explicit`: written `::name`, always the REPL's command, never an action.
  func command(_ name: String, _ argument: String, explicit: Bool = false) async {
    asCommand {
      if explicit {
        guard Self.commandUsages[name] != nil else {
          return session.output.writeError("unknown command '::\(name)' — ::COMMAND is one of the REPL's commands (:help lists them); an action is :\(name)")
        }
      } else if sendsScreenAction(name, argument) {
        return send(name, payloadSource: argument.isEmpty ? nil : argument)
      }
      runCommand(name, argument)
    }
  }

  private func runCommand(_ name: String, _ argument: String) {
    let output = session.output
    switch name {
    case "send":
      let parts = argument.split(separator: " ", maxSplits: 1).map(String.init)
      guard let action = parts.first else { return output.writeError("usage: :send ACTION [PAYLOAD]") }
      send(action, payloadSource: parts.count > 1 ? parts[1] : nil)
    case "state":
      showState(argument)
    case "cancel":
      cancelEffects(argument.trimmingCharacters(in: .whitespaces))
    case "screens":
      for (depth, screen) in store.screens.enumerated() {
        output.write(String(repeating: "  ", count: depth) + screen.feature.name + (screen.place.isEmpty ? "" : "  (\(screen.place))"))
      }
    case "back":
      guard let top = store.screens.last, let close = top.closeAction else {
        return output.writeError("already on the root screen")
      }
      perform { try self.store.send(close, payload: top.popID ?? .null) }
    case "undo" where recording != nil, "redo" where recording != nil, "load" where recording != nil:
      output.writeError(":\(name) changes the state without an action, which a recorded test cannot replay; :stop the recording first")
    case "undo":
      guard let previous = past.popLast() else { return output.writeError("nothing to undo") }
      future.append(currentState)
      restore(previous, reason: .undo)
    case "redo":
      guard let next = future.popLast() else { return output.writeError("nothing to redo") }
      past.append(currentState)
      restore(next, reason: .redo)
    case "reload" where recording != nil:
      output.writeError(":reload runs other code, which a recorded test of the code it started with cannot replay; :stop the recording first")
    case "reload":
      reload()
    case "save":
      save(to: argument)
    case "load":
      load(from: argument)
    case "record":
      startRecording(argument)
    case "stop":
      stopRecording(argument)
    default:
      send(name, payloadSource: argument.isEmpty ? nil : argument)
    }
  }

  /// `:state [PATH] [--all]`: the state or the part at PATH, cut to a screenful unless `--all`.
  private func showState(_ argument: String) {
    // (`--all` first or last: a path may hold spaces, in a quoted key.)
    var path = argument.trimmingCharacters(in: .whitespaces)
    var all = true
    if path == "--all" {
      path = ""
    } else if path.hasPrefix("--all ") {
      path.removeFirst(6)
    } else if path.hasSuffix(" --all") {
      path.removeLast(6)
    } else {
      all = false
    }
    do {
      let format = all ? LuaLiteralFormat.multiLine : .multiLine.elided()
      let path = path.trimmingCharacters(in: .whitespaces)
      session.output.write(try currentState.at(path: path).luaLiteral(format))
      // Shared fields, marked with their keys (under the path shown).
      let shown = path.isEmpty ? "state" : "state." + path
      let shared = store.sharedPlaces.filter { $0.place == shown || $0.place.hasPrefix(shown + ".") || $0.place.hasPrefix(shown + "[") }
      for (place, key) in shared {
        session.output.write(session.output.styled("shared: \(place) ← \(key)", .dim))
      }
    } catch {
      session.report(error)
    }
  }

  /// `:cancel` lists the running effects; `:cancel N` cancels effect N, `:cancel all` every one.
  private func cancelEffects(_ argument: String) {
    let output = session.output
    let running = store.store.runningEffects
    func describe(_ effect: RunningEffect) -> String {
      return "#\(effect.id)  \(effect.kindDescription)" + (effect.cancelIDs.isEmpty ? "" : ", cancellable as " + effect.cancelIDs.joined(separator: ", "))
    }
    switch argument {
    case "":
      guard !running.isEmpty else { return output.write(output.styled("(no effect is running)", .dim)) }
      output.write((running.map(describe) + [":cancel N stops one, :cancel all every one"]).joined(separator: "\n"))
    case "all":
      store.store.cancelAllEffects()
      output.write(output.styled(running.isEmpty ? "(no effect is running)" : "cancelled \(running.count) effect(s)", .dim))
    default:
      guard let id = Int(argument.hasPrefix("#") ? String(argument.dropFirst()) : argument) else {
        return output.writeError("usage: :cancel [N | all] (:cancel lists the running effects)")
      }
      guard let effect = running.first(where: { $0.id == id }), store.store.cancelEffect(id) else {
        return output.writeError("no effect #\(id) is running (:cancel lists them)")
      }
      output.write(output.styled("cancelled " + describe(effect), .dim))
    }
  }

  /// Sends `name` relative to the screen on top, else as a path from the root.
  func send(_ name: String, payloadSource: String?) {
    let payload: Value
    do {
      payload = try payloadSource.map(evaluatePayload) ?? .null
    } catch {
      return session.report(error)
    }
    // The screen's own action, else one of its scoped children's (the Game screen shows the
    // Counter's buttons), else a full path from the root.
    let top = store.screens.last
    let prefix = top?.actionPrefix ?? ""
    var candidates = [prefix + name]
    for child in top?.feature.children ?? [] where child.actionsFollowKey {
      candidates.append(prefix + child.key + "." + name)
    }
    candidates.append(name)
    let action = candidates.first { (try? store.resolver.steps($0)) != nil } ?? prefix + name
    if let suggestion = candidates.lazy.compactMap(elementsByID).first {
      // `:rows[1].toggle`: actions name elements by id; say which id the n-th element has.
      return session.report(ReluaError.badAction(errorText(of: action) + "\n(the element at that position: :\(suggestion))"))
    }
    // `:add milk`: a payload is a Lua expression, and a bare word is a variable (nil when there is
    // no such global). Not taken as text: `:setCount n` sends the global n, as `store:send` would;
    // the error says how to write the text instead.
    let unsetName = payload.isNull ? payloadSource.flatMap(Self.luaName) : nil
    if let missing = missingElement(in: action) { return session.output.writeError(session.output.styled(missing, .red)) }
    // Not the top screen's (sent from the root, or nowhere): a screen beneath may have it.
    let fromTop = store.screens.count == 1 || candidates.dropLast().contains { $0 == action && (try? store.resolver.steps($0)) != nil }
    perform {
      do {
        try self.store.send(action, payload: payload)
      } catch ReluaError.badAction(let message) where unsetName != nil && message.hasSuffix("got nil") {
        let name = unsetName!
        throw ReluaError.badAction(
          message + " — \(name) is a Lua name (a variable, nil here); write \"\(name)\" to send the text \(name)")
      } catch ReluaError.badAction(let message) where !fromTop && self.beneathHint(for: name) != nil {
        throw ReluaError.badAction(message + "\n" + self.beneathHint(for: name)!)
      }
    }
    noteScreenChangedFromBeneath(top: top, action: action)
  }

  /// `source` when it is one Lua name (`milk`), not a keyword; nil otherwise.
  private static func luaName(_ source: String) -> String? {
    let word = source.trimmingCharacters(in: .whitespaces)
    guard let first = word.unicodeScalars.first, first == "_" || (first.isASCII && first.properties.isAlphabetic),
      word.unicodeScalars.allSatisfy({ $0 == "_" || ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) }),
      !["nil", "true", "false", "not", "function"].contains(word)
    else { return nil }
    return word
  }

  private func errorText(of action: String) -> String {
    do {
      _ = try ActionResolver.parse(action)
      return ""
    } catch {
      return error.description
    }
  }

  /// `path` (an action from the root) with each `[n]` replaced by `[id=…]` of the n-th element of
  /// the collection at that place in the state; nil when it has no `[n]`, or a place is not there.
  private func elementsByID(_ path: String) -> String? {
    guard let tokens = try? ActionResolver.tokens(path, kind: "action"),
      tokens.contains(where: { if case .bracket(_, byID: false) = $0 { true } else { false } })
    else { return nil }
    var current = currentState
    var text = ""
    for token in tokens {
      switch token {
      case .name(let name):
        text += (text.isEmpty ? "" : ".") + name
        current = current[key: name]
      case .bracket(let id, byID: true):
        text += "[id=" + id.luaLiteral() + "]"
        current = current[id: id]
      case .bracket(.integer(let position), byID: false):
        guard position >= 1 else { return nil }
        let element = current[Int(clamping: position) - 1]
        guard !element.isNull, current.identifiedValue != nil else { return nil }
        let id = IdentifiedValues.id(of: element)
        text += "[id=" + id.luaLiteral() + "]"
        current = element
      case .bracket:
        return nil
      }
    }
    return text
  }

  private func evaluatePayload(_ source: String) throws -> Value {
    let chunk = try session.lua.load("return " + source, name: "=payload")
    guard let value = try session.lua.call(chunk).first else { return .null }
    return try session.host.value(from: value)
  }

  /// Runs a send from the prompt (or a page's). A recording notes each action the store reduces
  /// (this one, and what it leads to) through its hook; a send that fails is rolled back, so it is
  /// forgotten there too. The error, reported, is returned (for a page to show).
  @discardableResult
  func perform(_ body: () throws -> Void) -> (any Error)? {
    let before = currentState
    let effectsBefore = store.store.effectsInFlight
    let mark = recording?.mark
    let exportMark = export?.recording.mark
    do {
      try body()
      if before == currentState {
        // Say so: a command that did nothing visible (`:remove {}`, a guess already there).
        let started = store.store.effectsInFlight - effectsBefore
        let output = session.output
        output.write(output.styled(started > 0 ? "(no change yet: \(started) effect(s) started)" : "(no change)", .dim))
        return nil
      }
      showChange(from: before, cause: nil)
      return nil
    } catch {
      if let mark { recording?.rollBack(to: mark) }
      if let exportMark { export?.recording.rollBack(to: exportMark) }
      session.report(error)
      return error
    }
  }

  /// Puts back `state` (`:undo`, `:redo`, `:load`; `jumpedTo`: an inspector's jump to the state
  /// after that entry of its log), tells the inspector, and shows the change.
  func restore(_ state: Value, reason: ConsoleEvent.Reason, jumpedTo entry: Int? = nil) {
    let before = currentState
    store.restore(state)
    export?.restart(since: reason, store: store.store)
    if let entry { eventTap?.jumped(to: entry, state: currentState) } else { eventTap?.replaced(reason, state: currentState) }
    if let diff = ValueDiff.lines(from: before, to: state, rowsShown: Self.rowsShown) { session.output.write(session.output.diff(diff)) }
    showScreen()
  }

  // MARK: Reload, save, load

  private func reload() {
    do {
      try session.forgetScriptModules()
      let chunk = try session.lua.load(file: file)
      guard let value = try session.lua.call(chunk).first else { throw ReluaError.usage("\(file) returned nothing") }
      let newDefinition = try session.host.feature(value, what: "relua repl :reload")
      let state = currentState
      stop()
      eventTap?.detach(from: store.store)
      export?.close(store: store.store)
      var dependencies = store.store.dependencies
      dependencies.context = .live
      store = try LuaStoreObject(host: session.host, feature: newDefinition, state: state, dependencies: dependencies)
      storeValue = .userdata(try session.lua.userdata(store))
      try session.lua.setGlobal("store", storeValue)
      definition = newDefinition
      observe()
      // What the export recorded ran the old code: it starts over with the new.
      export?.restart(since: .reload, store: store.store)
      if let eventTap {
        eventTap.attach(to: store.store, rolledBack: { [unowned self] in self.sendRolledBack() })
        eventTap.replaced(.reload, state: currentState)
      }
      hookReductions()
      session.output.write(session.output.styled("reloaded \(file); the state is kept", .dim))
      showScreen()
    } catch {
      session.report(error)
      session.output.writeError("the old code keeps running")
    }
  }

  private func save(to path: String) {
    guard !path.isEmpty else { return session.output.writeError("usage: :save FILE") }
    do {
      try ConsoleFile.write(currentState.json(pretty: true) + "\n", to: path)
      session.output.write(session.output.styled("saved to \(path)", .dim))
    } catch {
      session.report(error)
    }
  }

  private func load(from path: String) {
    guard !path.isEmpty else { return session.output.writeError("usage: :load FILE") }
    do {
      let text = try ConsoleFile.read(path)
      let loaded: Value
      do {
        loaded = try Value(json: text, hint: currentState)
        try FeatureStateCheck.check(loaded, against: definition)
        try FeatureStateCheck.checkKinds(loaded, like: currentState)
      } catch let error as ValueError {
        return session.output.writeError("cannot load \(path): \(error); the state is unchanged")
      } catch let error as ReluaError {
        return session.output.writeError("cannot load \(path): \(error.fullDescription); the state is unchanged")
      }
      let state = FeatureStateShape.conform(loaded, to: definition)
      past.append(currentState)
      future.removeAll()
      restore(state, reason: .load)
    } catch {
      session.report(error)
    }
  }

  // MARK: Recording

  /// Whether a recorded test can be written at `path`, as `:record` checks it up front and
  /// `:stop OTHER` (and the write itself) again: a name ending in `_test.lua`, a file relua can
  /// write, in a place from which the test can require the feature as `relua test` finds
  /// modules. Throws the reason.
  func checkTestPlace(_ path: String) throws {
    guard path.hasSuffix("_test.lua") else { throw ConsoleFile.Failure(description: "cannot write \(path): a recorded test's name ends in _test.lua") }
    try ConsoleFile.checkWritable(path)
    // (The recording's own rule: `SessionRecording.moduleName`.)
    _ = try SessionRecording.module(of: file, forTestAt: path)
  }

  private func startRecording(_ argument: String) {
    // `:record FILE --screens`: the test asserts the screen after each step (`assert.screen`).
    let screens = argument.hasSuffix(" --screens")
    let path = screens ? String(argument.dropLast(" --screens".count)).trimmingCharacters(in: .whitespaces) : argument
    guard !path.isEmpty else { return session.output.writeError("usage: :record FILE_test.lua") }
    if recording != nil { return session.output.writeError("already recording (:stop writes it)") }
    // Refused now, not after a whole session: the file must be one relua can write, where its
    // test finds the feature.
    do {
      try checkTestPlace(path)
    } catch {
      return session.output.writeError("\(ConsoleSession.message(of: error)); nothing is recorded")
    }
    let recording = SessionRecording(path: path, featureFile: file, initialState: currentState)
    recording.assertsScreens = screens
    recording.install(on: store.store, host: session.host)
    self.recording = recording
    hookReductions()
    eventTap?.liveChanged()
    session.output.write(session.output.styled("recording to \(path); :stop writes it", .dim))
    if store.store.effectsInFlight > 0 {
      session.output.writeError(session.output.styled("warning: \(store.store.effectsInFlight) effect(s) already running are not part of the recording; the actions they deliver are written as sent", .yellow))
    }
  }

  /// `:stop [OTHER_test.lua]`: writes the recording (to OTHER instead, when given) and ends it. A
  /// write that fails keeps the recording going, so that it can be written elsewhere.
  private func stopRecording(_ otherPath: String) {
    guard let recording else { return session.output.writeError("not recording (:record FILE_test.lua)") }
    let path = otherPath.isEmpty ? recording.path : otherPath
    recording.noteStop(of: store.store)
    do {
      try checkTestPlace(path)
      try recording.write(to: path)
    } catch {
      return session.output.writeError(
        "\(ConsoleSession.message(of: error)); the recording is kept (still recording): :stop OTHER_test.lua writes it elsewhere")
    }
    endRecording(recording)
    session.output.write(session.output.styled("wrote \(path) (\(summary(of: recording))); run it with relua test \(path)", .dim))
  }

  private func summary(of recording: SessionRecording) -> String {
    let calls = recording.calls.isEmpty ? "" : ", \(recording.calls.count) dependency call(s)"
    return "\(recording.steps.count) action(s): \(recording.sentCount) sent, \(recording.receivedCount) received\(calls)"
  }

  private func endRecording(_ recording: SessionRecording) {
    self.recording = nil
    recording.uninstall(from: store.store)
    hookReductions()
    eventTap?.liveChanged()
  }

  /// Ends `recording` without a `:stop` and keeps it (`why`: quitting, a signal, an effect's
  /// failed action): written to its place, or if that fails to a file beside the feature or in
  /// the current directory (`<Feature>_recovered_test.lua`), saying where. Never dropped silently.
  func finishRecording(_ recording: SessionRecording, why: String) {
    recording.noteStop(of: store.store)
    endRecording(recording)
    let output = session.output
    var failures: [String] = []
    let (beside, here) = recoveryPaths()
    // (The last resort, in the current directory, is the test as it runs beside the feature.)
    var places: [(path: String, runsAt: String)] = [(recording.path, recording.path), (beside, beside)]
    if here != beside { places.append((here, beside)) }
    for place in places {
      do {
        try ConsoleFile.write(recording.text(forTestAt: place.runsAt), to: place.path)
        let note = place.path == recording.path ? "" : " (\(failures.joined(separator: "; ")))"
        let run = place.path == place.runsAt ? "run it with relua test \(place.path)" : "move it to \(place.runsAt) to run it"
        output.writeError(output.styled(
          "\(why): the recording is written to \(place.path)\(note) (\(summary(of: recording))); \(run)", .yellow))
        return
      } catch {
        failures.append(ConsoleSession.message(of: error))
      }
    }
    output.writeError(output.styled("\(why): the recording could not be written: " + failures.joined(separator: "; "), .red))
  }

  /// Where an unsaved recording goes when its own place fails: beside the feature's script, then
  /// in the current directory (from which the test may not find the feature: the text says so).
  private func recoveryPaths() -> (beside: String, here: String) {
    let feature = URL(fileURLWithPath: file)
    let name = feature.deletingPathExtension().lastPathComponent + "_recovered_test.lua"
    let beside = feature.deletingLastPathComponent().appendingPathComponent(name).path
    let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(name).path
    return (beside, here)
  }

  /// Keeps a recording still running when the session ends (Ctrl-D, `:quit`, end of input, a
  /// signal): see `finishRecording`.
  func keepUnsavedRecording(because why: String) {
    guard let recording else { return }
    finishRecording(recording, why: why)
  }

  /// `:help`'s part for the screen on top: its actions with their payload types, and its
  /// children's prefixes (what `:ACTION` reaches from here).
  var actionHelpLines: [String] {
    guard let top = store.screens.last else { return [] }
    let place = top.place.isEmpty ? "" : " (at \(top.place))"
    if let style = top.alertStyle {
      return ["On top, the \(style.rawValue)\(place): each button's command is on the screen; :back dismisses it."]
    }
    var lines = ["Actions of \(top.feature.name), the screen on top\(place):"]
    // Its own, then those of the children it scopes (reached by name alone, as completion offers).
    var entries = top.feature.actions.sorted { $0.key < $1.key }.map { (name: $0.key, payload: $0.value, note: "") }
    entries += top.feature.bindable.sorted().map { (name: "binding.\($0)", payload: .any, note: "sets \($0)") }
    for child in top.feature.children {
      guard child.storage == .field, case .feature(let scoped)? = child.onlyDestination else { continue }
      entries += scoped.actions.sorted { $0.key < $1.key }.map { (name: $0.key, payload: $0.value, note: "\(child.key).\($0.key)") }
    }
    // (An action named like a REPL command is what :NAME sends here: say where the command went.)
    entries = entries.map { entry in
      guard let usage = Self.commandUsages[entry.name] else { return entry }
      return (entry.name, entry.payload, (entry.note.isEmpty ? "" : entry.note + "; ") + "the REPL's command here is " + usage)
    }
    if entries.isEmpty { lines.append("  (none of its own)") }
    let width = entries.map { $0.name.count + ($0.payload == .none ? 0 : $0.payload.description.count + 1) }.max() ?? 0
    for entry in entries {
      var text = ":" + entry.name + (entry.payload == .none ? "" : " " + entry.payload.description)
      if !entry.note.isEmpty { text += String(repeating: " ", count: max(1, width - text.count + 3)) + "(" + entry.note + ")" }
      lines.append("  " + text)
    }
    for child in top.feature.children {
      if child.storage == .field { continue }
      lines.append("  :\(child.key).…  \(child.summary)")
    }
    if top.closeAction != nil { lines.append("  :back  closes it") }
    return lines + viewCommandHelpLines
  }

  // MARK: Completion

  func completions() -> [String] {
    var names = [":send", ":state", ":screens", ":back", ":cancel", ":undo", ":redo", ":reload", ":save", ":load", ":record", ":stop"]
    names += Self.commandUsages.keys.map { "::" + $0 }
    if let top = store.screens.last {
      names += top.feature.actions.keys.map { ":" + $0 }
      names += Self.bindingCompletions(top)
      names += viewCommands.filter { !names.contains($0) }
      names += top.feature.children.map { ":" + $0.key + "." }
      for child in top.feature.children {
        if child.storage == .field, case .feature(let scoped)? = child.onlyDestination { names += scoped.actions.keys.map { ":" + $0 } }
      }
    }
    // State paths, for `:state PATH` (records three levels deep).
    func paths(_ value: Value, _ prefix: String, _ depth: Int) {
      guard depth < 3, case .record(let record) = value else { return }
      for field in record.fields {
        let path = prefix.isEmpty ? field.key : prefix + "." + field.key
        names.append(path)
        paths(field.value, path, depth + 1)
      }
    }
    paths(currentState, "", 0)
    return names
  }
}

extension FeatureChild {
  /// How `:help` names a child: its operator and what it holds.
  @MainActor
  var summary: String {
    func name(_ destination: Destination) -> String {
      switch destination {
      case .feature(let feature): return feature.name
      case .alert(_, let style): return style == .alert ? "an alert" : "a confirmation dialog"
      }
    }
    guard let only = onlyDestination else {
      let kinds = places.map { "\($0.kind!) (\(name($0.destination)))" }.joined(separator: ", ")
      return (storage == .elements ? "a stack of " : "presents ") + kinds
    }
    switch storage {
    case .field, .derived: return name(only)
    case .optionalField: return isNavigation ? "presents \(name(only)); :\(key).dismiss" : "\(name(only)), when present"
    case .elements: return "\(name(only)) by id: :\(key)[id=ID].ACTION"
    }
  }
}
