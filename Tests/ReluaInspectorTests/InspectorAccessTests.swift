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

  func testAMethodOtherThanGETIs405AndAMalformedOrAmbiguousHeadIs400() async throws {
    func answer(_ head: String) async throws -> String {
      let client = try await RawClient.connect(port: port)
      defer { client.close() }
      try await client.send(Array(head.utf8))
      return String(decoding: try await client.readToEnd(), as: UTF8.self)
    }
    let host = "Host: 127.0.0.1:\(port)\r\n"
    for method in ["POST", "PUT", "DELETE", "HEAD", "OPTIONS"] {
      let response = try await answer("\(method) /?token=\(token) HTTP/1.1\r\n\(host)Content-Length: 0\r\n\r\n")
      XCTAssertTrue(response.hasPrefix("HTTP/1.1 405 Method Not Allowed\r\n"), "\(method): \(response)")
      XCTAssertTrue(response.contains("\r\nAllow: GET\r\n"), response)
    }
    // Without the token, 403 comes first, whatever the method.
    let anonymous = try await answer("POST / HTTP/1.1\r\n\(host)\r\n")
    XCTAssertTrue(anonymous.hasPrefix("HTTP/1.1 403 "), anonymous)
    for head in [
      "GET /?token=\(token) HTTP/1.1\r\n\(host)\(host)\r\n",  // two Hosts: which one was checked?
      "GET /?token=\(token) HTTP/1.1\r\n\(host) folded: line\r\n\r\n",
      "GET /?token=\(token)\r\n\(host)\r\n",
      "GET http://127.0.0.1:\(port)/?token=\(token) HTTP/1.1\r\n\(host)\r\n",
      "GET /?token=\(token) HTTP/2\r\n\(host)\r\n",
    ] {
      let response = try await answer(head)
      XCTAssertTrue(response.hasPrefix("HTTP/1.1 400 Bad Request\r\n"), "\(head.debugDescription): \(response)")
    }
    // /ws with the token and the page's origin but no handshake: 400; another version: 426.
    let origin = "Origin: http://127.0.0.1:\(port)\r\n"
    let plain = try await answer("GET /ws?token=\(token) HTTP/1.1\r\n\(host)\(origin)\r\n")
    XCTAssertTrue(plain.hasPrefix("HTTP/1.1 400 "), plain)
    let version = try await answer(
      "GET /ws?token=\(token) HTTP/1.1\r\n\(host)\(origin)Upgrade: websocket\r\nConnection: keep-alive, Upgrade\r\n"
        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 8\r\n\r\n")
    XCTAssertTrue(version.hasPrefix("HTTP/1.1 426 "), version)
    XCTAssertTrue(version.contains("\r\nSec-WebSocket-Version: 13\r\n"), version)
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
