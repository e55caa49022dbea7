import Relua

/// `deps.github` for Lua features, as a plug-in: the repository search registered through the
/// public dependency API (`ReluaDependency`), like any program's own dependency.
///
///     ReluaHost.registerForEveryState(GitHubDependency.make(.live(LiveGitHubClient.fromEnvironment())))
///
/// `deps.github.search{ q, page?, per_page?, sort?, language? }` (async) returns the result, or
/// `nil, err` (see `RepositorySearchClient`). It has no test value: a test that reaches it without
/// `deps = { github = … }` fails with "Unimplemented dependency: github".
public enum GitHubDependency {
  /// The name scripts reach it by: `deps.github`.
  public static let name = "github"

  /// The dependency, searching through `client`.
  public static func make(_ client: RepositorySearchClient) -> ReluaDependency {
    ReluaDependency(name, live: shape(client))
  }

  /// `deps.github` answered by `client` (to give it to one store from Swift:
  /// `dependencies.setReluaDependency("github", to: GitHubDependency.shape(client))`).
  public static func shape(_ client: RepositorySearchClient) -> ReluaDependency.Shape {
    .members([
      "search": .async { arguments in
        let query = try query(arguments.first ?? .null)
        switch await client.search(query) {
        case .success(let result): return [result]
        case .failure(let failure): return [.null, failure.record]
        }
      }
    ])
  }

  /// `{ q = "tca", page = 2, per_page = 10, sort = "stars", language = "swift" }`.
  static func query(_ argument: Value) throws -> RepositorySearchClient.Query {
    guard case .record(let record) = argument else {
      throw ReluaDependency.ArgumentError(position: 1, "deps.github.search{ q = …, page = …, per_page = … } expects a table")
    }
    guard case .string(let q) = record["q"] else {
      throw ReluaDependency.ArgumentError(position: 1, "deps.github.search: 'q' (the query text) is required")
    }
    func integer(_ key: String, _ fallback: Int) throws -> Int {
      switch record[key] {
      case .null: return fallback
      case .integer(let value) where value > 0 && value <= Int64(Int32.max): return Int(value)
      default: throw ReluaDependency.ArgumentError(position: 1, "deps.github.search: '\(key)' must be a positive integer")
      }
    }
    return RepositorySearchClient.Query(
      q: q, page: try integer("page", 1), perPage: try integer("per_page", 30),
      sort: record["sort"].stringValue, language: record["language"].stringValue)
  }
}
