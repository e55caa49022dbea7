import Composable
import Foundation
import Lua
import Relua

/// `shared-file`: bytes as the file behind a feature's `fileStorage` key (a test store's files, in
/// memory). Whatever the file holds, the store starts; a file it cannot use is a load error with
/// the default state, and is kept aside byte for byte when the next change saves; a file it can
/// use is what the state holds; the file saved after a change parses to what the state holds.
@MainActor
final class SharedFileTarget: FuzzTarget {
  private let lua: LuaState
  private let host: ReluaHost
  private let feature: FeatureDefinition
  private static let name = "notes.json"

  init() {
    do {
      lua = try LuaState(options: LuaOptions(memoryLimit: 64 << 20, instructionLimit: 2_000_000, scriptRoots: ["/nonexistent"]))
      host = try ReluaHost.install(in: lua)
      let source = """
        local relua = require "relua"
        return relua.feature "Notes" {
          state = { notes = { "seed" } },
          shared = { notes = relua.fileStorage("notes.json") },
          actions = { add = "string" },
          reduce = relua.on { add = function(s, text) s.notes[#s.notes + 1] = text end },
        }
        """
      feature = try host.feature(try lua.call(lua.load(source, name: "=shared-file")).first ?? .nil, what: "shared-file")
    } catch {
      fatalError("relua-fuzz shared-file: cannot set up: \(error)")
    }
  }

  func run(_ input: UnsafeRawBufferPointer) {
    let bytes = Data(input)
    let files = InMemoryFileSystem(files: ["/nonexistent/" + Self.name: bytes])
    let shares = host.testShares(files: files)
    shares.warn = { _ in }
    var dependencies = DependencyValues.test { _ in }
    dependencies.setSharedRegistry(shares)
    lua.resetInstructionBudget()
    let store: LuaStoreObject
    do {
      store = try LuaStoreObject(host: host, feature: feature, dependencies: dependencies)
    } catch {
      invariantFailed("a store could not start from a shared file: \(error)\nfile: \(bytes.debugDescription)")
    }
    let key = SharedKeyDescriptor(kind: "fileStorage", argument: .string(Self.name), projection: .whole, isReadOnly: false)
    guard let share = try? shares.share(for: key) else { invariantFailed("no share for the key") }
    let notes = store.store.state[key: "notes"]
    if share.loadError == nil {
      if let text = String(data: bytes, encoding: .utf8), let stored = try? Value(json: text), !notes.sameInLua(as: stored),
        !(stored.count == 0 && notes.count == 0)
      {
        invariantFailed("the state does not hold the file it loaded\nfile: \(text.debugDescription)\nstate: \(notes)")
      }
    } else if notes != .array(["seed"]) {
      invariantFailed("a load error left the state without its default: \(notes)")
    }
    do {
      try store.send("add", payload: "x")
    } catch {
      // A send can fail only on what the file made the state (a value the reducer cannot append to).
      return
    }
    let after = files.contents
    guard let saved = after["/nonexistent/" + Self.name], let text = String(data: saved, encoding: .utf8), let written = try? Value(json: text) else {
      invariantFailed("no readable file after a change was saved: \(after.keys.sorted())")
    }
    if !written.sameInLua(as: store.store.state[key: "notes"]) {
      invariantFailed("the saved file differs from the state\nfile: \(text.debugDescription)\nstate: \(store.store.state[key: "notes"])")
    }
    if share.loadError != nil || !after.isEmpty && after.count > 1 {
      let kept = after.contains { $0.key.hasPrefix("/nonexistent/\(Self.name).corrupt-") && $0.value == bytes }
      if share.loadError != nil && !bytes.isEmpty && !kept {
        invariantFailed("a file that could not be loaded was not kept aside\nfile: \(bytes.debugDescription)\nfiles: \(after.keys.sorted())")
      }
    }
  }
}
