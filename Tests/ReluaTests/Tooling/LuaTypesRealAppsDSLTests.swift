import Foundation
import XCTest

@testable import Relua
@testable import ReluaTooling

/// `relua types` of the DSL's forms for real apps (issue #34): nested bindings
/// (`binding.syncUp.title`, typed by the initial state), action groups (`delegate.startMeeting`),
/// and kinds that are only state (`relua.stateOnly`), each action listed also accepted by a store.
@MainActor
final class LuaTypesRealAppsDSLTests: XCTestCase {
  func testNestedBindingsGroupsAndStateOnlyKindsAreTyped() async throws {
    let dir = try LuaTestDirectory()
    let script = try dir.write("Scripts/SyncUps.lua", """
      local relua = require "relua"
      local Detail = relua.feature "Detail" {
        state = { syncUp = { title = "", minutes = 5, theme = { name = "orange" } } },
        bindable = { "syncUp" },
        actions = { delegate = relua.group { startMeeting = {}, edit = relua.group { renamed = "string" } } },
      }
      return relua.feature "SyncUps" {
        state = { detail = Detail:initial() },
        compose = {
          relua.scope("detail", Detail),
          relua.stack("path", { meeting = relua.stateOnly "Meeting" }),
        },
      }
      """)
    let generator = LuaTypesGenerator()
    try await generator.add(script: script)
    let files = generator.files()
    let text = try XCTUnwrap(files.first { $0.name == "SyncUps.lua" }?.text)
    for entry in [
      #"---| "detail.binding.syncUp" # SyncUps.Detail.State.syncUp"#,
      #"---| "detail.binding.syncUp.minutes" # integer"#,
      #"---| "detail.binding.syncUp.theme" # SyncUps.Detail.State.syncUp.theme"#,
      #"---| "detail.binding.syncUp.theme.name" # string"#,
      #"---| "detail.binding.syncUp.title" # string"#,
      #"---| "detail.delegate.edit.renamed" # string"#,
      #"---| "detail.delegate.startMeeting""#,
      #"---| "path.popFrom" # integer"#,
    ] {
      XCTAssertTrue(text.contains(entry + "\n"), "\(entry) in:\n\(text)")
    }
    // The state-only kind is a kind of the stack's elements, with no actions of its own.
    XCTAssertTrue(text.contains("---@field meeting? SyncUps.Meeting.State"), text)
    XCTAssertFalse(text.contains("meeting."), text)
    // The API declares the new functions.
    let api = try XCTUnwrap(files.first { $0.name == "relua.lua" }?.text)
    XCTAssertTrue(api.contains("function relua.group(actions) end"))
    XCTAssertTrue(api.contains("---@field stateOnly relua.StateOnly"))

    // Every action listed for SyncUps is one its stores accept (the file lists Detail's too).
    let runtime = try ReluaRuntime(scriptRoots: LuaTestDiscovery.scriptRoots(for: script))
    let feature = try runtime.loadFeature(file: script)
    for line in text.split(separator: "\n") where line.hasPrefix("---| \"") {
      let path = String(line.dropFirst(6).prefix { $0 != "\"" })
      guard path.hasPrefix("detail.") || path.hasPrefix("path.") else { continue }
      XCTAssertNoThrow(try ActionResolver.walk(ActionResolver.parse(path)[...], in: feature, text: path), path)
    }
  }
}
