import ReluaInspector
import WebSocket
import XCTest

/// Who the inspector lets in: the token on every route, its own host name, WebSockets only from
/// its own page's origin.
final class InspectorAccessTests: XCTestCase {
  private var server: InspectorServer!

  override func setUp() async throws {
    server = try await InspectorServer.start()
  }

  override func tearDown() async throws {
    await server.stop()
  }

  private var port: UInt16 { server.port }
  private var token: String { server.token.hex }
  private var origin: String { "http://127.0.0.1:\(port)" }
  private var webSocketURL: String { "ws://127.0.0.1:\(port)/ws?token=\(token)" }

  func testTheAddressIsOnLoopbackWithA128BitToken() {
    XCTAssertEqual(server.url, "http://127.0.0.1:\(port)/?token=\(token)")
    XCTAssertNotNil(token.wholeMatch(of: /[0-9a-f]{32}/), token)
    XCTAssertNotEqual(InspectorToken().hex, InspectorToken().hex)
  }

  func testARequestWithoutTheTokenOrWithAWrongOneIsForbidden() async throws {
    let wrong = String(token.reversed())
    for target in ["/", "/?token=", "/?token=\(wrong)", "/?token=\(token)0", "/?token=\(token.prefix(31))", "/?other=\(token)"] {
      let response = try await LoopbackHTTP.get(port: port, target)
      XCTAssertEqual(response.status, 403, target)
      XCTAssertTrue(response.body.hasPrefix("403 Forbidden: this page needs the token"), response.body)
    }
  }

  func testEveryRouteNeedsTheTokenEvenOneThatDoesNotExist() async throws {
    for target in ["/app.js", "/style.css", "/ws", "/nothing-here", "/favicon.ico"] {
      let response = try await LoopbackHTTP.get(port: port, target)
      XCTAssertEqual(response.status, 403, target)
    }
    let missing = try await LoopbackHTTP.get(port: port, "/nothing-here?token=\(token)")
    XCTAssertEqual(missing.status, 404)
  }

  func testThePageWithTheTokenIsHTMLThatLoadsItsFilesWithTheToken() async throws {
    let page = try await LoopbackHTTP.get(port: port, "/?token=\(token)")
    XCTAssertEqual(page.status, 200)
    XCTAssertEqual(page.headers["content-type"], "text/html; charset=utf-8")
    XCTAssertTrue(page.body.hasPrefix("<!doctype html>"), page.body)
    XCTAssertTrue(page.body.contains("<title>relua inspector</title>"), page.body)
    XCTAssertTrue(page.body.contains("/app.js?token=\(token)"), page.body)
    XCTAssertTrue(page.body.contains("/style.css?token=\(token)"), page.body)
    XCTAssertEqual(page.headers["referrer-policy"], "no-referrer")
    XCTAssertEqual(page.headers["cache-control"], "no-store")
    XCTAssertTrue(page.headers["content-security-policy"]?.contains("connect-src ws://127.0.0.1:\(port);") ?? false)
    let script = try await LoopbackHTTP.get(port: port, "/app.js?token=\(token)")
    XCTAssertEqual(script.status, 200)
    XCTAssertEqual(script.headers["content-type"], "text/javascript; charset=utf-8")
    XCTAssertTrue(script.body.contains("new WebSocket("), script.body)
    let style = try await LoopbackHTTP.get(port: port, "/style.css?token=\(token)")
    XCTAssertEqual(style.status, 200)
    XCTAssertEqual(style.headers["content-type"], "text/css; charset=utf-8")
  }

  func testAnotherHostNameIsForbiddenEvenWithTheToken() async throws {
    // DNS rebinding: a page of evil.example made to resolve to 127.0.0.1.
    for host in ["evil.example:\(port)", "localhost:\(port)", "127.0.0.1:1"] {
      let response = try await LoopbackHTTP.get(port: port, "/?token=\(token)", host: host)
      XCTAssertEqual(response.status, 403, host)
    }
  }

  func testAWebSocketFromAForeignOriginOrWithoutOneIsRefused() async throws {
    for origin in ["http://evil.example", "http://127.0.0.1:\(port + 1)", "http://localhost:\(port)", "null", nil] {
      do {
        let connection = try await WebSocketConnection.connect(to: webSocketURL, origin: origin)
        connection.close()
        XCTFail("a WebSocket from \(origin ?? "no origin") was accepted")
      } catch {
        XCTAssertEqual("\(error)", "WebSocket: the server answered HTTP 403 instead of switching to WebSocket (\(webSocketURL))")
      }
    }
  }

  func testAWebSocketWithoutTheTokenIsRefusedEvenFromThePagesOrigin() async throws {
    let url = "ws://127.0.0.1:\(port)/ws?token=\(String(token.reversed()))"
    do {
      _ = try await WebSocketConnection.connect(to: url, origin: origin)
      XCTFail("a WebSocket without the token was accepted")
    } catch {
      XCTAssertEqual("\(error)", "WebSocket: the server answered HTTP 403 instead of switching to WebSocket (\(url))")
    }
  }

  func testAWebSocketFromThePagesOriginGetsTheHistory() async throws {
    let connection = try await WebSocketConnection.connect(to: webSocketURL, origin: origin)
    defer { connection.close() }
    var messages = connection.messages.makeAsyncIterator()
    guard case .text(let text)? = try await messages.next() else { return XCTFail("no history") }
    // No feature yet: no `feature`, no entries, nothing live.
    XCTAssertEqual(
      text, #"{"dropped":0,"entries":[],"live":{"actions":[],"effects":[],"export":{"actions":0,"since":"open"},"screens":[],"travel":true},"type":"history"}"#)
  }

  func testAPortThatIsTakenFailsAtOnceSayingSo() async throws {
    let started = ContinuousClock.now
    do {
      _ = try await InspectorServer.start(port: port)
      XCTFail("a second server on \(port) started")
    } catch {
      XCTAssertTrue("\(error)".hasPrefix("cannot start the inspector on 127.0.0.1:\(port): "), "\(error)")
      XCTAssertTrue("\(error)".contains("Address already in use"), "\(error)")
    }
    XCTAssertLessThan(ContinuousClock.now - started, .seconds(2))
  }
}
