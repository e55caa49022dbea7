import Foundation
import GitHub
@testable import Relua
@testable import ReluaGitHub

/// The dependencies that reach the network, for an exploration: offline, answering at once and
/// the same way every time (a real connection would make the states reached depend on the machine).
@MainActor
enum OfflineDependencies {
  /// `deps.github`: each page of a search holds two repositories — the recorded one
  /// (Sources/GitHubFake/Fixtures) and one GitHub sent with every nullable field null — out of
  /// four in all, so a second page loads and then paging ends. A query with a non-ASCII letter
  /// fails as GitHub's secondary rate limit does, so the error alert is reached too.
  static func github() throws -> RepositorySearchClient {
    let fixture = ShippedFeatures.repositoryRoot.appendingPathComponent(
      "Sources/GitHubFake/Fixtures/search-repositories.200.example.json")
    let recorded = try JSONDecoder().decode(RepositorySearchResult.self, from: Data(contentsOf: fixture)).items[0]
    let bare = try JSONDecoder().decode(Repository.self, from: Data(#"{"id": 1, "name": "bare", "full_name": "someone/bare"}"#.utf8))
    return RepositorySearchClient { query in
      guard query.q.allSatisfy(\.isASCII) else {
        return .failure(RepositorySearchClient.failure(of: .rateLimited(.secondary, resetAt: nil, retryAfter: 30)))
      }
      let page = [recorded, bare].enumerated().map { offset, repository in
        var repository = repository
        repository.id = query.page * 10 + offset
        return repository
      }
      return .success(RepositorySearchClient.value(of: RepositorySearchResult(totalCount: 4, items: page)))
    }
  }

  /// `deps.websocket`: every connection is refused. The connected screens are still reached, by
  /// the actions the connection would send (`didOpen`, `receivedSocketMessage`), which are declared.
  static func websocket() -> WebSocketClient {
    WebSocketClient { url in throw Refused(url: url) }
  }

  struct Refused: Error, CustomStringConvertible {
    let url: String
    var description: String { "could not connect to \(url): connection refused (the exploration is offline)" }
  }
}
