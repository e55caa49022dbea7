import Foundation

/// A request as a loopback server reads it: the request line and headers of an HTTP/1.x head, no
/// body (it serves GETs only and never reads one). What `LoopbackAccess` and the
/// routes look at.
package struct LoopbackHTTPRequest: Sendable, Equatable {
  package var method: String
  /// The target's path, as sent (`/app.js`).
  package var path: String
  /// The query's fields, percent-decoded; the first of a name wins.
  package var query: [String: String]
  /// The headers, by lowercased name.
  package var headers: [String: String]

  package init(method: String = "GET", path: String, query: [String: String] = [:], headers: [String: String] = [:]) {
    self.method = method
    self.path = path
    self.query = query
    self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
  }

  /// The header `name` (any case), or nil.
  package func header(_ name: String) -> String? { headers[name.lowercased()] }

  /// Headers that may appear once only: two `Host`s (or `Origin`s) could be read one way by the
  /// checks and another by whatever came next, so such a head is refused.
  static let single: Set<String> = ["host", "origin", "upgrade", "connection", "sec-websocket-key", "sec-websocket-version"]

  /// Parses a head (`SocketReader.head`: up to and including the blank line); nil when it is
  /// not a well-formed HTTP/1.0 or 1.1 request head (400).
  package init?(head: [UInt8]) {
    guard let text = String(validating: head, as: UTF8.self), text.hasSuffix("\r\n\r\n") else { return nil }
    // (Split on the bytes' CRLF: in a Swift string "\r\n" is one character.)
    var lines = text.components(separatedBy: "\r\n")
    lines.removeLast(2)  // the blank line's
    guard !lines.isEmpty, !lines.contains(where: { $0.contains("\r") || $0.contains("\n") }) else { return nil }
    let requestLine = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: false)
    guard requestLine.count == 3, ["HTTP/1.1", "HTTP/1.0"].contains(requestLine[2]),
      !requestLine[0].isEmpty, requestLine[0].allSatisfy({ $0.isLetter && $0.isASCII }),
      requestLine[1].hasPrefix("/")
    else { return nil }
    method = String(requestLine[0])
    let target = requestLine[1]
    let pathEnd = target.firstIndex(of: "?") ?? target.endIndex
    path = String(target[..<pathEnd])
    query = [:]
    if pathEnd < target.endIndex {
      for field in target[target.index(after: pathEnd)...].split(separator: "&") {
        let parts = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard let name = parts[0].removingPercentEncoding else { continue }
        let value = parts.count > 1 ? parts[1].replacingOccurrences(of: "+", with: " ").removingPercentEncoding : ""
        if query[name] == nil, let value { query[name] = value }
      }
    }
    headers = [:]
    for line in lines {
      // No folded lines (obsolete), no header without a name or a colon.
      guard let colon = line.firstIndex(of: ":"), colon > line.startIndex,
        !line[..<colon].contains(where: { $0 == " " || $0 == "\t" })
      else { return nil }
      let name = line[..<colon].lowercased()
      let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      if let earlier = headers[name] {
        if Self.single.contains(name) { return nil }
        headers[name] = earlier + ", " + value
      } else {
        headers[name] = value
      }
    }
  }
}

/// A response a loopback server writes, always closing the connection after it (one request per
/// connection: nothing to read after the head, no pipelining to get wrong).
package struct LoopbackHTTPResponse: Sendable {
  package var status: Int
  package var headers: [(name: String, value: String)]
  package var body: Data

  package init(status: Int, headers: [(name: String, value: String)] = [], body: Data = Data()) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// A short plain-text response: `404 Not Found`.
  package static func text(_ status: Int, _ text: String? = nil, headers: [(name: String, value: String)] = []) -> LoopbackHTTPResponse {
    LoopbackHTTPResponse(
      status: status,
      headers: [("Content-Type", "text/plain; charset=utf-8"), ("Cache-Control", "no-store")] + headers,
      body: Data("\(status) \(reason(status))\(text.map { ": " + $0 } ?? "")\n".utf8))
  }

  package func header(_ name: String) -> String? {
    headers.first { $0.name.lowercased() == name.lowercased() }?.value
  }

  /// The bytes on the wire: status line, headers, `Content-Length`, `Connection: close`, body.
  package var encoded: [UInt8] {
    var head = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
    for (name, value) in headers where !["content-length", "connection"].contains(name.lowercased()) {
      head += "\(name): \(value)\r\n"
    }
    head += "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
    return Array(head.utf8) + body
  }

  static func reason(_ status: Int) -> String {
    switch status {
    case 101: "Switching Protocols"
    case 200: "OK"
    case 400: "Bad Request"
    case 403: "Forbidden"
    case 404: "Not Found"
    case 405: "Method Not Allowed"
    case 426: "Upgrade Required"
    case 431: "Request Header Fields Too Large"
    case 503: "Service Unavailable"
    default: "Status"
    }
  }
}
