import Composable
import Foundation
import Lua

@testable import Relua
import ReluaGitHub

/// Explores a feature script breadth first over its declared actions and renders every screen of
/// every state it reaches, as the REPL shows them (a view's text; an alert's title, message and
/// buttons), collecting the views that raise.
///
/// Screens derive from state alone, so a state is a node: each edge is a fresh test store made
/// with that state, one action of the top screen (`ScreenActions`) with one representative
/// payload, and then one second of the store's test clock, so debounces, loads and a first timer
/// tick land as they would; what is still running is then cancelled. Effects are not the point,
/// only what they lead the screens to show; the network is faked (`OfflineDependencies`).
@MainActor
final class ScreenExplorer {
  private let lua: LuaState
  private let host: ReluaHost
  private let feature: FeatureDefinition
  private let resolver: ActionResolver
  private let github: ReluaDependency.Shape
  private let websocket = OfflineDependencies.websocket()
  // Shared by every store of the exploration: a fresh incrementing generator per store would give
  // each new round the id of the first (the guessing game's results are identified by it).
  private let uuid = UUIDGenerator.incrementing
  private let random = RandomNumber.seeded(1)
  /// Payloads to try beyond the representatives of an action's type, by action path: what no
  /// representative guesses (the names a reducer accepts: a tab).
  private let payloadHints: [String: [Value]]
  /// How far the test clock moves after each action.
  static let settleTime = Duration.seconds(1)

  init(file: String, payloadHints: [String: [Value]] = [:]) throws {
    self.payloadHints = payloadHints
    lua = try LuaState(options: LuaOptions(
      memoryLimit: 256 << 20, instructionLimit: 10_000_000, scriptRoots: LuaTestDiscovery.scriptRoots(for: file)))
    host = try ReluaHost.install(in: lua)
    try host.register(GitHubDependency.make(.notConfigured))
    guard let value = try lua.call(lua.load(file: file)).first else { throw ReluaError.usage("\(file) returned nothing") }
    feature = try host.feature(value, what: "screen exploration")
    resolver = host.resolver(for: feature)
    github = GitHubDependency.shape(try OfflineDependencies.github())
  }

  func close() { lua.close() }

  /// Every state within `depth` actions of the initial one, at most `maxStates` of them.
  func explore(depth: Int, maxStates: Int) async throws -> ExplorationReport {
    var report = ExplorationReport()
    var dependencies = DependencyValues(context: .test)
    prepare(&dependencies, clock: TestStoreClock())
    let initial = try host.initialState(of: feature, dependencies: dependencies)
    var seen: Set<Value> = [initial]
    var frontier: [(state: Value, path: [SentAction])] = [(initial, [])]
    render(initial, path: [], into: &report)
    for _ in 0..<depth {
      var next: [(state: Value, path: [SentAction])] = []
      for node in frontier {
        guard let top = FeatureScreens.screens(of: feature, state: node.state).last else { continue }
        for action in ScreenActions.on(top) {
          for payload in action.payloads + (payloadHints[action.path] ?? []) {
            guard seen.count < maxStates else {
              report.capped = true
              report.states = seen.count
              return report
            }
            let sent = SentAction(path: action.path, payload: payload)
            let resolved: FeatureAction
            do {
              resolved = try resolver.resolve(action.path, payload: payload)
            } catch {
              report.unresolved.append("\(sent): \(error)")
              continue
            }
            report.sends += 1
            guard let state = await step(from: node.state, resolved) else {
              report.refusedByReducers += 1
              continue
            }
            guard seen.insert(state).inserted else { continue }
            let path = node.path + [sent]
            render(state, path: path, into: &report)
            next.append((state, path))
          }
        }
      }
      frontier = next
    }
    report.states = seen.count
    return report
  }

  /// The state `action` leads to from `state`, its effects given `settleTime`; nil when a reducer raised.
  private func step(from state: Value, _ action: FeatureAction) async -> Value? {
    let clock = TestStoreClock()
    let store = TestStore(
      initialState: state, reducer: Reduce(host.rootReducer(for: feature)), isEqual: { $0.sameInLua(as: $1) },
      // Its failures are the exhaustive kind (an effect reaching an unimplemented dependency, say),
      // not what is explored here.
      reporter: ClosureTestFailureReporter { _, _ in },
      withDependencies: { self.prepare(&$0, clock: clock) },
      transaction: host.storeTransaction, location: SourceLocation())
    store.exhaustivity = .off
    defer { host.lastReducerError = nil }
    host.lastReducerError = nil
    await store.send(action, assert: nil, at: SourceLocation())
    if host.lastReducerError != nil {
      await store.skipInFlightEffects()
      return nil
    }
    await store.advance(clock, by: Self.settleTime)
    await store.skipReceivedActions()
    await store.skipInFlightEffects()
    return store.state
  }

  private func prepare(_ dependencies: inout DependencyValues, clock: TestStoreClock) {
    dependencies.uuid = uuid
    dependencies.random = random
    dependencies.clock = clock
    dependencies.date = .constant(Date(timeIntervalSince1970: 1_700_000_000))
    dependencies.setReluaDependency(GitHubDependency.name, to: github)
    dependencies.websocket = websocket
    dependencies.withOwnNotifications()
  }

  /// Renders every screen `state` shows, root to top (the REPL shows the top one; the others show
  /// again on `:back`), noting the views that raise.
  private func render(_ state: Value, path: [SentAction], into report: inout ExplorationReport) {
    let screens = FeatureScreens.screens(of: feature, state: state)
    let breadcrumb = screens.map(\.breadcrumbName).joined(separator: " › ")
    report.screens.insert(breadcrumb)
    for screen in screens {
      do {
        if let style = screen.alertStyle {
          _ = AlertText.render(screen.state, style: style)
        } else {
          _ = try host.render(screen.feature, screen.state)
        }
      } catch {
        let name = screen.place.isEmpty ? screen.breadcrumbName : "\(screen.breadcrumbName) at \(screen.place)"
        let message = (error as? ReluaError)?.fullDescription ?? "\(error)"
        // One report per screen and error: the first one found is along a shortest path.
        guard !report.failures.contains(where: { $0.screen == name && $0.error == message }) else { continue }
        report.failures.append(ViewFailure(path: path, screen: name, breadcrumb: breadcrumb, error: message))
      }
    }
  }
}
