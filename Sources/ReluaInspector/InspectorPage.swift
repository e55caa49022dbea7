import Foundation

/// The inspector's page: `Page/index.html`, `app.js` and `style.css`, the target's resources,
/// read once when the server starts (a missing file fails the start, not a request). The page
/// reaches its script and style sheet with the token too (`{{TOKEN}}` in index.html).
package struct InspectorPage: Sendable {
  struct File: Sendable {
    var contents: Data
    var contentType: String
  }

  private let files: [String: File]
  /// The CSP's `img-src`: the inspector's own files; `relua app`'s page shows `ui.image` URLs too.
  package var imageSources = "'self' data:"

  static let names: [(path: String, resource: String, type: String)] = [
    ("/", "index.html", "text/html; charset=utf-8"),
    ("/app.js", "app.js", "text/javascript; charset=utf-8"),
    ("/style.css", "style.css", "text/css; charset=utf-8"),
  ]

  struct Missing: Error, CustomStringConvertible {
    var name: String
    var what = "the inspector's page"
    var description: String { "\(what) is incomplete: \(name) is not among relua's resources" }
  }

  package init(token: InspectorToken) throws {
    try self.init(token: token, resources: Bundle.module, what: "the inspector's page")
  }

  /// Another page of the same three files, from `resources`' `Page/` (`relua app`'s).
  package init(token: InspectorToken, resources: Bundle, what: String) throws {
    var files: [String: File] = [:]
    for (path, resource, type) in Self.names {
      guard let url = resources.resourceURL?.appendingPathComponent("Page").appendingPathComponent(resource),
        var text = try? String(contentsOf: url, encoding: .utf8)
      else { throw Missing(name: resource, what: what) }
      if resource == "index.html" { text = text.replacingOccurrences(of: "{{TOKEN}}", with: token.hex) }
      files[path] = File(contents: Data(text.utf8), contentType: type)
    }
    self.files = files
  }

  /// The file served at `path`, or nil.
  func response(for path: String, origin: String) -> InspectorHTTPResponse? {
    guard let file = files[path] else { return nil }
    let webSocketOrigin = origin.replacingOccurrences(of: "http://", with: "ws://")
    return InspectorHTTPResponse(
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
