import Foundation
import GitHub
import GitHubFake
import Lua
import XCTest

@testable import Relua
import ReluaGitHub

/// The repository search feature in Lua, its effects going through the *live* GitHub client to the
/// fake GitHub server over loopback (no stub, no mocked transport).
@MainActor
final class SearchEndToEndTests: XCTestCase {
  func testSearchAndPagingThroughTheLiveClient() async throws {
    let (server, lua) = try start()
    defer { server.stop() }
    let script = try lua.load("""
      local relua = require "relua"
      local Search = require "Features.RepositorySearch"
      local store = relua.Store(Search, { deps = { github = "live", clock = "immediate" } })
      store:send("binding.query", "  tetris ")
      store:wait()
      local s = store:state()
      assert(s.searchedQuery == "tetris", s.searchedQuery)
      assert(#s.items == 10 and s.currentPage == 1 and s.hasMorePage and s.loadingState == "none")
      store:send(("items[id=%d].onAppear"):format(s.items[10].id))
      store:wait()
      store:send(("items[id=%d].onAppear"):format(store:state().items[20].id))
      store:wait()
      s = store:state()
      return #s.items, s.currentPage, s.hasMorePage, s.items[1].repository.full_name, s.items[1].repository.owner.login
      """, name: "=e2e")
    let results = try await LuaCoroutineDriver.run(script)
    XCTAssertEqual(results.map(\.description), ["25", "3", "false", "dtrupenn/Tetris1", "dtrupenn"])
    XCTAssertEqual(server.requests.map { $0.query["page"] ?? "" }, ["1", "2", "3"])
    XCTAssertEqual(server.requests.first?.query["q"], "tetris")
    XCTAssertEqual(server.requests.first?.headers["accept"], "application/vnd.github+json")
  }

  func testAnHTTPFailureBecomesTheAlertWithGitHubsMessage() async throws {
    let (server, lua) = try start()
    defer { server.stop() }
    server.script(.rateLimitSecondary(retryAfter: 30))
    let script = try lua.load("""
      local relua = require "relua"
      local Search = require "Features.RepositorySearch"
      local store = relua.Store(Search, { deps = { github = "live", clock = "immediate" } })
      store:send("binding.query", "tca")
      store:wait()
      local s = store:state()
      return s.alert.message, #s.items, s.loadingState
      """, name: "=e2e")
    let results = try await LuaCoroutineDriver.run(script)
    XCTAssertEqual(results.map(\.description), [
      "GitHub asks to slow down (secondary rate limit); retry in 30 s.", "0", "none",
    ])
  }

  /// The fake server, and a Lua state whose `deps.github = "live"` is the live client pointed at it.
  private func start() throws -> (FakeGitHubServer, LuaState) {
    let server = FakeGitHubServer(totalCount: 25)
    try server.start()
    let scripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Scripts").path
    let lua = try LuaState(options: LuaOptions(scriptRoots: [scripts]))
    try ReluaHost.install(in: lua).register(GitHubDependency.make(.live(LiveGitHubClient(baseURL: server.baseURL, timeout: 5))))
    return (server, lua)
  }
}
