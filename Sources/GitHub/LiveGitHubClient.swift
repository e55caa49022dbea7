import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The live client of `GET /search/repositories`.
///
/// URLSession (FoundationNetworking on Linux) rather than AsyncHTTPClient: it ships with the
/// toolchain (no SwiftNIO to build — minutes on a 2-core CI that builds from scratch every run), and
/// a search issues one request at a time, so a connection pool buys nothing.
public struct LiveGitHubClient: Sendable {
  public var baseURL: URL
  public var token: String?
  public var timeout: Double
  public var userAgent: String

  public init(baseURL: URL = URL(string: "https://api.github.com")!, token: String? = nil, timeout: Double = 10, userAgent: String = "relua/1.0") {
    self.baseURL = baseURL
    self.token = token
    self.timeout = timeout
    self.userAgent = userAgent
  }

  /// `GITHUB_TOKEN` (when set and not empty) and `RELUA_GITHUB_API` (default api.github.com).
  public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Self {
    let base = environment["RELUA_GITHUB_API"].flatMap { $0.isEmpty ? nil : URL(string: $0) } ?? URL(string: "https://api.github.com")!
    let token = environment["GITHUB_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
    return Self(baseURL: base, token: token)
  }

  func request(for query: GitHubSearchQuery) -> URLRequest {
    var request = URLRequest(url: query.url(base: baseURL), timeoutInterval: timeout)
    request.setValue("application/vnd.github+json", forHTTPHeaderField: "Accept")
    request.setValue("2022-11-28", forHTTPHeaderField: "X-GitHub-Api-Version")
    request.setValue(userAgent, forHTTPHeaderField: "User-Agent")
    if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
    return request
  }

  public func searchRepositories(_ query: GitHubSearchQuery) async throws(GitHubError) -> RepositorySearchResult {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = timeout
    configuration.timeoutIntervalForResource = timeout
    let session = URLSession(configuration: configuration)
    defer { session.finishTasksAndInvalidate() }
    let data: Data
    let response: URLResponse
    do {
      (data, response) = try await session.data(for: request(for: query))
    } catch let error as URLError {
      if error.code == .timedOut { throw .timeout(timeout) }
      if error.code == .cancelled { throw .transport("the request was cancelled") }
      throw .transport(error.localizedDescription)
    } catch is CancellationError {
      throw .transport("the request was cancelled")
    } catch {
      throw .transport("\(error)")
    }
    guard let http = response as? HTTPURLResponse else { throw .transport("not an HTTP response") }
    guard (200..<300).contains(http.statusCode) else { throw Self.failure(status: http.statusCode, headers: http, body: data) }
    do {
      return try JSONDecoder().decode(RepositorySearchResult.self, from: data)
    } catch {
      throw .decoding(Self.describe(error))
    }
  }

  static func failure(status: Int, headers: HTTPURLResponse, body: Data) -> GitHubError {
    struct Body: Decodable {
      struct Item: Decodable { var message: String? }
      var message: String?
      var errors: [Item]?
    }
    let decoded = try? JSONDecoder().decode(Body.self, from: body)
    let message = decoded?.message ?? HTTPURLResponse.localizedString(forStatusCode: status)
    if status == 403 || status == 429 {
      let remaining = headers.value(forHTTPHeaderField: "x-ratelimit-remaining")
      let retryAfter = headers.value(forHTTPHeaderField: "retry-after").flatMap(Double.init)
      if message.localizedCaseInsensitiveContains("secondary rate limit") || retryAfter != nil {
        return .rateLimited(.secondary, resetAt: nil, retryAfter: retryAfter)
      }
      if remaining == "0" {
        let reset = headers.value(forHTTPHeaderField: "x-ratelimit-reset").flatMap(Double.init).map { Date(timeIntervalSince1970: $0) }
        return .rateLimited(.primary, resetAt: reset, retryAfter: nil)
      }
    }
    return .httpStatus(status, message: message, errors: decoded?.errors?.compactMap(\.message) ?? [])
  }

  static func describe(_ error: any Error) -> String {
    switch error {
    case DecodingError.keyNotFound(let key, _): return "the field '\(key.stringValue)' is missing"
    case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
      return "unexpected value at '\(context.codingPath.map(\.stringValue).joined(separator: "."))'"
    case DecodingError.dataCorrupted: return "the body is not valid JSON"
    default: return "\(error)"
    }
  }
}
