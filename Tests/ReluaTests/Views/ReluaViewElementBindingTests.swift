import XCTest

@testable import Relua

/// A text field bound into one element of a list (`binding.syncUp.attendees:at(id).name`, TCA's
/// `ForEach($syncUp.attendees) { $attendee in TextField("Name", text: $attendee.name) }`):
/// `ReluaStore.perform` on its node sets that element's field and no other.
@MainActor
final class ReluaViewElementBindingTests: XCTestCase {
  static let form = """
    local relua = require "relua"
    local ui = relua.ui
    return relua.feature "Form" {
      state = { syncUp = { attendees = { { id = "a1", name = "Blob" }, { id = "a2", name = "Blob Jr" } } } },
      actions = {},
      bindable = { "syncUp" },
      view = function(s)
        return ui.list(s.syncUp.attendees, function(attendee)
          return ui.textField("Name", ui.binding.syncUp.attendees:at(attendee.id).name)
        end)
      end,
    }
    """

  private func store() throws -> ReluaStore {
    let relua = try ReluaRuntime()
    return try relua.makeStore(try relua.loadFeature(source: Self.form, name: "Form.lua"))
  }

  private func names(_ store: ReluaStore) -> [Value] {
    (0..<2).map { store.state[key: "syncUp"][key: "attendees"][$0][key: "name"] }
  }

  func testEachRowsFieldIsBoundToItsElement() async throws {
    let store = try store()
    let tree = try XCTUnwrap(try store.topView())
    XCTAssertEqual(tree, .list([
      ReluaViewRow(id: .string("a1"), content: .textField(
        label: "Name", binding: ReluaViewBinding(action: #"binding.syncUp.attendees[id="a1"].name"#, value: .string("Blob")))),
      ReluaViewRow(id: .string("a2"), content: .textField(
        label: "Name", binding: ReluaViewBinding(action: #"binding.syncUp.attendees[id="a2"].name"#, value: .string("Blob Jr")))),
    ]))
  }

  func testPerformingTheFieldSetsThatElementsName() async throws {
    let store = try store()
    let fields = try XCTUnwrap(try store.topView()).allNodes.filter { if case .textField = $0 { true } else { false } }
    XCTAssertEqual(fields.count, 2)
    try store.perform(fields[1], input: .string("Blob Sr"))
    XCTAssertEqual(names(store), [.string("Blob"), .string("Blob Sr")])
    // The redrawn tree shows the new value.
    guard case .list(let rows)? = try store.topView(), case .textField(_, let binding) = rows[1].content else {
      return XCTFail("a list of text fields expected")
    }
    XCTAssertEqual(binding.value, .string("Blob Sr"))
  }

  func testSwiftSendsTheSamePath() async throws {
    let store = try store()
    try store.send(#"binding.syncUp.attendees[id="a1"].name"#, .string("Blob Esq"))
    XCTAssertEqual(names(store), [.string("Blob Esq"), .string("Blob Jr")])
  }

  func testAWrongInputOrAGoneElementThrowsAndChangesNothing() async throws {
    let store = try store()
    let field = try XCTUnwrap(try store.topView()).allNodes.first { if case .textField = $0 { true } else { false } }
    let before = store.state
    XCTAssertThrowsError(try store.perform(try XCTUnwrap(field), input: .integer(3))) { error in
      XCTAssertTrue("\(error)".contains(#"state.syncUp.attendees[id="a1"].name holds string "Blob", got integer 3"#), "\(error)")
    }
    let gone = ReluaViewNode.textField(
      label: "Name", binding: ReluaViewBinding(action: #"binding.syncUp.attendees[id="zz"].name"#, value: .null))
    XCTAssertThrowsError(try store.perform(gone, input: .string("x"))) { error in
      XCTAssertTrue("\(error)".contains(#"has no element with id "zz" (its ids: "a1", "a2")"#), "\(error)")
    }
    XCTAssertEqual(store.state, before)
  }
}
