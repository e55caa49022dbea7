import Foundation
import Relua
import XCTest

@testable import ReluaWebApp

/// `relua app` draws again only the screens whose state changed: a sheet's change leaves the
/// board under it alone; the board's change leaves the sheet alone unless the bar it gives the
/// sheet changed (`WebAppSession.draws` counts each place's view calls).
@MainActor
final class WebAppRedrawTests: XCTestCase {
  static let features = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Features")

  private func session() throws -> (WebAppSession, ReluaStore) {
    let runtime = try ReluaRuntime(scriptRoots: [Self.features.path])
    let store = try runtime.makeStore(try runtime.loadFeature(file: Self.features.appendingPathComponent("NoteBoard.lua").path))
    let session = WebAppSession(store: store, feed: WebAppFeed())
    session.refresh()
    return (session, store)
  }

  private func text(of place: String, in session: WebAppSession) -> String {
    session.shown.first { $0.place == place }?.tree?.allNodes.compactMap { node -> String? in
      if case .text(let text) = node { return text }
      return nil
    }.joined(separator: " | ") ?? "(not shown)"
  }

  func testASheetsChangeDoesNotDrawTheRootAgain() async throws {
    let (session, store) = try session()
    XCTAssertEqual(session.draws, ["": 1])
    session.refresh()  // nothing changed: nothing drawn
    XCTAssertEqual(session.draws, ["": 1])

    try store.send("openNote")  // the root's state: a sheet is there now
    session.refresh()
    XCTAssertEqual(session.draws, ["": 2, "destination.note": 1])

    try store.send("destination.note.setText", "milk")
    session.refresh()
    XCTAssertEqual(session.draws, ["": 2, "destination.note": 2])
    XCTAssertEqual(text(of: "destination.note", in: session), "Note: milk")
    XCTAssertEqual(text(of: "", in: session), "Count: 0")
  }

  func testTheRootsChangeDrawsTheSheetOnlyWhenItsBarChanged() async throws {
    let (session, store) = try session()
    try store.send("openNote")
    session.refresh()
    XCTAssertEqual(session.draws, ["": 2, "destination.note": 1])

    try store.send("increment")  // the root alone; it gives the sheet no bar
    session.refresh()
    XCTAssertEqual(session.draws, ["": 3, "destination.note": 1])
    XCTAssertEqual(text(of: "", in: session), "Count: 1")

    try store.send("toggleBar")  // the bar the root gives the sheet: the sheet is drawn with it
    session.refresh()
    XCTAssertEqual(session.draws, ["": 4, "destination.note": 2])
    let sheet = try XCTUnwrap(session.shown.first { $0.place == "destination.note" }?.tree)
    XCTAssertEqual(WebAppRedraw.bar(in: sheet, for: ""), [.button(label: "Done", action: ReluaViewAction(path: "done"))])

    try store.send("increment")  // the root again, its bar the same: the sheet is not drawn
    session.refresh()
    XCTAssertEqual(session.draws, ["": 5, "destination.note": 2])

    try store.send("toggleBar")  // the bar goes: the sheet is drawn without it
    session.refresh()
    XCTAssertEqual(session.draws, ["": 6, "destination.note": 3])
  }

  /// Records (Scripts/Features): a stack element's clock ticking draws that element alone, a sheet
  /// over it the sheet alone; a change of the shared record draws the list and the element. (A copy
  /// of the features in a temporary directory: its records.json is written beside the script.)
  func testAStackElementsChangeLeavesTheListUnderItAlone() async throws {
    let scripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Scripts/Features")
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("relua-redraw-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: root) }
    try FileManager.default.copyItem(at: scripts, to: root.appendingPathComponent("Features"))
    let runtime = try ReluaRuntime(scriptRoots: [root.path])
    let store = try runtime.makeStore(try runtime.loadFeature(file: root.appendingPathComponent("Features/Records.lua").path))
    let session = WebAppSession(store: store, feed: WebAppFeed())
    session.refresh()
    func send(_ action: String, _ payload: Value = .null) throws {
      try store.send(action, payload)
      session.refresh()
    }
    try send("add")
    try send("destination.form.binding.title", "Milk")  // the form sheet alone
    XCTAssertEqual(session.draws, ["": 2, "destination.form": 2])
    try send("destination.form.done")
    // (Its reading clock ticks after 1 s: the counts below are taken well before.)
    try send("open", .integer(1))  // the record added (ids from 1), pushed as element 0
    let detail = "path[id=0].detail"
    XCTAssertEqual(session.shown.map(\.place), ["", detail])
    XCTAssertEqual(session.draws, ["": 4, "destination.form": 2, detail: 1])
    try send(detail + ".timerTicked")  // the element's own state
    try send(detail + ".timerTicked")
    XCTAssertEqual(session.draws, ["": 4, "destination.form": 2, detail: 3])
    try send(detail + ".toggleFavourite")  // the shared record: the list shows it too
    XCTAssertEqual(session.draws, ["": 5, "destination.form": 2, detail: 4])
    try send(detail + ".edit")
    try send(detail + ".form.binding.notes", "semi-skimmed")  // a sheet over the element
    XCTAssertEqual(session.draws, ["": 5, "destination.form": 2, detail: 5, detail + ".form": 2])
    try send("path.popFrom", .integer(0))  // (its reading clock, a 1 s timer, ends with it)
    XCTAssertEqual(session.shown.map(\.place), [""])
  }

  func testPlacesAreStepsIntoThePresentersState() async {
    XCTAssertEqual(WebAppRedraw.steps(of: "destination.add"), [.init(key: "destination", eachElement: false), .init(key: "add", eachElement: false)])
    XCTAssertEqual(
      WebAppRedraw.steps(of: #"path[id="a.]b"].detail"#),
      [.init(key: "path", eachElement: true), .init(key: "detail", eachElement: false)])
  }
}
