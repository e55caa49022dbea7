import Foundation
import GitHub
import GitHubFake
import XCTest

/// The live client against the fake server, over loopback sockets (no mocked transport).
final class LiveClientTests: XCTestCase {
  var server: FakeGitHubServer!
  var client: LiveGitHubClient!

  override func setUp() async throws {
    server = FakeGitHubServer(totalCount: 40)
    try server.start()
    client = LiveGitHubClient(baseURL: server.baseURL, token: nil, timeout: 2)
  }

  override func tearDown() async throws { server.stop() }

  func testSendsGitHubsHeadersAndTheTokenOnlyWhenSet() async throws {
    _ = try await client.searchRepositories(GitHubSearchQuery(q: "tca"))
    var request = try XCTUnwrap(server.requests.last)
    XCTAssertEqual(request.method, "GET")
    XCTAssertEqual(request.path, "/search/repositories")
    XCTAssertEqual(request.headers["accept"], "application/vnd.github+json")
    XCTAssertEqual(request.headers["x-github-api-version"], "2022-11-28")
    XCTAssertEqual(request.headers["user-agent"], "relua/1.0")
    XCTAssertNil(request.headers["authorization"])
    client.token = "secret-token"
    _ = try await client.searchRepositories(GitHubSearchQuery(q: "tca"))
    request = try XCTUnwrap(server.requests.last)
    XCTAssertEqual(request.headers["authorization"], "Bearer secret-token")
  }

  func testEncodesTheQuery() async throws {
    _ = try await client.searchRepositories(
      GitHubSearchQuery(q: "c++ a&b #1 Grüße", page: 2, perPage: 10, sort: "stars", order: "desc", language: "swift"))
    let request = try XCTUnwrap(server.requests.last)
    XCTAssertEqual(request.query["q"], "c++ a&b #1 Grüße language:swift")
    XCTAssertEqual(request.query["page"], "2")
    XCTAssertEqual(request.query["per_page"], "10")
    XCTAssertEqual(request.query["sort"], "stars")
    XCTAssertEqual(request.query["order"], "desc")
    let url = GitHubSearchQuery(q: "a+b c:d").url(base: URL(string: "https://api.github.com")!)
    XCTAssertEqual(url.absoluteString, "https://api.github.com/search/repositories?q=a%2Bb%20c%3Ad&page=1&per_page=30")
  }

  func testDecodesTheRecordedBodyAndGeneratedPages() async throws {
    let first = try await client.searchRepositories(GitHubSearchQuery(q: "tetris", perPage: 30))
    XCTAssertEqual(first.totalCount, 40)
    XCTAssertEqual(first.items.count, 30)
    XCTAssertEqual(first.items[0].name, "Tetris1")
    XCTAssertEqual(first.items[0].owner?.login, "dtrupenn")
    XCTAssertEqual(first.items[0].language, "Assembly")
    let second = try await client.searchRepositories(GitHubSearchQuery(q: "tetris", page: 2, perPage: 30))
    XCTAssertEqual(second.items.count, 10)
    XCTAssertTrue(Set(first.items.map(\.id)).isDisjoint(with: second.items.map(\.id)))
  }

  func testNullFieldsDecode() async throws {
    let body = #"{"total_count":1,"incomplete_results":false,"items":[{"id":7,"name":"x","full_name":"o/x","owner":null,"description":null,"language":null,"license":null,"homepage":null}]}"#
    server.script(.status(200, body: body))
    let result = try await client.searchRepositories(GitHubSearchQuery(q: "x"))
    XCTAssertEqual(result.items.first?.id, 7)
    XCTAssertNil(result.items.first?.owner)
    XCTAssertNil(result.items.first?.description)
    XCTAssertNil(result.items.first?.stargazersCount)
  }

  func testValidationErrorsCarryGitHubsMessages() async throws {
    await assertFails(GitHubSearchQuery(q: " ")) { error in
      guard case .httpStatus(422, _, _) = error else { return XCTFail("\(error)") }
    }
    await assertFails(GitHubSearchQuery(q: "tca", page: 11, perPage: 100)) { error in
      XCTAssertEqual(error.description, "GitHub rejected the search: Only the first 1000 search results are available")
    }
    server.script(.status(422, body: #"{"message":"Validation Failed","errors":[{"message":"The listed users cannot be searched."}]}"#))
    await assertFails(GitHubSearchQuery(q: "user:nobody")) { error in
      XCTAssertEqual(error, .httpStatus(422, message: "Validation Failed", errors: ["The listed users cannot be searched."]))
    }
  }

  func testRateLimits() async throws {
    server.script(.rateLimitPrimary(resetIn: 42))
    await assertFails(GitHubSearchQuery(q: "tca")) { error in
      guard case .rateLimited(.primary, let reset?, nil) = error else { return XCTFail("\(error)") }
      XCTAssertEqual(reset.timeIntervalSinceNow, 42, accuracy: 3)
      XCTAssertTrue(error.description.hasPrefix("GitHub's search rate limit is exhausted; it resets in"), error.description)
    }
    server.script(.rateLimitSecondary(retryAfter: 30))
    await assertFails(GitHubSearchQuery(q: "tca")) { error in
      XCTAssertEqual(error, .rateLimited(.secondary, resetAt: nil, retryAfter: 30))
    }
  }

  func testServerErrors() async throws {
    for status in [500, 503] {
      server.script(.status(status, body: #"{"message":"Server Error"}"#))
      await assertFails(GitHubSearchQuery(q: "tca")) { error in
        XCTAssertEqual(error, .httpStatus(status, message: "Server Error", errors: []))
        XCTAssertTrue(error.description.hasPrefix("GitHub is unavailable (\(status))"))
      }
    }
  }

  func testTimeoutDroppedConnectionAndMalformedBody() async throws {
    server.script(.delay(4))
    await assertFails(GitHubSearchQuery(q: "slow")) { error in XCTAssertEqual(error, .timeout(2)) }
    server.script(.dropConnection)
    await assertFails(GitHubSearchQuery(q: "drop")) { error in
      guard case .transport = error else { return XCTFail("\(error)") }
    }
    server.script(.malformedBody)
    await assertFails(GitHubSearchQuery(q: "bad")) { error in
      XCTAssertEqual(error, .decoding("the body is not valid JSON"))
    }
  }

  private func assertFails(
    _ query: GitHubSearchQuery, file: StaticString = #filePath, line: UInt = #line, _ check: (GitHubError) -> Void
  ) async {
    do {
      _ = try await client.searchRepositories(query)
      XCTFail("expected an error", file: file, line: line)
    } catch {
      check(error)
    }
  }
}
