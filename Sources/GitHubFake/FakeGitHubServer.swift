import Foundation
import LoopbackListener
#if canImport(Glibc)
import Glibc
#endif

/// A real HTTP/1.1 server on 127.0.0.1 (an ephemeral port) that answers like GitHub's
/// `GET /search/repositories` from the recorded bodies of its `Fixtures/`, for tests and
/// offline demos. Written on POSIX sockets (no SwiftNIO: its build costs minutes on CI).
///
/// - Page 1 of any query is the recorded example (its items' ids offset by the query, so queries
///   differ); other pages are made from it, `perPage` items with distinct ids, up to `totalCount`.
/// - A page past GitHub's 1000-result cap answers the recorded 422; a blank `q` the 422 missing-q.
/// - `script(_:)` queues behaviours for the next requests: a status with a body, a delay, a
///   malformed body, a dropped connection, primary or secondary rate limits.
/// - Every request is recorded (path, query items, headers) for tests to inspect.
public final class FakeGitHubServer: @unchecked Sendable {
  public enum Behaviour: Sendable {
    case status(Int, body: String, headers: [String: String] = [:])
    case delay(Double)
    case malformedBody
    case dropConnection
    case rateLimitPrimary(resetIn: Double)
    case rateLimitSecondary(retryAfter: Double)
  }

  public struct Request: Sendable {
    public var method: String
    public var path: String
    public var query: [String: String]
    public var headers: [String: String]
  }

  public var totalCount: Int
  private let lock = NSLock()
  private var queued: [Behaviour] = []
  private var recorded: [Request] = []
  private let listener = LoopbackListener()
  public private(set) var port: UInt16 = 0

  public init(totalCount: Int = 40) {
    self.totalCount = totalCount
  }

  public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

  public var requests: [Request] { lock.withLock { recorded } }

  /// Queues behaviours, used one per request in order (delays apply to the next answer).
  public func script(_ behaviours: Behaviour...) { lock.withLock { queued += behaviours } }

  /// Starts listening (port 0: the system picks one) and returns the port.
  @discardableResult
  public func start(port requested: UInt16 = 0) throws -> UInt16 {
    do {
      port = try listener.start(port: requested) { [self] client in serve(client) }
    } catch {
      throw FakeGitHubError(error.description)
    }
    return port
  }

  public func stop() { listener.stop() }

  deinit { stop() }

  // MARK: One connection (one request; answers carry `Connection: close`)

