import ArgumentParser
import Foundation
import GitHubFake

/// `relua fake-github`: the loopback fake GitHub of the tests, for offline demos.
struct FakeGitHubCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "fake-github",
    abstract: "Serve a fake GitHub search API on 127.0.0.1 from the recorded fixtures (for offline demos).",
    discussion: """
      Point relua at it with RELUA_GITHUB_API=http://127.0.0.1:PORT, e.g.
        RELUA_GITHUB_API=http://127.0.0.1:8765 relua repl Scripts/Features/RepositorySearch.lua
      """
  )

  @Option(help: "The port (0: any free port).")
  var port: UInt16 = 8765

  @Option(name: .customLong("total-count"), help: "total_count of every search (pages are generated up to it).")
  var totalCount: Int = 40

  @Option(help: "Seconds to wait before each answer.")
  var delay: Double = 0

  func run() throws {
    let server = FakeGitHubServer(totalCount: totalCount)
    let port = try server.start(port: port)
    // Written at once, also when standard output is a pipe or a file (print would buffer it).
    FileHandle.standardOutput.write(Data("""
      Fake GitHub listening on http://127.0.0.1:\(port)
      export RELUA_GITHUB_API=http://127.0.0.1:\(port)

      """.utf8))
    if delay > 0 {
      for _ in 0..<10_000 { server.script(.delay(delay)) }
    }
    while true { sleep(3600) }
  }
}
