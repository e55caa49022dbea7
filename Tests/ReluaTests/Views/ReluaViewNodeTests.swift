import Foundation
import XCTest

@testable import Relua

/// Views as a tree for a Swift program (issue #35): `ReluaStore.view(of:)` gives the screen's
/// `ReluaViewNode`, `perform` works one of its controls, validated as a typed action is.
@MainActor
final class ReluaViewNodeTests: XCTestCase {
  static let editor = """
    local relua = require "relua"
    local ui = relua.ui
    local Edit = relua.feature "Edit" {
      state = { title = "" },
      actions = { save = {} },
      bindable = { "title" },
      reduce = relua.on { save = function() end },
      view = function(s) return ui.vstack { ui.textField("Title", ui.binding.title), ui.button("Save", "save") } end,
    }
    return relua.feature "Editor" {
      state = { count = 0, edit = nil },
      actions = { add = "integer", open = {} },
      compose = { relua.presents("edit", Edit) },
      reduce = relua.on {
        add = function(s, n) s.count = s.count + n end,
        open = function(s) s.edit = { title = "Retro" } end,
      },
      view = function(s)
        return ui.vstack { ("Count: %d"):format(s.count), ui.hstack { ui.button("+5", "add", 5), ui.link("Edit", "open") } }
      end,
    }
    """

  private func store() throws -> ReluaStore {
    let relua = try ReluaRuntime()
    return try relua.makeStore(try relua.loadFeature(source: Self.editor, name: "Editor.lua"))
  }

  func testTheRootsTreeIsPlainValues() async throws {
    let store = try store()
    let tree = try XCTUnwrap(try store.topView())
    XCTAssertEqual(tree, .vstack([
      .text("Count: 0"),
      .hstack([
        .button(label: "+5", action: ReluaViewAction(path: "add", payload: .integer(5))),
        .link(label: "Edit", action: ReluaViewAction(path: "open")),
      ]),
    ]))
    XCTAssertEqual(tree.terminalText(), "Count: 0\n[+5 :add 5] [Edit › :open]")
    XCTAssertEqual(tree.commands(), [":add", ":open"])
  }

  func testAPresentedScreensActionsArePathsFromTheRoot() async throws {
    let store = try store()
    try store.send("open")
    let screen = try XCTUnwrap(store.screens.last)
    let tree = try XCTUnwrap(try store.view(of: screen))
    XCTAssertEqual(tree, .vstack([
      .textField(label: "Title", binding: ReluaViewBinding(action: "edit.binding.title", value: .string("Retro"))),
      .button(label: "Save", action: ReluaViewAction(path: "edit.save")),
    ]))
    // The REPL writes them relative to the screen on top.
    XCTAssertEqual(tree.terminalText(screenPrefix: screen.actionPrefix), "Title: [Retro] (:binding.title \"…\")\n[Save :save]")
  }

  func testPerformingAButtonSendsItsActionAndPayload() async throws {
    let store = try store()
    let tree = try XCTUnwrap(try store.topView())
    let plus = try XCTUnwrap(tree.allNodes.first { if case .button = $0 { true } else { false } })
    try store.perform(plus)
    try store.perform(plus)
    XCTAssertEqual(store.state[key: "count"], .integer(10))
  }

  func testPerformingABoundControlSendsItsBindingWithTheInput() async throws {
    let store = try store()
    try store.send("open")
    let field = try XCTUnwrap(try store.topView()?.allNodes.first { if case .textField = $0 { true } else { false } })
    try store.perform(field, input: .string("Planning"))
    XCTAssertEqual(store.state[key: "edit"][key: "title"], .string("Planning"))
  }

  func testABadActionThrowsAndLeavesTheStateAsItWas() async throws {
    let store = try store()
    let before = store.state
    let bad = ReluaViewNode.button(label: "?", action: ReluaViewAction(path: "add", payload: .string("five")))
    XCTAssertThrowsError(try store.perform(bad)) { error in
      XCTAssertTrue("\(error)".contains("expected integer"), "\(error)")
    }
    XCTAssertThrowsError(try store.perform(.button(label: "?", action: ReluaViewAction(path: "nope"))))
    XCTAssertThrowsError(try store.perform(.text("not a control")))
    XCTAssertEqual(store.state, before)
  }

  func testTheJSONIsStableAndReadsBack() async throws {
    let store = try store()
    let tree = try XCTUnwrap(try store.topView())
    let json = try tree.json()
    XCTAssertEqual(json, try tree.json())
    XCTAssertTrue(json.contains("\"payload\" : \"5\""), json)
    XCTAssertEqual(try JSONDecoder().decode(ReluaViewNode.self, from: Data(json.utf8)), tree)
    let row = ReluaViewNode.list([ReluaViewRow(id: .string("a"), content: .image(url: "https://x/y.png", alt: "y"))])
    XCTAssertEqual(try JSONDecoder().decode(ReluaViewNode.self, from: Data(try row.json().utf8)), row)
  }

  func testAFeatureWithoutAViewHasNoTree() async throws {
    let relua = try ReluaRuntime()
    let store = try relua.makeStore(try relua.loadFeature(
      source: "return require('relua').feature 'Bare' { state = { n = 0 }, actions = {} }", name: "Bare.lua"))
    XCTAssertNil(try store.topView())
  }

  /// A sheet's toolbar comes from its presenter's view: on the sheet's tree, sending the
  /// presenter's actions; the presenter's own tree draws nothing of it.
  func testASheetsToolbarIsItsPresentersAndWorksFromSwift() async throws {
    let relua = try ReluaRuntime()
    let store = try relua.makeStore(try relua.loadFeature(source: """
      local relua = require "relua"
      local ui = relua.ui
      local Form = relua.feature "Form" {
        state = { title = "" }, bindable = { "title" },
        view = function(s) return ui.textField("Title", ui.binding.title) end,
      }
      return relua.feature "List" {
        state = { items = {}, destination = nil },
        actions = { add = {}, confirm = {} },
        compose = { relua.presents("destination", { form = Form }) },
        reduce = relua.on {
          add = function(s) s.destination = { form = { title = "" } } end,
          confirm = function(s) s.items[#s.items + 1] = s.destination.form.title; s.destination = nil end,
        },
        view = function(s)
          return ui.vstack { ui.button("New", "add"), s.destination and ui.toolbar("destination.form", { ui.button("Add", "confirm") }) }
        end,
      }
      """, name: "List.lua"))
    try store.perform(try XCTUnwrap(store.topView()?.children.first))
    let sheet = try XCTUnwrap(store.screens.last)
    XCTAssertEqual(sheet.place, "destination.form")
    let tree = try XCTUnwrap(store.view(of: sheet))
    XCTAssertEqual(tree.children.first, .toolbar(screen: "", items: [.button(label: "Add", action: ReluaViewAction(path: "confirm"))]))
    let root = try XCTUnwrap(store.view(of: store.screens[0]))
    XCTAssertEqual(root.drawnNodes.compactMap(\.actionPath), ["add"], "the presenter draws nothing of the sheet's bar")
    guard case .textField(_, let title) = tree.children[1] else { return XCTFail("\(tree)") }
    try store.perform(tree.children[1], input: "Milk")
    XCTAssertEqual(title.action, "destination.form.binding.title")
    try store.perform(try XCTUnwrap(tree.children.first?.children.first))
    XCTAssertEqual(store.state[key: "items"], .array(["Milk"]))
    XCTAssertEqual(store.screens.count, 1)
  }
}
