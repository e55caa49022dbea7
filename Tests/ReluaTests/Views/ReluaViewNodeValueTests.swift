import Foundation
import XCTest

@testable import Relua

/// The tree as Swift values (issue #35): every kind of node reads back from its JSON, `allNodes`
/// and `actionPath` walk it, and `ReluaStore.perform` works each kind of control, refusing a bad
/// input with the state unchanged.
@MainActor
final class ReluaViewNodeValueTests: XCTestCase {
  /// One node of every kind, with payloads and binding values of several types.
  static let everyKind = ReluaViewNode.vstack([
    .text("Line one\nline two"),
    .hstack([
      .button(label: "+5", action: ReluaViewAction(path: "add", payload: .integer(5))),
      .button(label: "Clear", action: ReluaViewAction(path: "clear")),
      .link(label: "Open", action: ReluaViewAction(path: "rows[id=\"a\"].open", payload: .string("sheet"))),
    ]),
    .textField(label: "Title", binding: ReluaViewBinding(action: "binding.title", value: .string("Retro"))),
    .toggle(label: "Done", binding: ReluaViewBinding(action: "binding.done", value: .boolean(true))),
    .stepper(label: "Count", binding: ReluaViewBinding(action: "binding.count", value: .integer(-2))),
    .picker(label: "Theme", binding: ReluaViewBinding(action: "binding.theme", value: .string("dark")), options: ["light", "dark"]),
    .list([
      ReluaViewRow(id: .integer(1), content: .text("one")),
      ReluaViewRow(id: .string("b"), content: .image(url: "https://example.com/b.png", alt: "B")),
    ]),
    .section(title: "More", children: [.text("x"), .vstack([])]),
    .image(url: "https://example.com/a.png", alt: "A"),
  ])

  func testEveryKindOfNodeReadsBackFromItsJSON() throws {
    let tree = Self.everyKind
    XCTAssertEqual(Set(tree.allNodes.map(\.kind)), [
      "text", "vstack", "hstack", "button", "link", "textField", "toggle", "stepper", "picker", "list", "section", "image",
    ])
    for node in tree.allNodes {
      for pretty in [true, false] {
        let json = try node.json(pretty: pretty)
        XCTAssertEqual(try JSONDecoder().decode(ReluaViewNode.self, from: Data(json.utf8)), node, json)
        XCTAssertTrue(json.contains("\"kind\"") && json.contains(node.kind), json)
      }
    }
    XCTAssertThrowsError(try JSONDecoder().decode(ReluaViewNode.self, from: Data(#"{"kind":"slider"}"#.utf8)))
    XCTAssertThrowsError(try JSONDecoder().decode(ReluaViewNode.self, from: Data(#"{"kind":"button","label":"x"}"#.utf8)))
  }

  func testAllNodesIsDepthFirstAndActionPathNamesEachControlsAction() throws {
    let tree = Self.everyKind
    XCTAssertEqual(tree.allNodes.count, 17)
    XCTAssertEqual(tree.allNodes.first, tree)
    XCTAssertEqual(tree.allNodes.map(\.kind).prefix(6), ["vstack", "text", "hstack", "button", "button", "link"])
    XCTAssertEqual(tree.allNodes.compactMap(\.actionPath), [
      "add", "clear", "rows[id=\"a\"].open", "binding.title", "binding.done", "binding.count", "binding.theme",
    ])
    XCTAssertNil(ReluaViewNode.text("x").actionPath)
    XCTAssertNil(ReluaViewNode.list([]).actionPath)
    XCTAssertEqual(ReluaViewNode.list([ReluaViewRow(id: .integer(1), content: .text("a"))]).children, [.text("a")])
    XCTAssertEqual(ReluaViewNode.image(url: "u", alt: "a").children, [])
  }

  static let controls = """
    local relua = require "relua"
    local ui = relua.ui
    return relua.feature "Controls" {
      state = { title = "", done = false, count = 0, theme = "light", pressed = 0 },
      actions = { press = {} },
      bindable = { "title", "done", "count", "theme" },
      reduce = relua.on { press = function(s) s.pressed = s.pressed + 1 end },
      view = function(s)
        return ui.vstack {
          ui.text("Pressed " .. s.pressed),
          ui.button("Press", "press"),
          ui.textField("Title", ui.binding.title),
          ui.toggle("Done", ui.binding.done),
          ui.stepper("Count", ui.binding.count),
          ui.picker("Theme", ui.binding.theme, { "light", "dark" }),
        }
      end,
    }
    """

  private func controlsStore() throws -> (ReluaStore, [ReluaViewNode]) {
    let relua = try ReluaRuntime()
    let store = try relua.makeStore(try relua.loadFeature(source: Self.controls, name: "Controls.lua"))
    return (store, try XCTUnwrap(try store.topView()).children)
  }

  func testPerformingEachControlSendsItsAction() async throws {
    let (store, nodes) = try controlsStore()
    try store.perform(nodes[1])
    try store.perform(nodes[2], input: .string("Retro"))
    try store.perform(nodes[3], input: .boolean(true))
    try store.perform(nodes[4], input: .integer(3))
    try store.perform(nodes[5], input: .string("dark"))
    XCTAssertEqual(store.state[key: "pressed"], .integer(1))
    XCTAssertEqual(store.state[key: "title"], .string("Retro"))
    XCTAssertEqual(store.state[key: "done"], .boolean(true))
    XCTAssertEqual(store.state[key: "count"], .integer(3))
    XCTAssertEqual(store.state[key: "theme"], .string("dark"))
    // The tree drawn again shows the new values.
    XCTAssertEqual(try store.topView()?.children[4], .stepper(label: "Count", binding: ReluaViewBinding(action: "binding.count", value: .integer(3))))
  }

  func testAStepperGivenTextIsRefusedAndTheStateIsUnchanged() async throws {
    let (store, nodes) = try controlsStore()
    let before = store.state
    XCTAssertThrowsError(try store.perform(nodes[4], input: .string("three")))
    XCTAssertThrowsError(try store.perform(nodes[3], input: .string("yes")))
    XCTAssertEqual(store.state, before)
  }

  func testANodeThatSendsNothingThrows() async throws {
    let (store, nodes) = try controlsStore()
    let before = store.state
    for node in [nodes[0], ReluaViewNode.vstack(nodes), .list([]), .section(title: "S", children: []), .image(url: "u", alt: "a")] {
      XCTAssertThrowsError(try store.perform(node)) { error in
        XCTAssertTrue("\(error)".contains("sends no action"), "\(error)")
      }
    }
    XCTAssertEqual(store.state, before)
  }
}
