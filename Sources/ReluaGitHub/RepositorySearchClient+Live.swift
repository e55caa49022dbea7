import Foundation
import GitHub
import Relua

extension RepositorySearchClient {
  /// Searches through the live GitHub client: results and errors in the shapes scripts see.
  public static func live(_ client: LiveGitHubClient) -> RepositorySearchClient {
    RepositorySearchClient { query in
      do {
        let result = try await client.searchRepositories(
          GitHubSearchQuery(q: query.q, page: query.page, perPage: query.perPage, sort: query.sort, language: query.language))
        return .success(value(of: result))
      } catch {
        if Task.isCancelled { return .failure(SearchFailure(kind: "cancelled", message: "The search was cancelled.")) }
        return .failure(failure(of: (error as? GitHubError) ?? .transport("\(error)")))
      }
    }
  }

  static func value(of result: RepositorySearchResult) -> Value {
    .record(ValueRecord([
      ("total_count", .integer(Int64(result.totalCount))),
      ("incomplete_results", .boolean(result.incompleteResults)),
      ("items", .array(result.items.map(value(of:)))),
    ]))
  }

  static func value(of repository: Repository) -> Value {
    var fields: [(String, Value)] = [
      ("id", .integer(Int64(repository.id))), ("name", .string(repository.name)), ("full_name", .string(repository.fullName)),
    ]
    if let owner = repository.owner {
      var ownerFields: [(String, Value)] = [("login", .string(owner.login))]
      if let avatar = owner.avatarURL { ownerFields.append(("avatar_url", .string(avatar))) }
      fields.append(("owner", .record(ValueRecord(ownerFields))))
    }
    if let description = repository.description { fields.append(("description", .string(description))) }
    if let url = repository.htmlURL { fields.append(("html_url", .string(url))) }
    if let stars = repository.stargazersCount { fields.append(("stargazers_count", .integer(Int64(stars)))) }
    if let forks = repository.forksCount { fields.append(("forks_count", .integer(Int64(forks)))) }
    if let language = repository.language { fields.append(("language", .string(language))) }
    return .record(ValueRecord(fields))
  }

  static func failure(of error: GitHubError) -> SearchFailure {
    let message = error.description
    switch error {
    case .transport: return SearchFailure(kind: "transport", message: message)
    case .timeout: return SearchFailure(kind: "timeout", message: message)
    case .httpStatus(let status, _, _): return SearchFailure(kind: "http", message: message, status: status)
    case .rateLimited(_, let resetAt, let retryAfter):
      return SearchFailure(kind: "rateLimited", message: message, status: 403, resetAt: resetAt?.timeIntervalSince1970, retryAfter: retryAfter)
    case .decoding: return SearchFailure(kind: "decoding", message: message)
    }
  }
}
