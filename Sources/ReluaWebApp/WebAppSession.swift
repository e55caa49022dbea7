import Foundation
import Relua

/// The store behind `relua app`'s pages: it draws the screens (`WebAppScreen`) — again only those
/// whose state changed (`WebAppRedraw`) — sends the pages what changed after every change of state
/// (screens closed, opened, the patches of a tree), works
/// the controls the pages press — only those of the trees it last sent — and runs the task of
/// each screen while it is shown (`ReluaStore.runTask(of:)`), cancelled when it goes.
@MainActor
package final class WebAppSession {
  package let store: ReluaStore
  package let feed: WebAppFeed
  /// The screens the pages were last sent, in order.
  private(set) var shown: [WebAppScreen] = []
  /// What each screen shown was drawn from (its state) and what it drew, by `drawKey`.
  private var drawnFrom: [String: (state: Value, screen: WebAppScreen)] = [:]
  /// How many times each place's screen was drawn (its view called): tests count them.
  package private(set) var draws: [String: Int] = [:]
  private var tasks: [String: Task<Void, Never>] = [:]
  private var watching: Task<Void, Never>?

  package init(store: ReluaStore, feed: WebAppFeed) {
    self.store = store
    self.feed = feed
  }

  /// Draws the screens now and follows the store's changes (an effect's sends included) until `stop`.
  package func start() {
    refresh()
    watching = Task { @MainActor [weak self] in
      guard let changes = self?.store.screenChanges else { return }
      for await _ in changes {
        guard let self else { return }
        self.refresh()
      }
    }
  }

  package func stop() {
    watching?.cancel()
    for task in tasks.values { task.cancel() }
    tasks.removeAll()
  }

  // MARK: Drawing

  /// Draws the screens and sends the pages what changed since they were last sent.
  package func refresh() {
    let screens = store.screens
    let drawn = draw(screens)
    var changes: [String] = []
    let kept = shown.filter { old in drawn.contains { $0.isSameScreen(as: old) } }
    for old in shown where !kept.contains(where: { $0.isSameScreen(as: old) }) {
      changes.append(#"{"place":\#(WebAppJSON.string(old.place)),"type":"close"}"#)
    }
    for (index, screen) in drawn.enumerated() {
      if let old = kept.first(where: { $0.isSameScreen(as: screen) }) {
        guard old != screen else { continue }
        if let oldTree = old.tree, let newTree = screen.tree, old.alert == screen.alert,
          let patches = try? WebAppPatches.json(from: oldTree, to: newTree)
        {
          if patches != "[]" {
            changes.append(#"{"patches":\#(patches),"place":\#(WebAppJSON.string(screen.place)),"type":"patch"}"#)
          }
        } else {
          changes.append(#"{"place":\#(WebAppJSON.string(old.place)),"type":"close"}"#)
          changes.append(Self.openMessage(screen, index: index))
        }
      } else {
        changes.append(Self.openMessage(screen, index: index))
      }
    }
    shown = drawn
    if !changes.isEmpty {
      feed.update(snapshot: Self.screensMessage(drawn), changes: changes)
    }
    runTasks(of: screens)
  }

  private static func drawKey(_ screen: ReluaScreen) -> String {
    screen.place + "\u{0}" + screen.name + "\u{0}" + (screen.closeAction ?? "")
  }

  /// The screens' drawings: a screen as it was last drawn when its state is the same (outside the
  /// screens it presents) and its presenter, if drawn again, gives it the same bar; else drawn now.
  private func draw(_ screens: [ReluaScreen]) -> [WebAppScreen] {
    var drawn: [WebAppScreen] = []
    var next: [String: (state: Value, screen: WebAppScreen)] = [:]
    // Places drawn again this time, with their tree before and now (presenters come first).
    var redrawn: [String: (old: ReluaViewNode?, new: ReluaViewNode?)] = [:]
    for screen in screens {
      let key = Self.drawKey(screen)
      if let last = drawnFrom[key],
        WebAppRedraw.same(last.state, screen.state, outside: WebAppRedraw.placesBelow(screen.place, among: screens)),
        !redrawn.contains(where: { presenter, trees in
          Self.presents(presenter, screen.place)
            && WebAppRedraw.bar(in: trees.old, for: screen.place) != WebAppRedraw.bar(in: trees.new, for: screen.place)
        })
      {
        drawn.append(last.screen)
        next[key] = (screen.state, last.screen)
        continue
      }
      let fresh = WebAppScreen(screen, of: store)
      draws[screen.place, default: 0] += 1
      redrawn[screen.place] = (drawnFrom[key]?.screen.tree, fresh.tree)
      drawn.append(fresh)
      next[key] = (screen.state, fresh)
    }
    drawnFrom = next
    return drawn
  }

  /// Whether the screen at `presenter` is above the one at `place`.
  private static func presents(_ presenter: String, _ place: String) -> Bool {
    presenter != place && (presenter.isEmpty || place.hasPrefix(presenter + "."))
  }

  static func screensMessage(_ screens: [WebAppScreen]) -> String {
    struct Message: Encodable {
      var type = "screens"
      var screens: [WebAppScreen]
    }
    return (try? WebAppJSON.encode(Message(screens: screens))) ?? #"{"screens":[],"type":"screens"}"#
  }

  static func openMessage(_ screen: WebAppScreen, index: Int) -> String {
    struct Message: Encodable {
      var type = "open"
      var index: Int
      var screen: WebAppScreen
    }
    return (try? WebAppJSON.encode(Message(index: index, screen: screen))) ?? "{}"
  }

  /// A screen's task runs while it is shown (as the REPL's, FeatureConsole+ScreenTasks.swift).
  private func runTasks(of screens: [ReluaScreen]) {
    let key = { (screen: ReluaScreen) in screen.place + "\u{0}" + screen.name }
    let present = Set(screens.map(key))
    for (place, task) in tasks where !present.contains(place) {
      task.cancel()
      tasks[place] = nil
    }
    for screen in screens where !screen.taskActions.isEmpty && tasks[key(screen)] == nil {
      let store = self.store
      tasks[key(screen)] = Task { @MainActor in
        do { try await store.runTask(of: screen) } catch {
          FileHandle.standardError.write(Data("relua app: \(screen.name)'s task: \(error)\n".utf8))
        }
      }
    }
  }

  // MARK: A page's messages

  /// Answers a page's message: works it and answers `{"type":"ok",…}`, or refuses it with
  /// `{"type":"error",…}` (the REPL's wording), the state unchanged.
  package func answer(_ text: String) -> String {
    let message: WebAppPageMessage
    do {
      message = try WebAppPageMessage(parsing: text)
    } catch {
      return Self.error(screen: error.screen, at: error.at, error.message)
    }
    do {
      try work(message)
    } catch {
      // The REPL's wording (its `report` without the traceback), as the inspector's page shows it.
      let text = ReluaError.message(of: error)
      switch message {
      case .work(let screen, let at, _): return Self.error(screen: screen, at: at, text)
      case .close(let screen), .alert(let screen, _): return Self.error(screen: screen, at: nil, text)
      }
    }
    refresh()
    switch message {
    case .work(let screen, let at, _): return Self.ok(screen: screen, at: at)
    case .close(let screen), .alert(let screen, _): return Self.ok(screen: screen, at: nil)
    }
  }

  struct Refusal: Error, CustomStringConvertible {
    var description: String
  }

  /// Works `message` on the screens last sent.
  func work(_ message: WebAppPageMessage) throws {
    switch message {
    case .work(let place, let at, let input):
      guard let screen = shown.first(where: { $0.place == place }) else { throw Refusal(description: "no screen at '\(place)' is shown") }
      guard let tree = screen.tree else { throw Refusal(description: "the \(screen.name) at '\(place)' has no controls: press its buttons") }
      var node = tree
      for (depth, index) in at.enumerated() {
        let children = node.children
        guard index < children.count else {
          throw Refusal(description: "no node at \(at) of '\(place)' (step \(depth + 1): \(node.kind) has \(children.count) children)")
        }
        node = children[index]
      }
      try store.perform(node, input: input)
    case .close(let place):
      guard shown.contains(where: { $0.place == place }), let screen = store.screens.first(where: { $0.place == place }) else {
        throw Refusal(description: "no screen at '\(place)' is shown")
      }
      guard let close = screen.closeAction else { throw Refusal(description: "the root screen cannot be closed") }
      try store.send(close, screen.closePayload)
    case .alert(let place, let index):
      guard let screen = store.screens.first(where: { $0.place == place }),
        let shownScreen = shown.first(where: { $0.place == place }), shownScreen.kind == .alert
      else { throw Refusal(description: "no alert at '\(place)' is shown") }
      let buttons = WebAppScreen.buttons(of: screen.state)
      guard index < buttons.count else { throw Refusal(description: "the alert has \(buttons.count) buttons, not \(index + 1)") }
      if let action = buttons[index].action {
        try store.send(screen.actionPrefix + action)
      } else if let close = screen.closeAction {
        try store.send(close, screen.closePayload)
      }
    }
  }

  static func error(screen: String?, at: [Int]?, _ message: String) -> String {
    struct Message: Encodable {
      var type = "error"
      var screen: String?
      var at: [Int]?
      var message: String
    }
    return (try? WebAppJSON.encode(Message(screen: screen, at: at, message: message))) ?? #"{"type":"error"}"#
  }

  static func ok(screen: String, at: [Int]?) -> String {
    struct Message: Encodable {
      var type = "ok"
      var screen: String
      var at: [Int]?
    }
    return (try? WebAppJSON.encode(Message(screen: screen, at: at))) ?? #"{"type":"ok"}"#
  }
}
