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
  /// A search as a script asks for it (`deps.github.search{ … }`'s table).
  public struct Query: Sendable, Equatable {
    /// The query text (GitHub's search syntax: `tca language:swift`).
    public var q: String
    /// Which page of results, from 1.
    public var page: Int
    /// Results per page (`per_page`).
    public var perPage: Int
    /// GitHub's sort field (`"stars"`, `"forks"`, `"updated"`); nil: best match.
    public var sort: String?
    /// Only repositories in this language, when given.
    public var language: String?

    /// A search for `q`: page 1, 30 per page, best match first unless told otherwise.
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

  /// A client answering searches with `search` (a stub's, a live client's).
  public init(search: @escaping @MainActor @Sendable (Query) async -> Result<Value, SearchFailure>) {
    self.search = search
  }

  /// A failure as scripts see it.
  public struct SearchFailure: Error, Sendable, Equatable {
    /// The `err` record Lua gets: `{ kind, message, status?, resetAt?, retryAfter? }`.
    public var record: Value
    /// A failure Lua sees as this `err` record as it is.
    public init(_ record: Value) { self.record = record }
    /// A failure of `kind` (`"transport"`, `"timeout"`, `"http"`, `"rateLimited"`, `"decoding"`)
    /// with a sentence for the user and, when known, the HTTP status and the rate limit's times.
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