  private func serve(_ client: Int32) {
    defer { close(client) }
    guard let request = readRequest(client) else { return }
    lock.withLock { recorded.append(request) }
    var delay = 0.0
    var behaviour: Behaviour?
    lock.withLock {
      while let next = queued.first {
        queued.removeFirst()
        if case .delay(let seconds) = next {
          delay += seconds
          continue
        }
        behaviour = next
        break
      }
    }
    if delay > 0 { Thread.sleep(forTimeInterval: delay) }
    switch behaviour {
    case .dropConnection?:
      return
    case .malformedBody?:
      respond(client, 200, #"{"total_count": 3, "items": [ { "id": "#, [:])
    case .status(let status, let body, let headers)?:
      respond(client, status, body, headers)
    case .rateLimitPrimary(let resetIn)?:
      let reset = Int(Date().timeIntervalSince1970 + resetIn)
      respond(client, 403, GitHubFixtures.rateLimit403Primary, ["x-ratelimit-remaining": "0", "x-ratelimit-reset": String(reset)])
    case .rateLimitSecondary(let retryAfter)?:
      respond(client, 429, GitHubFixtures.rateLimit403Secondary, ["retry-after": String(Int(retryAfter))])
    case .delay?, nil:
      let (status, body) = route(request)
      respond(client, status, body, [:])
    }
  }

  private func readRequest(_ client: Int32) -> Request? {
    var data = [UInt8]()
    var buffer = [UInt8](repeating: 0, count: 4096)
    while !data.contains(subsequence: [13, 10, 13, 10]) {
      let count = read(client, &buffer, buffer.count)
      if count <= 0 { return nil }
      data += buffer[0..<count]
      if data.count > 1 << 20 { return nil }
    }
    let text = String(decoding: data, as: UTF8.self)
    let lines = text.components(separatedBy: "\r\n")
    let parts = lines[0].split(separator: " ")
    guard parts.count >= 2 else { return nil }
    let target = String(parts[1])
    let components = URLComponents(string: target)
    var query: [String: String] = [:]
    for item in components?.queryItems ?? [] { query[item.name] = item.value ?? "" }
    var headers: [String: String] = [:]
    for line in lines.dropFirst() where !line.isEmpty {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    return Request(method: String(parts[0]), path: components?.path ?? target, query: query, headers: headers)
  }

  private func respond(_ client: Int32, _ status: Int, _ body: String, _ headers: [String: String]) {
    let bytes = Array(body.utf8)
    var head = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
    head += "Content-Type: application/json; charset=utf-8\r\n"
    head += "Content-Length: \(bytes.count)\r\n"
    head += "Connection: close\r\n"
    head += "X-GitHub-Api-Version-Selected: 2022-11-28\r\n"
    if headers["x-ratelimit-remaining"] == nil {
      head += "X-RateLimit-Limit: 30\r\nX-RateLimit-Remaining: 29\r\nX-RateLimit-Resource: search\r\n"
    }
    for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
    head += "\r\n"
    let response = Array(head.utf8) + bytes
    var sent = 0
    while sent < response.count {
      let count = response[sent...].withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
      if count <= 0 { return }
      sent += count
    }
  }

  private static func reason(_ status: Int) -> String {
    switch status {
    case 200: return "OK"
    case 403: return "Forbidden"
    case 404: return "Not Found"
    case 422: return "Unprocessable Entity"
    case 429: return "Too Many Requests"
    case 500: return "Internal Server Error"
    case 503: return "Service Unavailable"
    default: return "Status"
    }
  }

  // MARK: Routing the recorded bodies

  private func route(_ request: Request) -> (Int, String) {
    if request.path.hasPrefix("/repos/") { return (200, GitHubFixtures.getRepository200OctokitFixtures) }
    guard request.path == "/search/repositories" else { return (404, #"{"message":"Not Found"}"#) }
    let q = (request.query["q"] ?? "").trimmingCharacters(in: .whitespaces)
    if q.isEmpty { return (422, GitHubFixtures.searchRepositories422MissingQ) }
    let page = max(1, Int(request.query["page"] ?? "1") ?? 1)
    let perPage = min(100, max(1, Int(request.query["per_page"] ?? "30") ?? 30))
    if (page - 1) * perPage >= 1000 { return (422, GitHubFixtures.searchRepositories422Beyond1000) }
    return (200, searchPage(page: page, perPage: perPage))
  }

  /// A page made from the recorded item: ids `page*10000 + n`, names numbered, up to totalCount.
  private func searchPage(page: Int, perPage: Int) -> String {
    guard let data = GitHubFixtures.searchRepositories200Example.data(using: .utf8),
      var object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      let items = object["items"] as? [[String: Any]], let template = items.first
    else { return GitHubFixtures.searchRepositories200Example }
    let start = (page - 1) * perPage
    let count = max(0, min(perPage, totalCount - start))
    object["total_count"] = totalCount
    object["items"] = (0..<count).map { offset -> [String: Any] in
      var item = template
      let number = start + offset + 1
      item["id"] = (template["id"] as? Int ?? 0) + number
      item["name"] = "\(template["name"] as? String ?? "repo")\(number)"
      item["full_name"] = "\(template["full_name"] as? String ?? "owner/repo")\(number)"
      return item
    }
    guard let encoded = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else {
      return GitHubFixtures.searchRepositories200Example
    }
    return String(decoding: encoded, as: UTF8.self)
  }
}

public struct FakeGitHubError: Error, CustomStringConvertible {
  public var description: String
  init(_ description: String) { self.description = description }
}

extension Array where Element == UInt8 {
  fileprivate func contains(subsequence: [UInt8]) -> Bool {
    guard count >= subsequence.count else { return false }
    for start in 0...(count - subsequence.count) where Array(self[start..<start + subsequence.count]) == subsequence {
      return true
    }
    return false
  }
}
