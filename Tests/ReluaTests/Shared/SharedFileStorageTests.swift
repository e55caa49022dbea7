import Composable
import Foundation
import XCTest

@testable import Relua

/// `relua.fileStorage` on the real disk: saves debounced off the send path and atomic, a file
/// changed by another process picked up by a live store, paths kept inside the sandbox's roots.
@MainActor
final class SharedFileStorageTests: XCTestCase {
  private var directory: URL!

  override func setUp() async throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("relua-shared-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  override func tearDown() async throws { try? FileManager.default.removeItem(at: directory) }

  private let notes = """
    local relua = require "relua"
    return relua.feature "Notes" {
      state = { notes = {} },
      shared = { notes = relua.fileStorage("notes.json") },
      actions = { add = "string" },
      reduce = relua.on { add = function(s, text) s.notes[#s.notes + 1] = text end },
    }
    """

  private func file(_ name: String) -> String { directory.appendingPathComponent(name).path }

  private func waitUntil(_ what: String, timeout: Duration = .seconds(5), _ condition: () -> Bool) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while !condition() {
      guard clock.now < deadline else { return XCTFail("timed out waiting until \(what)") }
      try await Task.sleep(for: .milliseconds(20))
    }
  }

  func testABurstOfChangesIsSavedOnceOffTheSendPath() async throws {
    let relua = try ReluaRuntime(scriptRoots: [directory.path])
    let feature = try relua.loadFeature(source: notes, name: "Notes.lua")
    let store = try relua.makeStore(feature)
    for n in 1...1000 { try store.send("add", .string("note \(n)")) }
    // Nothing is written during the burst (saves wait for 0.2 s of quiet)…
    XCTAssertFalse(FileManager.default.fileExists(atPath: file("notes.json")))
    try await waitUntil("the file is written") { FileManager.default.fileExists(atPath: file("notes.json")) }
    try await Task.sleep(for: .milliseconds(300))
    let saved = try Value(json: String(contentsOfFile: file("notes.json"), encoding: .utf8))
    XCTAssertEqual(saved.count, 1000)
    XCTAssertEqual(saved[999], .string("note 1000"))
    let share = try relua.host.liveShares.share(for: SharedKeyDescriptor(kind: "fileStorage", argument: "notes.json", projection: .whole, isReadOnly: false))
    XCTAssertLessThanOrEqual(share.saveCount, 3, "1,000 changes in a burst are saved a few times at most")
    // No temporary file is left beside it.
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["notes.json"])
  }

  func testAStoreStartsFromTheFileAndSeesAnotherProcessChangeIt() async throws {
    try #"["from disk"]"#.write(toFile: file("notes.json"), atomically: true, encoding: .utf8)
    let relua = try ReluaRuntime(scriptRoots: [directory.path])
    let store = try relua.makeStore(try relua.loadFeature(source: notes, name: "Notes.lua"))
    XCTAssertEqual(store.state[key: "notes"], .array(["from disk"]))
    // Another process writes the file.
    let writer = Process()
    writer.executableURL = URL(fileURLWithPath: "/bin/sh")
    writer.arguments = ["-c", #"printf '["from disk", "from another process"]' > "$0""#, file("notes.json")]
    try writer.run()
    writer.waitUntilExit()
    XCTAssertEqual(writer.terminationStatus, 0)
    try await waitUntil("the store sees the other process's change") { store.state[key: "notes"].count == 2 }
    XCTAssertEqual(store.state[key: "notes"][1], .string("from another process"))
    // And a send goes on from there.
    try store.send("add", "third")
    XCTAssertEqual(store.state[key: "notes"].count, 3)
  }

  func testAPathOutsideTheSandboxIsRefused() throws {
    let relua = try ReluaRuntime(scriptRoots: [directory.path])
    let feature = try relua.loadFeature(source: notes.replacingOccurrences(of: "\"notes.json\"", with: "\"../outside.json\""), name: "Notes.lua")
    XCTAssertThrowsError(try relua.makeStore(feature)) { error in
      XCTAssertTrue("\(error)".contains("outside the directories this script may use"), "\(error)")
    }
  }

  func testAnUnwritableFileIsASaveErrorAndTheStoreGoesOn() async throws {
    let relua = try ReluaRuntime(scriptRoots: [directory.path])
    // A file where the file's directory should be (permissions would not stop root).
    try "".write(toFile: file("blocker"), atomically: true, encoding: .utf8)
    let feature = try relua.loadFeature(source: notes.replacingOccurrences(of: "\"notes.json\"", with: "\"blocker/notes.json\""), name: "Notes.lua")
    let store = try relua.makeStore(feature)
    try store.send("add", "kept in memory")
    let share = try relua.host.liveShares.share(for: SharedKeyDescriptor(kind: "fileStorage", argument: "blocker/notes.json", projection: .whole, isReadOnly: false))
    try await waitUntil("the save failed") { share.saveError != nil }
    XCTAssertEqual(store.state[key: "notes"], .array(["kept in memory"]))
  }

  func testASwiftProgramReadsAndWritesTheSameShare() async throws {
    let relua = try ReluaRuntime(scriptRoots: [directory.path])
    let store = try relua.makeStore(try relua.loadFeature(source: notes, name: "Notes.lua"))
    try store.send("add", "from Lua")
    XCTAssertEqual(try relua.shared(.fileStorage("notes.json")), .array(["from Lua"]))
    try relua.setShared(.fileStorage("notes.json"), to: .array(["from Swift"]))
    XCTAssertEqual(store.state[key: "notes"], .array(["from Swift"]))
  }
}
