import Foundation

/// A loopback server's page (the inspector's, `relua app`'s): `Page/body.html`, `app.js` and
/// `style.css`, resources of the server's target, read once when the server starts (a missing file
/// fails the start, not a request). The document around the body is the same for every page
/// (``document(title:body:token:)``): it loads the script and style sheet with the token too.
package struct LoopbackPage: Sendable {
  struct File: Sendable {
    var contents: Data
    var contentType: String
  }

  private let files: [String: File]
  /// The CSP's `img-src`: the page's own files (the inspector's); `relua app`'s page shows `ui.image` URLs too.
  package var imageSources = "'self' data:"

  static let names: [(path: String, resource: String, type: String)] = [
    ("/", "body.html", "text/html; charset=utf-8"),
    ("/app.js", "app.js", "text/javascript; charset=utf-8"),
    ("/style.css", "style.css", "text/css; charset=utf-8"),
  ]

  struct Missing: Error, CustomStringConvertible {
    var name: String
    var what: String
    var program: String
    var description: String { "\(what) is incomplete: \(name) is not among \(program)'s resources" }
  }

  /// The three files of `resources`' `Page/`, the body in a document titled `title`; `what` names
  /// the page when one is missing (`the inspector's page`, a resource of `program`).
  package init(token: LoopbackToken, resources: Bundle, title: String, what: String, program: String = "relua") throws {
    var files: [String: File] = [:]
    for (path, resource, type) in Self.names {
      guard let url = resources.resourceURL?.appendingPathComponent("Page").appendingPathComponent(resource),
        var text = try? String(contentsOf: url, encoding: .utf8)
      else { throw Missing(name: resource, what: what, program: program) }
      if resource == "body.html" { text = Self.document(title: title, body: text, token: token) }
      files[path] = File(contents: Data(text.utf8), contentType: type)
    }
    self.files = files
  }

  /// A page's HTML document: `body` (the elements inside `<body>`) under a head that loads
  /// `/style.css` and `/app.js` with the token.
  static func document(title: String, body: String, token: LoopbackToken) -> String {
    let title = title.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
    return """
      <!doctype html>
      <html lang="en">
      <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(title)</title>
        <link rel="icon" href="data:,">
        <link rel="stylesheet" href="/style.css?token=\(token.hex)">
        <script src="/app.js?token=\(token.hex)" defer></script>
      </head>
      <body>
      \(body)</body>
      </html>

      """
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
