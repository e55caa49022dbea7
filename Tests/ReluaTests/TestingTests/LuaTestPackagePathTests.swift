import XCTest

@testable import Relua
@testable import ReluaTesting

/// `LuaTestConfiguration.packagePathPrefix`/`packageCPathPrefix` (busted's `--lpath`/`--cpath`):
/// put before `package.path`/`package.cpath` in trusted test states, refused in sandboxed ones.
@MainActor
final class LuaTestPackagePathTests: XCTestCase {
  private func run(
    _ files: [String: String], configuration: LuaTestConfiguration
  ) async throws -> LuaTestSummary {
    let directory = try LuaTestDirectory()
    for (name, source) in files { try directory.write(name, source) }
    return await directory.inside { await LuaTestRunner(configuration: configuration).run(paths: ["spec"]) }
  }

  private let files = [
    "lib/answer.lua": "return 42",
    "spec/answer_spec.lua": """
      it("requires from the prefix", function()
        assert.are.equal(42, require("answer"))
        assert.are.equal("./lib/?.lua;./c/?.so", package.path:sub(1, 12) .. package.cpath:sub(1, 8))
      end)
      """,
  ]

  func testTrustedStatesSearchThePrefixesFirst() async throws {
    let summary = try await run(files, configuration: LuaTestConfiguration(
      trusted: true, packagePathPrefix: "./lib/?.lua", packageCPathPrefix: "./c/?.so"))
    XCTAssertEqual(summary.closingLine, "1 passed, 0 failed", summary.results.compactMap(\.failure).map(\.description).joined())
    let without = try await run(files, configuration: LuaTestConfiguration(trusted: true))
    XCTAssertEqual(without.closingLine, "0 passed, 1 failed")
  }

  func testASandboxedConfigurationWithPrefixesFailsEveryFileSayingWhy() async throws {
    let summary = try await run(files, configuration: LuaTestConfiguration(packagePathPrefix: "./lib/?.lua"))
    XCTAssertEqual(summary.results.map(\.name), ["spec/answer_spec.lua"])
    XCTAssertEqual(summary.results.first?.failure?.description, """
      package.path and package.cpath (busted's --lpath and --cpath) are searched in trusted states only: \
      a sandboxed test's require finds modules beside the test file and in Scripts
      """)
  }
}
