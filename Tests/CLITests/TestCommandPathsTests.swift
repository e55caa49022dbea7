import Foundation
import XCTest

/// `relua test --trusted` finding plain Lua libraries as busted does: `--lpath`/`-m` and `--cpath`
/// before `package.path`/`package.cpath` (busted's defaults `./src/…` and `./csrc/…` when not
/// given), `LUA_PATH`/`LUA_CPATH`, `-C DIR`; and the sandbox refusing the options.
final class TestCommandPathsTests: XCTestCase {
  /// A library beside the tests, the way a pure-Lua project lays one out.
  private func project() throws -> ScriptDirectory {
    let dir = try ScriptDirectory()
    try dir.write("lib/greet.lua", "return { hello = function(n) return 'hello ' .. n end }")
    try dir.write("lib/deep/init.lua", "return 'deep init'")
    try dir.write("other/extra.lua", "return 'extra'")
    try dir.write("spec/helpers.lua", "return 'a helper named with a slash'")
    return dir
  }

  func testLpathPutsItsTemplatesBeforePackagePathInTrustedTests() throws {
    let dir = try project()
    try dir.write("spec/greet_spec.lua", """
      describe("greet", function()
        it("is found through --lpath and -m", function()
          assert.are.equal("hello you", require("greet").hello("you"))
          assert.are.equal("deep init", require("deep"))
          assert.are.equal("extra", require("extra"))
          assert.are.equal("a helper named with a slash", require("spec/helpers"))
          -- repeated options joined with ';', in order, before what Lua had
          assert.are.equal(1, (package.path:find("./lib/?.lua;./lib/?/init.lua;./other/?.lua;", 1, true)))
          -- --cpath not given: busted's default, its trailing ';' folded (;; -> ;) as busted does
          assert.are.equal(1, (package.cpath:find("./csrc/?.so;./csrc/?/?.so;", 1, true)))
          assert.is_nil(package.cpath:find(";;", 1, true))
        end)
      end)
      """)
    let result = try ReluaProcess.run(
      ["test", "--trusted", "--lpath", "./lib/?.lua;./lib/?/init.lua", "-m", "./other/?.lua", "spec"],
      currentDirectory: dir.url)
    XCTAssertEqual(result.exitCode, 0, result.stdout + result.stderr)
    XCTAssertEqual(result.stdout, "PASS greet is found through --lpath and -m\n\n1 passed, 0 failed\n")
    // Without --lpath the library is not found: the templates were what found it.
    let without = try ReluaProcess.run(["test", "--trusted", "spec"], currentDirectory: dir.url)
    XCTAssertEqual(without.exitCode, 1, without.stdout)
    XCTAssertTrue(without.stdout.contains("module 'greet' not found:"), without.stdout)
  }

  func testTrustedTestsSearchBustedsDefaultSrcDirectory() throws {
    let dir = try ScriptDirectory()
    try dir.write("src/thing.lua", "return { answer = 42 }")
    try dir.write("src/pkg/init.lua", "return 'pkg'")
    try dir.write("spec/thing_spec.lua", """
      it("finds src/", function()
        assert.are.equal(42, require("thing").answer)
        assert.are.equal("pkg", require("pkg"))
        assert.are.equal(1, (package.path:find("./src/?.lua;./src/?/?.lua;./src/?/init.lua;", 1, true)))
      end)
      """)
    let trusted = try ReluaProcess.run(["test", "--trusted", "spec"], currentDirectory: dir.url)
    XCTAssertEqual(trusted.exitCode, 0, trusted.stdout + trusted.stderr)
    // Sandboxed, there is no package.path: only the test's directory and Scripts are searched.
    let sandboxed = try ReluaProcess.run(["test", "spec"], currentDirectory: dir.url)
    XCTAssertEqual(sandboxed.exitCode, 1, sandboxed.stdout)
    XCTAssertTrue(sandboxed.stdout.contains("module 'thing' not found:"), sandboxed.stdout)
    XCTAssertFalse(sandboxed.stdout.contains("./src/thing.lua"), sandboxed.stdout)
  }

