import Foundation
import XCTest

@testable import Lua
@testable import Relua

/// The tree reader reads a view's table on the raw Lua stack: a bad table anywhere in the tree is
/// an error naming its place, the stack is left as it was (after an error too), and the next read
/// is whole.
@MainActor
final class ReluaViewTreeReaderTests: XCTestCase {
  static let feature = """
    local relua = require "relua"
    local ui = relua.ui
    local bad = {
      row = function() return { kind = "list", rows = { { id = 1, content = "a" }, 5 } } end,
      rowid = function() return { kind = "list", rows = { { content = "a" } } } end,
      options = function() return { kind = "picker", label = "P", binding = "mode", options = { "a", 3 } } end,
      children = function() return { kind = "vstack", children = { "a", { kind = "hstack" } } } end,
      cycle = function() local t = { kind = "vstack" }; t.children = { t }; return t end,
      number = function() return { kind = "vstack", children = { { kind = "text", text = 5 } } } end,
      scope = function() return { kind = "scope", key = "inner", content = { kind = "section", title = "T", children = { true } } } end,
    }
    return relua.feature "Bad" {
      state = { mode = "good" },
      actions = { mode = "string", go = "integer" },
      reduce = relua.on { mode = function(s, m) s.mode = m end, go = function() end },
      view = function(s)
        if bad[s.mode] then return bad[s.mode]() end
        return ui.vstack { "ok", ui.list({ { id = 1 }, { id = "b" } }, function(r) return ui.button("Go", "go", 7) end) }
      end,
    }
    """

  func testABadTableAnywhereIsAnErrorAtItsPlaceAndTheNextReadIsWhole() async throws {
    let relua = try ReluaRuntime()
    let store = try relua.makeStore(try relua.loadFeature(source: Self.feature, name: "Bad.lua"))
    let good = ReluaViewNode.vstack([
      .text("ok"),
      .list([
        ReluaViewRow(id: .integer(1), content: .button(label: "Go", action: ReluaViewAction(path: "go", payload: .integer(7)))),
        ReluaViewRow(id: .string("b"), content: .button(label: "Go", action: ReluaViewAction(path: "go", payload: .integer(7)))),
      ]),
    ])
    let top = try relua.lua.currentRawStack().top
    XCTAssertEqual(try store.topView(), good)
    let cases: [(String, String)] = [
      ("row", "Bad.view: the view (list) row 2 must be { id, content }"),
      ("rowid", "Bad.view: the view (list) row 1 needs an id (a string or a number)"),
      ("options", "Bad.view: the view (picker) options must be texts, got number"),
      ("children", "Bad.view: the view › vstack child 2 (hstack) needs a list of children"),
      ("cycle", "Bad.view: the tree is nested more than 64 deep"),
      ("number", "Bad.view: the view › vstack child 1 (text) needs text for text, got number"),
      ("scope", "Bad.view: the view › scope inner › section child 1 must be text or a relua.ui node, got boolean"),
    ]
    for (mode, message) in cases {
      try store.send("mode", .string(mode))
      XCTAssertThrowsError(try store.topView(), mode) { error in
        XCTAssertEqual("\(error)", message)
      }
      XCTAssertEqual(try relua.lua.currentRawStack().top, top, mode)
      try store.send("mode", .string("good"))
      XCTAssertEqual(try store.topView(), good, mode)
      XCTAssertEqual(try relua.lua.currentRawStack().top, top, mode)
    }
  }
}
