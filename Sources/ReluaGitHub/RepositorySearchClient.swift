import Relua

/// The GitHub repository search as Lua effects see it: `deps.github.search{ q = …, page = …,
/// per_page = …, sort = …, language = … }` (async) returns `result` or `nil, err`.
///
/// - `result`: `{ total_count, incomplete_results, items = { { id, name, full_name, owner =
///   { login, avatar_url }, description, html_url, stargazers_count, forks_count, language } } }`
///   (fields GitHub sends as null are absent).
/// - `err`: `{ kind = "transport" | "timeout" | "http" | "rateLimited" | "decoding", message,
///   status?, resetAt? (epoch seconds), retryAfter? (seconds) }` — `message` is a sentence for the user.
///
/// The live client comes from the GitHub module (`live(_:)`); scripts reach it as `deps.github`
/// once a program registers it (`GitHubDependency`); tests give a stub (`deps = { github = … }`).
public struct RepositorySearchClient: Sendable {
  public struct Query: Sendable, Equatable {
    public var q: String
    public var page: Int
    public var perPage: Int
    public var sort: String?
    public var language: String?

    public init(q: String, page: Int = 1, perPage: Int = 30, sort: String? = nil, language: String? = nil) {
      self.q = q
      self.page = page
      self.perPage = perPage
      self.sort = sort
      self.language = language
    }

    /// The query as scripts see it: `{ q, page, per_page, sort?, language? }`.
    public var value: Value {
      var fields: [(String, Value)] = [
        ("q", .string(q)), ("page", .integer(Int64(page))), ("per_page", .integer(Int64(perPage))),
      ]
      if let sort { fields.append(("sort", .string(sort))) }
      if let language { fields.append(("language", .string(language))) }
      return .record(ValueRecord(fields))
    }
  }

  /// A result (`.success`) or an error record (`.failure`), both in the shapes above.
  public var search: @MainActor @Sendable (Query) async -> Result<Value, SearchFailure>

  public init(search: @escaping @MainActor @Sendable (Query) async -> Result<Value, SearchFailure>) {
    self.search = search
  }

  /// A failure as scripts see it.
  public struct SearchFailure: Error, Sendable, Equatable {
    public var record: Value
    public init(_ record: Value) { self.record = record }
    public init(kind: String, message: String, status: Int? = nil, resetAt: Double? = nil, retryAfter: Double? = nil) {
      var fields: [(String, Value)] = [("kind", .string(kind)), ("message", .string(message))]
      if let status { fields.append(("status", .integer(Int64(status)))) }
      if let resetAt { fields.append(("resetAt", .float(resetAt))) }
      if let retryAfter { fields.append(("retryAfter", .float(retryAfter))) }
      record = .record(ValueRecord(fields))
    }
  }

  /// Used when no client was configured: every search fails with a clear message.
  public static let notConfigured = RepositorySearchClient { _ in
    .failure(SearchFailure(kind: "transport", message: "No GitHub client is configured for this store."))
  }
}
