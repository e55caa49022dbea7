import Foundation
import XCTest

@testable import Relua

/// `relua.ui.replHint`: text for the REPL only. The terminal draws it as text; its JSON says what
/// it is (`"kind": "replHint"`), so a page or a native view can leave it out; it sends nothing.
final class ReluaViewReplHintTests: XCTestCase {
  let tree = ReluaViewNode.vstack([.text("0 screenshots"), .replHint(#"(=store:post("userDidTakeScreenshot"))"#)])

  func testTheTerminalShowsItAsText() {
    XCTAssertEqual(tree.terminalText(), "0 screenshots\n(=store:post(\"userDidTakeScreenshot\"))")
    XCTAssertEqual(tree.commands(), [])
    XCTAssertNil(ReluaViewNode.replHint("x").actionPath)
  }

  func testItsJSONNamesItsKindAndReadsBack() throws {
    let json = try ReluaViewNode.replHint("type this").json(pretty: false)
    XCTAssertEqual(json, #"{"kind":"replHint","text":"type this"}"#)
    XCTAssertEqual(try JSONDecoder().decode(ReluaViewNode.self, from: Data(json.utf8)), .replHint("type this"))
  }

  func testAChangedHintIsOneReplacePatch() throws {
    let changed = ReluaViewNode.vstack([.text("0 screenshots"), .replHint("another")])
    let patches = ReluaViewPatch.changes(from: tree, to: changed)
    XCTAssertEqual(patches, [.replace(at: [1], node: .replHint("another"))])
    XCTAssertEqual(try tree.applying(patches), changed)
  }
}
