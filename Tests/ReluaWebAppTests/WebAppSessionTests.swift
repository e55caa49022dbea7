import Foundation
import Relua
import XCTest

@testable import ReluaWebApp

/// `relua app`'s server without a socket: a page's messages decoded and checked, a node of the
/// tree last sent worked, bad ones answered with the REPL's error and the state unchanged.
@MainActor
final class WebAppSessionTests: XCTestCase {
  static let scripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Scripts").path

  func session(_ file: String = "Features/GuessingGame.lua") throws -> (WebAppSession, ReluaRuntime) {
    let runtime = try ReluaRuntime(scriptRoots: [Self.scripts])
    let store = try runtime.makeStore(try runtime.loadFeature(file: Self.scripts + "/" + file))
    let session = WebAppSession(store: store, feed: WebAppFeed())
    session.refresh()
    return (session, runtime)
  }

  func testAPageMessageIsDecodedAndChecked() async throws {
    XCTAssertEqual(
      try WebAppPageMessage(parsing: #"{"screen":"","at":[1,1,0]}"#), .work(screen: "", at: [1, 1, 0], input: .null))
    XCTAssertEqual(try WebAppPageMessage(parsing: #"{"screen":"","at":[],"input":"x"}"#), .work(screen: "", at: [], input: "x"))
    XCTAssertEqual(try WebAppPageMessage(parsing: #"{"close":"destination.results"}"#), .close(screen: "destination.results"))
    XCTAssertEqual(try WebAppPageMessage(parsing: #"{"alert":"alert","button":1}"#), .alert(screen: "alert", button: 1))
    let refused = [
      "", "not json", "[1]", "{}", #"{"screen":1,"at":[]}"#, #"{"screen":"","at":"0"}"#, #"{"screen":"","at":[-1]}"#,
      #"{"screen":"","at":[1.5]}"#, #"{"screen":"","at":[9999999999]}"#, #"{"screen":"","at":[],"extra":1}"#,
      #"{"close":""," more":1}"#, #"{"alert":"a"}"#, #"{"alert":"a","button":"x"}"#,
      "{\"screen\":\"\",\"at\":[" + Array(repeating: "0", count: 65).joined(separator: ",") + "]}",
      "{\"close\":\"" + String(repeating: "x", count: 70_000) + "\"}",
    ]
    for text in refused {
      XCTAssertThrowsError(try WebAppPageMessage(parsing: text), text.prefix(60).description)
    }
  }

  func testAButtonOfTheTreeIsWorked() async throws {
    let (session, _) = try session()
    // Game: vstack { text, vstack { text, hstack { +, -, Next } }, Results }
    let answer = session.answer(#"{"screen":"","at":[1,1,0]}"#)
    XCTAssertTrue(answer.contains(#""type":"ok""#), answer)
    XCTAssertEqual(session.store.state[key: "counter"][key: "count"], .integer(1))
    _ = session.answer(#"{"screen":"","at":[2]}"#)  // Results
    XCTAssertEqual(session.shown.map(\.place), ["", "destination.results"])
    XCTAssertEqual(session.shown.last?.kind, .sheet)
    _ = session.answer(#"{"close":"destination.results"}"#)
    XCTAssertEqual(session.shown.map(\.place), [""])
  }

  func testABadMessageIsAnsweredAndChangesNothing() async throws {
    let (session, _) = try session()
    let before = session.store.state
    for text in [#"{"screen":"","at":[7]}"#, #"{"screen":"","at":[0]}"#, #"{"screen":"nowhere","at":[]}"#, "nonsense", #"{"close":""}"#] {
      let answer = session.answer(text)
      XCTAssertTrue(answer.contains(#""type":"error""#), answer)
    }
    XCTAssertEqual(session.store.state, before)
  }

  func testAnInputTheTypedActionRefusesIsTheSendsError() async throws {
    let (session, runtime) = try session()
    let feature = try runtime.loadFeature(source: """
      local relua = require "relua"
      local ui = relua.ui
      return relua.feature "Form" {
        state = { minutes = 5 },
        actions = {},
        bindable = { "minutes" },
        reduce = relua.on {},
        view = function(s) return ui.vstack { ui.stepper("Minutes", ui.binding.minutes) } end,
      }
      """, name: "Form.lua")
    let form = WebAppSession(store: try runtime.makeStore(feature), feed: WebAppFeed())
    form.refresh()
    XCTAssertTrue(form.answer(#"{"screen":"","at":[0],"input":6}"#).contains(#""type":"ok""#))
    XCTAssertEqual(form.store.state[key: "minutes"], .integer(6))
    let refused = form.answer(#"{"screen":"","at":[0],"input":"six"}"#)
    XCTAssertTrue(refused.contains(#""type":"error""#) && refused.contains(#""at":[0]"#), refused)
    XCTAssertEqual(form.store.state[key: "minutes"], .integer(6))
    _ = session
  }

  func testAChangeIsSentAsAPatchOfTheScreen() async throws {
    let (session, _) = try session()
    let (messages, _) = session.feed.subscribe()
    _ = session.answer(#"{"screen":"","at":[1,1,0]}"#)
    session.feed.close()
    var texts: [String] = []
    for await text in messages { texts.append(text) }
    XCTAssertTrue(texts.first?.contains(#""type":"screens""#) == true, "\(texts)")
    XCTAssertTrue(texts.contains { $0.contains(#""type":"patch""#) && $0.contains(#""op":"#) }, "\(texts)")
  }

  func testOneClickOnALongListSendsThatRowsPatchNotThePage() async throws {
    let manyRows = URL(fileURLWithPath: Self.scripts).deletingLastPathComponent().appendingPathComponent("Tests/app/Features/ManyRows.lua").path
    let runtime = try ReluaRuntime(scriptRoots: [Self.scripts])
    let session = WebAppSession(store: try runtime.makeStore(try runtime.loadFeature(file: manyRows)), feed: WebAppFeed())
    session.refresh()
    let (messages, _) = session.feed.subscribe()
    // ManyRows: vstack { Add, list { hstack { text, +1, Remove } … } }: row 151's +1.
    _ = session.answer(#"{"screen":"","at":[1,150,1]}"#)
    session.feed.close()
    var texts: [String] = []
    for await text in messages { texts.append(text) }
    let page = try XCTUnwrap(texts.first)
    let patch = try XCTUnwrap(texts.first { $0.contains(#""type":"patch""#) })
    XCTAssertTrue(patch.contains("Row 151: 1"), patch)
    XCTAssertLessThan(patch.utf8.count * 100, page.utf8.count, "the patch (\(patch.utf8.count) bytes) beside the page (\(page.utf8.count))")
  }
}
