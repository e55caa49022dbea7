import Relua

import Foundation
import Lua

/// Screen snapshots (`assert.screen(store[, name])`, `expect(store):to_match_screen([name])`),
/// with the habits of jest and swift-snapshot-testing: each is a file beside the test,
/// `__snapshots__/<test file>/<test name>.txt` (`<test name>.2.txt` for a test's second unnamed
/// one, `<test name>.<name>.txt` for a named one), written when missing (the test passes, with a
/// note saying so), compared afterwards (a mismatch fails with a line diff), and rewritten when
/// it differs under `--update-snapshots` (`updates`).
///
/// One file per representation, each diffed on its own: `txt` for the screen's text, `json` for
/// its tree when it has one (``ReluaHost/screenTreeJSON(ofStore:)``: not for an alert, a feature
/// without a view or a view that is only text), pretty with sorted keys so its diff reads by line.
///
/// Files are written only under the test file's directory: a name is a file name (no `/`, `\`,
/// leading `.` or control characters; a test's name is made one), and a `__snapshots__` folder
/// that is a symbolic link is refused.
@MainActor
package final class LuaTestSnapshots {
  /// Rewrite the snapshots that differ instead of failing (`relua test --update-snapshots`).
  package var updates: Bool
  /// The snapshots this run wrote (missing ones), as paths relative to where the run started.
  package private(set) var written: [String] = []
  /// The snapshots this run rewrote because they differed (with `updates`).
  package private(set) var updated: [String] = []

  private var test: (file: String, name: String)?
  private var keysTaken: Set<String> = []
  private var unnamedCount = 0
  private var notes: [String] = []

  /// A store of snapshots; `updates`: see the property.
  package init(updates: Bool = false) { self.updates = updates }

  /// What one assertion stores: one text per representation, by file extension (`txt`).
  package struct Representation: Sendable {
    package var fileExtension: String
    package var text: String
    /// A representation stored as `<key>.<fileExtension>`.
    package init(fileExtension: String, text: String) {
      self.fileExtension = fileExtension
      self.text = text
    }
  }

  /// A snapshot that cannot be taken (no test running, a name that is no file name…).
  package struct Refusal: Error, CustomStringConvertible {
    package var description: String
  }

  /// The test whose snapshots come next.
  func begin(file: String, test name: String) {
    test = (file, name)
    keysTaken = []
    unnamedCount = 0
    notes = []
  }

  /// Ends the running test; returns its notes (snapshots written or updated).
  func end() -> [String] {
    test = nil
    defer { notes = [] }
    return notes
  }

  /// Checks the representations of one snapshot (`name` nil: the test's next unnamed one)
  /// against the stored files: nil when they match or were written, else the failure's message.
  package func check(_ representations: [Representation], name: String?) throws -> String? {
    guard let test else { throw Refusal(description: "a screen snapshot is taken inside a test (it, test), not when the file loads") }
    let key = try nextKey(name, test: test.name)
    let directory = (test.file as NSString).deletingLastPathComponent
    let folder = [directory, "__snapshots__", (test.file as NSString).lastPathComponent]
      .filter { !$0.isEmpty }.joined(separator: "/")
    try refuseLinks(on: directory, through: ["__snapshots__", (test.file as NSString).lastPathComponent])
    var failures: [String] = []
    for representation in representations {
      let path = folder + "/" + key + "." + representation.fileExtension
      let stored = FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
      let text = representation.text
      guard let stored else {
        try write(text, to: path, folder: folder)
        written.append(path)
        notes.append("snapshot written: \(path)")
        continue
      }
      let storedText = stored.hasSuffix("\n") ? String(stored.dropLast()) : stored
      guard let diff = TextLineDiff.lines(from: storedText, to: text) else { continue }
      if updates {
        try write(text, to: path, folder: folder)
        updated.append(path)
        notes.append("snapshot updated: \(path)")
        continue
      }
      let what = representation.fileExtension == "json" ? "the screen's tree" : "the screen"
      failures.append("""
        \(what) does not match its snapshot \(path):

        \(diff.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n"))

        (Expected: −, Actual: +; relua test --update-snapshots takes the new screen)
        """)
    }
    return failures.isEmpty ? nil : failures.joined(separator: "\n\n")
  }

  // MARK: Names and files

  /// `<test name>`, `<test name>.2`…, or `<test name>.<name>`: unique in the test.
  private func nextKey(_ name: String?, test: String) throws -> String {
    let base = Self.fileName(ofTest: test)
    let key: String
    if let name {
      try Self.checkName(name)
      key = base + "." + name
      guard !keysTaken.contains(key) else {
        throw Refusal(description: "the snapshot '\(name)' was already taken in this test (names are unique per test)")
      }
    } else {
      repeat {
        unnamedCount += 1
      } while keysTaken.contains(unnamedCount == 1 ? base : base + ".\(unnamedCount)")
      key = unnamedCount == 1 ? base : base + ".\(unnamedCount)"
    }
    keysTaken.insert(key)
    return key
  }

  /// A snapshot's name becomes part of a file name: one that could reach another directory is refused.
  static func checkName(_ name: String) throws {
    let bad = name.isEmpty || name.hasPrefix(".") || name.contains("/") || name.contains("\\")
      || name.unicodeScalars.contains { $0.properties.generalCategory == .control } || name.utf8.count > 100
    if bad {
      throw Refusal(description: "a snapshot's name is a file name (up to 100 bytes, no '/', '\\', leading '.' "
        + "or control characters): got \(Value.string(name).luaLiteral())")
    }
  }

  /// A test's full name as a file name: separators and control characters become `_`, a leading
  /// `.` too, and it is cut to 150 bytes.
  static func fileName(ofTest name: String) -> String {
    var result = ""
    for scalar in name.unicodeScalars {
      let replace = scalar == "/" || scalar == "\\" || scalar.properties.generalCategory == .control
      let piece = replace ? "_" : String(scalar)
      if result.utf8.count + piece.utf8.count > 150 { break }
      result += piece
    }
    if result.hasPrefix(".") { result = "_" + result.dropFirst() }
    return result.isEmpty ? "_" : result
  }

  /// Refuses to go through a symbolic link below the test file's directory.
  private func refuseLinks(on directory: String, through components: [String]) throws {
    var path = directory
    for component in components {
      path = path.isEmpty ? component : path + "/" + component
      if (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil {
        throw Refusal(description: "\(path) is a symbolic link: snapshots are written only under the test file's directory")
      }
    }
  }

  private func write(_ text: String, to path: String, folder: String) throws {
    do {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      if (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil {
        throw Refusal(description: "\(path) is a symbolic link: snapshots are written only under the test file's directory")
      }
      try Data((text + "\n").utf8).write(to: URL(fileURLWithPath: path))
    } catch let refusal as Refusal {
      throw refusal
    } catch {
      throw Refusal(description: "cannot write the snapshot \(path): \(error.localizedDescription)")
    }
  }

  // MARK: In a test's state

  static let chunkName = "=[relua snapshots]"

  /// Sources/ReluaTesting/Lua/test_snapshots.lua, read once per process (`ReluaLuaSource`).
  static let source = ReluaLuaSource.text(
    "test_snapshots.lua", in: ReluaTestingResources.luaDirectory, target: "ReluaTesting")

  /// Installs `assert.screen` and `expect(…):to_match_screen` in a test's state.
  func install(in state: LuaState, host: ReluaHost) throws {
    let snapshot = try state.function { [weak self, weak host] stack in
      let store = try stack.value(at: 1)
      let name = stack.isNil(at: 2) ? nil : try stack.string(at: 2)
      // Lua calls it on the state's actor, the main one.
      let failure = try MainActor.assumeIsolated { () throws -> String? in
        guard let self, let host else { return nil }
        do {
          guard let text = try host.screenText(ofStore: store) else {
            return "a screen snapshot takes a store (relua.Store or relua.TestStore), got \(store.type)"
          }
          var representations = [Representation(fileExtension: "txt", text: text)]
          if let tree = try host.screenTreeJSON(ofStore: store) {
            representations.append(Representation(fileExtension: "json", text: tree))
          }
          return try self.check(representations, name: name)
        } catch let refusal as Refusal {
          return refusal.description
        }
      }
      return failure.map { [.text($0)] } ?? []
    }
    try state.call(state.load(Self.source, name: Self.chunkName), .function(snapshot))
  }
}
