import Foundation

/// A loopback server's page (the inspector's, `relua app`'s): `Page/index.html`, `app.js` and
/// `style.css`, resources of the server's target, read once when the server starts (a missing file fails the start, not a request). The page
/// reaches its script and style sheet with the token too (`{{TOKEN}}` in index.html).
package struct LoopbackPage: Sendable {
  struct File: Sendable {
    var contents: Data
    var contentType: String
  }

  private let files: [String: File]
  /// The CSP's `img-src`: the page's own files (the inspector's); `relua app`'s page shows `ui.image` URLs too.
  package var imageSources = "'self' data:"

  static let names: [(path: String, resource: String, type: String)] = [
    ("/", "index.html", "text/html; charset=utf-8"),
    ("/app.js", "app.js", "text/javascript; charset=utf-8"),
    ("/style.css", "style.css", "text/css; charset=utf-8"),
  ]

  struct Missing: Error, CustomStringConvertible {
    var name: String
    var what: String
    var program: String
    var description: String { "\(what) is incomplete: \(name) is not among \(program)'s resources" }
  }

  /// The three files of `resources`' `Page/`; `what` names the page when one is missing (`the
  /// inspector's page`, a resource of `program`).
  package init(token: LoopbackToken, resources: Bundle, what: String, program: String = "relua") throws {
    var files: [String: File] = [:]
    for (path, resource, type) in Self.names {
      guard let url = resources.resourceURL?.appendingPathComponent("Page").appendingPathComponent(resource),
        var text = try? String(contentsOf: url, encoding: .utf8)
      else { throw Missing(name: resource, what: what, program: program) }
      if resource == "index.html" { text = text.replacingOccurrences(of: "{{TOKEN}}", with: token.hex) }
      files[path] = File(contents: Data(text.utf8), contentType: type)
    }
    self.files = files
  }

  /// The file served at `path`, or nil.
  func response(for path: String, origin: String) -> LoopbackHTTPResponse? {
    guard let file = files[path] else { return nil }
    let webSocketOrigin = origin.replacingOccurrences(of: "http://", with: "ws://")
    return LoopbackHTTPResponse(
      status: 200,
      headers: [
        ("Content-Type", file.contentType),
        ("Cache-Control", "no-store"),
        // Nothing but its own files and its WebSocket; no framing; the token never leaves in a Referer.
        ("Content-Security-Policy",
          "default-src 'none'; script-src 'self'; style-src 'self'; img-src \(imageSources); connect-src \(webSocketOrigin); "
          + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"),
        ("Referrer-Policy", "no-referrer"),
        ("X-Content-Type-Options", "nosniff"),
        ("X-Frame-Options", "DENY"),
      ],
      body: file.contents)
  }
}
