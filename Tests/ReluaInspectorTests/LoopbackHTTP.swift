import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A plain HTTP/1.1 GET on a loopback port, over a POSIX socket: the tests choose every header
/// (`Host` too, which URLSession would not let them), as an attacker's client would.
enum LoopbackHTTP {
  struct Response {
    var status: Int
    var headers: [String: String]
    var body: String
  }

  static func get(port: UInt16, _ target: String, host: String? = nil, headers: [String: String] = [:]) async throws -> Response {
    try await Task.detached { try getBlocking(port: port, target, host: host ?? "127.0.0.1:\(port)", headers: headers) }.value
  }

  struct Failure: Error, CustomStringConvertible { var description: String }

  /// A blocking socket connected to 127.0.0.1:`port`, whose reads give up after 10 s (the
  /// tests' raw clients share it).
  static func connectedSocket(port: UInt16) throws -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw Failure(description: "socket: \(errno)") }
    var timeout = timeval(tv_sec: 10, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else {
      let why = errno
      close(fd)
      throw Failure(description: "connect: \(why)")
    }
    return fd
  }

  private static func getBlocking(port: UInt16, _ target: String, host: String, headers: [String: String]) throws -> Response {
    let fd = try connectedSocket(port: port)
    defer { close(fd) }
    var request = "GET \(target) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n"
    for (name, value) in headers { request += "\(name): \(value)\r\n" }
    request += "\r\n"
    let bytes = Array(request.utf8)
    guard send(fd, bytes, bytes.count, 0) == bytes.count else { throw Failure(description: "send: \(errno)") }
    // The head, then Content-Length bytes of body (the server may keep the connection open).
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    var bodyStart: Int?
    var expected: Int?
    while true {
      if let bodyStart, let expected, received.count - bodyStart >= expected { break }
      let count = recv(fd, &buffer, buffer.count, 0)
      if count <= 0 { break }
      received += buffer[0..<count]
      if bodyStart == nil, let end = find([13, 10, 13, 10], in: received) {
        bodyStart = end + 4
        let head = String(decoding: received[0..<end], as: UTF8.self)
        expected = parseHeaders(head)["content-length"].flatMap { Int($0) } ?? 0
      }
    }
    guard let bodyStart else { throw Failure(description: "no response head: \(String(decoding: received, as: UTF8.self))") }
    let head = String(decoding: received[0..<(bodyStart - 4)], as: UTF8.self)
    let status = head.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    return Response(status: status, headers: parseHeaders(head), body: String(decoding: received[bodyStart...], as: UTF8.self))
  }

  private static func parseHeaders(_ head: String) -> [String: String] {
    var headers: [String: String] = [:]
    for line in head.components(separatedBy: "\r\n").dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    return headers
  }

  private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
    guard haystack.count >= needle.count else { return nil }
    for start in 0...(haystack.count - needle.count) where Array(haystack[start..<(start + needle.count)]) == needle {
      return start
    }
    return nil
  }
}
