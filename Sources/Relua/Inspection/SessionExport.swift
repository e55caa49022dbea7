import Composable
import Foundation

/// What an inspector's export writes: the session recorded as a test (`SessionRecording`, as
/// `:record` does) since the store was inspected or its state was last replaced without an action
/// — what came before cannot replay into a state put back by hand, so `restart` starts it over.
/// The REPL's feature mode and a program's inspected store each keep one.
@MainActor
package final class SessionExport {
  let featureFile: String
  private let host: ReluaHost
  package private(set) var recording: SessionRecording
  /// What it records since: nil for the store's opening.
  private(set) var since: ConsoleEvent.Reason?

  /// Starts recording `store` (its dependencies wrapped, as `:record` wraps them).
  package init(featureFile: String, store: Store<Value, FeatureAction>, host: ReluaHost) {
    self.featureFile = featureFile
    self.host = host
    recording = Self.record(store, featureFile: featureFile, host: host)
  }

  /// Starts over from the state `store` has now.
  package func restart(since reason: ConsoleEvent.Reason, store: Store<Value, FeatureAction>) {
    recording.uninstall(from: store)
    recording = Self.record(store, featureFile: featureFile, host: host)
    since = reason
  }

  /// Gives `store` its dependencies back.
  package func close(store: Store<Value, FeatureAction>) {
    recording.uninstall(from: store)
  }

  /// How many actions an export would hold, and since what, for the page.
  package func describe(in live: inout InspectionLive) {
    live.exportActions = recording.steps.count
    live.exportSince = since?.rawValue ?? "open"
  }

  /// The test as it stands, named to sit beside the feature's script
  /// (`GuessingGame_session_test.lua`), from where it requires the feature by its file's name.
  package func test(of store: Store<Value, FeatureAction>) throws -> (fileName: String, text: String) {
    let feature = URL(fileURLWithPath: featureFile)
    let fileName = feature.deletingPathExtension().lastPathComponent + "_session_test.lua"
    let path = feature.deletingLastPathComponent().appendingPathComponent(fileName).path
    recording.noteStop(of: store)
    do {
      return (fileName, try recording.text(forTestAt: path, exported: true))
    } catch {
      throw InspectionRefusal(ReluaError.message(of: error))
    }
  }

  private static func record(_ store: Store<Value, FeatureAction>, featureFile: String, host: ReluaHost) -> SessionRecording {
    let recording = SessionRecording(path: "", featureFile: featureFile, initialState: store.state)
    recording.install(on: store, host: host)
    return recording
  }
}

extension InspectionLive {
  /// The screens, effects and actions of `store`, a store of `feature`, as they are now (the
  /// rest as `InspectionLive()` has it). The views run: arm Ctrl-C around it where a person waits.
  @MainActor
  package init(feature: FeatureDefinition, store: Store<Value, FeatureAction>, host: ReluaHost) {
    self.init()
    let state = store.state
    screens = InspectionScreens.screens(of: feature, state: state, host: host)
    effects = store.runningEffects
    actions = InspectionActions.actions(of: feature, state: state)
    if feature.reachesShares {
      shared = SharedSync.places(feature, in: state).map { SharedPlace(treePath: Self.treePath($0.path, in: state), key: $0.key.description) }
    }
  }

  /// A state path as the inspector's tree names places: keys, and 1-based positions.
  private static func treePath(_ path: ValuePath, in state: Value) -> String {
    var text = ""
    var value = state
    for component in path {
      switch component {
      case .key(let key): text += "/" + key
      case .index(let position): text += "/[\(position + 1)]"
      case .id(let id): text += "/[\((value.asIdentified.index(id: id) ?? -1) + 1)]"
      }
      value = value[component]
    }
    return text
  }
}
