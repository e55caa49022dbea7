import Foundation
import XCTest

@testable import Relua

/// `relua.ui.forEach`'s rows through the host's cache: one toggled row of many is one Lua call
/// and one patch; the same feature loaded again (a `:reload`) draws every row anew.
@MainActor
final class ReluaViewForEachCacheTests: XCTestCase {
  static let feature = """
    local relua = require "relua"
    local ui = relua.ui
    local Row = relua.feature "Row" {
      state = { id = 0, title = "", done = false },
      actions = { toggle = {} },
      reduce = relua.on { toggle = function(s) s.done = not s.done end },
      view = function(row) return ui.hstack { ui.text((row.done and "[x] " or "[ ] ") .. row.title), ui.button("Toggle", "toggle") } end,
    }
    local rows = {}
    for id = 1, 50 do rows[id] = { id = id, title = "Row " .. id, done = false } end
    return relua.feature "List" {
      state = { rows = relua.identified(rows) },
      compose = { relua.forEach("rows", Row) },
      view = function() return ui.forEach("rows", Row) end,
    }
    """

  func testOneToggledRowIsOneLuaCallAndOnePatch() async throws {
    let relua = try ReluaRuntime()
    let store = try relua.makeStore(try relua.loadFeature(source: Self.feature, name: "List.lua"))
    let cache = relua.host.viewRowCache
    let before = try XCTUnwrap(try store.topView())
    XCTAssertEqual(cache.drawn, 50)
    try store.send("rows[id=7].toggle")
    let after = try XCTUnwrap(try store.topView())
    XCTAssertEqual(cache.drawn, 51)
    XCTAssertEqual(cache.reused, 49)
    XCTAssertEqual(ReluaViewPatch.changes(from: before, to: after), [.replace(at: [6, 0], node: .text("[x] Row 7"))])
    XCTAssertEqual(try before.applying(ReluaViewPatch.changes(from: before, to: after)), after)
  }

  func testTheFeatureLoadedAgainDrawsEveryRowAnew() async throws {
    let relua = try ReluaRuntime()
    _ = try relua.makeStore(try relua.loadFeature(source: Self.feature, name: "List.lua")).topView()
    XCTAssertEqual(relua.host.viewRowCache.drawn, 50)
    _ = try relua.makeStore(try relua.loadFeature(source: Self.feature, name: "List.lua")).topView()
    XCTAssertEqual(relua.host.viewRowCache.drawn, 100)
    XCTAssertEqual(relua.host.viewRowCache.reused, 0)
  }
}
