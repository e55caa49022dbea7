import XCTest

/// `relua run`'s limits hold for all the work a script causes: effects and follow-up actions
/// included, and the state relua holds for its stores.
final class RunCommandLimitTests: XCTestCase {
  /// Effects that start effects without end: the instruction budget covers them all and names the
  /// script's line (before, each effect step had a fresh budget and the run never ended).
  func testTheInstructionLimitCoversEffects() throws {
    let dir = try ScriptDirectory()
    let file = try dir.write("fan.lua", """
      local F = relua.feature "F" { state = { n = 0 }, actions = { a = {} }, reduce = relua.on {
        a = function(s) s.n = s.n + 1 return relua.Effect.run(function(send) send("a") end) end } }
      local store = relua.Store(F)
      store:send("a")
      store:wait()
      print("never")
      """)
    let result = try RunningRelua(["run", "--instruction-limit", "3000000", file]).finish(seconds: 60)
    XCTAssertEqual(result.exitCode, 1, result.stderr)
    XCTAssertEqual(result.stdout, "")
    XCTAssertTrue(result.stderr.contains("fan.lua:2: instruction budget exhausted"), result.stderr)
  }

  /// An action that sends itself, and a state that grows past the memory limit: each is an error
  /// at the script's line, the store keeps its state, and the script goes on.
  func testRunawaySendsAndGrowingStateAreErrors() throws {
    let dir = try ScriptDirectory()
    let file = try dir.write("grow.lua", """
      local F = relua.feature "F" { state = { items = { "" }, n = 0 }, actions = { again = {}, add = "string" },
        reduce = relua.on {
          again = function(s) s.n = s.n + 1 return relua.Effect.send("again") end,
          add = function(s, text) s.items[#s.items + 1] = text end } }
      local store = relua.Store(F)
      print(pcall(store.send, store, "again"))
      local big = string.rep("x", 1000000)
      local ok, err
      for i = 1, 200 do
        ok, err = pcall(store.send, store, "add", big)
        if not ok then break end
      end
      print((tostring(err):match("^[^(]*")))
      print(store:state("n"), #big)
      """)
    let result = try ReluaProcess.run(["run", "--memory-limit", "50000000", file])
    XCTAssertEqual(result.exitCode, 0, result.stderr)
    let lines = result.stdout.split(separator: "\n").map(String.init)
    guard lines.count == 3 else { return XCTFail(result.stdout) }
    XCTAssertTrue(lines[0].hasPrefix("false\t") && lines[0].contains("grow.lua:6: a send led to more than 10000 follow-up actions"), lines[0])
    XCTAssertTrue(lines[1].contains("grow.lua:4: memory limit of 50000000 bytes exceeded: relua would hold ≈"), lines[1])
    XCTAssertTrue(lines[2].hasPrefix("0\t"), lines[2])
  }

  /// A dependency's live function that loops, called from a reducer or through a local: the
  /// budget names the dependency's line in the script, not nothing (the reducer's error wrapping
  /// it used to hide where the budget ran out).
  func testTheInstructionLimitInADependencyNamesItsLine() throws {
    let dir = try ScriptDirectory()
    let file = try dir.write("spin.lua", """
      relua.dependency "spin" { live = function() while true do end end }
      local F = relua.feature "F" { state = { n = 0 }, actions = { go = {} },
        reduce = relua.on { go = function(s, _, deps) local spin = deps.spin; spin() end } }
      local store = relua.Store(F)
      store:send("go")
      print("never")
      """)
    let result = try RunningRelua(["run", "--instruction-limit", "100000", file]).finish(seconds: 60)
    XCTAssertEqual(result.exitCode, 1, result.stderr)
    XCTAssertEqual(result.stdout, "")
    XCTAssertTrue(result.stderr.hasPrefix("relua: "), result.stderr)
    XCTAssertTrue(result.stderr.hasSuffix("spin.lua:1: instruction budget exhausted\n"), result.stderr)
  }

  /// Recursion through a dependency overflows Lua's stack inside relua's own proxy chunk: the
  /// error names the script's line that recursed, never `[relua deps]`, and the send is undone.
  func testAStackOverflowThroughADependencyNamesTheScriptLine() throws {
    let dir = try ScriptDirectory()
    let file = try dir.write("deep.lua", """
      local depsRef
      relua.dependency "again" { live = function(n) return 1 + depsRef.again(n + 1) end }
      local F = relua.feature "F" { state = { n = 0 }, actions = { go = {} },
        reduce = relua.on { go = function(s, _, deps) depsRef = deps; s.n = 1; deps.again(1) end } }
      local store = relua.Store(F)
      local ok, err = pcall(store.send, store, "go")
      print(ok, (tostring(err):match("^[^(]*")))
      print(store:state("n"))
      """)
    let result = try RunningRelua(["run", file]).finish(seconds: 120)
    XCTAssertEqual(result.exitCode, 0, result.stderr)
    XCTAssertTrue(result.stdout.hasPrefix("false\t"), result.stdout)
    XCTAssertTrue(result.stdout.hasSuffix("deep.lua:2: stack overflow \n0\n"), result.stdout)
    XCTAssertFalse(result.stdout.contains("[relua"), result.stdout)
  }
}