  func testTrustedTestsReadLuaPathAndLuaCPathAsLuaDoes() throws {
    let dir = try ScriptDirectory()
    try dir.write("vendor/vendored.lua", "return 'from LUA_PATH'")
    try dir.write("spec/env_spec.lua", """
      it("requires through LUA_PATH", function()
        assert.are.equal("from LUA_PATH", require("vendored"))
        -- ';;' in LUA_PATH is Lua's default path; the --lpath default comes first
        assert.matches("^%./src/%?%.lua;%./src/%?/%?%.lua;%./src/%?/init%.lua;%./vendor/%?%.lua;.+", package.path)
        assert.matches("^%./csrc/%?%.so;%./csrc/%?/%?%.so;%./native/%?%.so$", package.cpath)
      end)
      """)
    let environment = ["LUA_PATH": "./vendor/?.lua;;", "LUA_CPATH": "./native/?.so"]
    let trusted = try ReluaProcess.run(["test", "--trusted", "spec"], currentDirectory: dir.url, environment: environment)
    XCTAssertEqual(trusted.exitCode, 0, trusted.stdout + trusted.stderr)
    XCTAssertEqual(trusted.stdout, "PASS requires through LUA_PATH\n\n1 passed, 0 failed\n")
    // A sandboxed state reads no environment.
    let sandboxed = try ReluaProcess.run(["test", "spec"], currentDirectory: dir.url, environment: environment)
    XCTAssertEqual(sandboxed.exitCode, 1, sandboxed.stdout)
    XCTAssertTrue(sandboxed.stdout.contains("module 'vendored' not found:"), sandboxed.stdout)
  }

  func testSandboxedTestsRefuseLpathAndCpathSayingTheyNeedTrusted() throws {
    let dir = try ScriptDirectory()
    try dir.write("spec/a_spec.lua", "it('never runs', function() end)")
    for (arguments, named) in [
      (["--lpath", "./lib/?.lua"], "--lpath needs --trusted"),
      (["-m", "./lib/?.lua"], "--lpath needs --trusted"),
      (["--cpath=./lib/?.so"], "--cpath needs --trusted"),
      (["--lpath", "x", "--cpath", "y"], "--lpath and --cpath need --trusted"),
    ] {
      let result = try ReluaProcess.run(["test"] + arguments + ["spec"], currentDirectory: dir.url)
      XCTAssertEqual(result.exitCode, 64, "\(arguments): \(result.stdout)")
      XCTAssertEqual(result.stdout, "", "\(arguments)")
      XCTAssertTrue(
        result.stderr.hasPrefix(
          "Error: \(named): a sandboxed test's require finds modules only beside the test file and in Scripts\n"),
        "\(arguments): \(result.stderr)")
    }
  }

  func testDirectoryOptionChangesDirectoryBeforeRunningAsBustedsDoes() throws {
    let dir = try ScriptDirectory()
    try dir.write("projects/lib/src/mod.lua", "return 'mod'")
    try dir.write("projects/lib/spec/mod_spec.lua", "it('loads', function() assert.are.equal('mod', require('mod')) end)")
    // Each -C is relative to the one before; paths, the ./src default and -Xoutput are relative to the last.
    let result = try ReluaProcess.run(
      ["test", "--trusted", "-C", "projects", "--directory", "lib", "-o", "json", "-Xoutput", "out.json", "spec"],
      currentDirectory: dir.url)
    XCTAssertEqual(result.exitCode, 0, result.stdout + result.stderr)
    let document = try String(contentsOf: dir.url.appendingPathComponent("projects/lib/out.json"), encoding: .utf8)
    XCTAssertTrue(document.contains("\"name\":\"loads\""), document)
    let missing = try ReluaProcess.run(["test", "-C", "nowhere"], currentDirectory: dir.url)
    XCTAssertEqual(missing.exitCode, 1)
    XCTAssertEqual(missing.stderr, "relua test: cannot change to directory nowhere\n")
  }
}
