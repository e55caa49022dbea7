import Foundation

/// The recorded GitHub API bodies the fake server answers with: `Fixtures/` beside this file (see
/// its README), a resource of this target — the one copy of them.
enum GitHubFixtures {
  static let searchRepositories200Example = load("search-repositories.200.example.json")
  static let searchRepositories422Beyond1000 = load("search-repositories.422.beyond-1000.json")
  static let searchRepositories422MissingQ = load("search-repositories.422.missing-q.json")
  static let searchRepositories422InvalidQ = load("search-repositories.422.invalid-q.json")
  static let rateLimit403Primary = load("rate-limit.403.primary.json")
  static let rateLimit403Secondary = load("rate-limit.403.secondary.json")
  static let getRepository200OctokitFixtures = load("get-repository.200.octokit-fixtures.json")

  /// A fixture's text; a body saying what is missing if the resource bundle is not beside the
  /// program (a response a test shows, rather than a crash of the server).
  private static func load(_ name: String) -> String {
    guard let url = Bundle.module.resourceURL?.appendingPathComponent("Fixtures").appendingPathComponent(name),
      let text = try? String(contentsOf: url, encoding: .utf8)
    else {
      return #"{"message": "relua's fake GitHub: the fixture \#(name) is missing (GitHubFake's resource bundle)"}"#
    }
    return text
  }
}
