import Foundation
import XCTest

@testable import Lua

final class SandboxTests: XCTestCase {
  static let forbidden = [
    "io", "dofile", "loadfile", "string.dump", "os.execute", "os.exit", "os.getenv", "os.remove", "os.rename",
    "os.tmpname", "os.setlocale", "debug.getinfo", "debug.sethook", "debug.getregistry", "debug.setmetatable",
    "package.loadlib", "package.searchpath", "package.loaded.io",
  ]
  static let allowed = [
    "os.time", "os.clock", "os.date", "os.difftime", "debug.traceback", "require", "load", "pcall", "string.rep",
    "coroutine.close", "collectgarbage", "math.floor", "table.concat", "utf8.char", "print",
  ]

  func lookup(_ state: LuaState, _ path: String) throws -> LuaValue {
    try state.load("local v = _ENV for k in ('\(path)'):gmatch('[^.]+') do v = v and v[k] end return v").call()[0]
  }

  func testSandboxRemovesDangerousFunctions() throws {
    let state = try LuaState()
    for name in Self.forbidden { XCTAssertEqual(try lookup(state, name), .nil, name) }
    for name in Self.allowed { XCTAssertNotEqual(try lookup(state, name), .nil, name) }
    XCTAssertEqual(try state.execute("return package.cpath, #package.searchers"), ["", 2])
  }

  func testTrustedModeHasEverything() throws {
    let state = try LuaState(options: LuaOptions(trusted: true))
    for name in Self.forbidden + Self.allowed {
      XCTAssertNotEqual(try lookup(state, name), .nil, name)
    }
  }

  func testRequireOfStandardModulesIsRefused() throws {
    let state = try LuaState()
    guard case .runtime(let message, _)? = assertLuaError({ try state.execute("return require('io')") }) else { return XCTFail() }
    XCTAssertTrue(message.contains("module 'io' not found"), message)
  }

  func testCollectGarbageIsRestricted() throws {
    let state = try LuaState()
    XCTAssertEqual(try state.execute("return type(collectgarbage('count'))"), ["number"])
    XCTAssertEqual(try state.execute("return collectgarbage()"), [0])
    guard case .runtime(let message, _)? = assertLuaError({ try state.execute("collectgarbage('stop')") }) else { return XCTFail() }
    XCTAssertTrue(message.contains("not allowed in the sandbox"), message)
  }

  func testBinaryChunksAreRejected() throws {
    let trusted = try LuaState(options: LuaOptions(trusted: true))
    let binary = try XCTUnwrap(try trusted.execute("return string.dump(function() return 42 end)").first)
    XCTAssertEqual(try trusted.call(try trusted.load("return load(...)()"), binary), [42])
    let sandbox = try LuaState()
    let attempt = try sandbox.load("local f, err = load(...) return f, err")
    let result = try sandbox.call(attempt, binary)
    XCTAssertEqual(result.first, .nil)
    XCTAssertTrue(result[1].stringValue?.contains("attempt to load a binary chunk") ?? false, "\(result)")
    // Explicitly asking for binary mode does not help.
    let forced = try sandbox.call(try sandbox.load("return load(..., 'x', 'b')"), binary)
    XCTAssertEqual(forced.first, .nil)
    // Nor does loading from Swift.
    guard case .string(let bytes) = binary else { return XCTFail() }
    let error = bytes.bytes.withUnsafeBytes { raw in assertLuaError { try sandbox.load(bytes: raw) } }
    guard case .syntax(let message, _)? = error else { return XCTFail("\(String(describing: error))") }
    XCTAssertTrue(message.contains("binary"), message)
    // Text chunks still load, with an environment.
    XCTAssertEqual(try sandbox.execute("return load('return x', 'c', 't', { x = 5 })()"), [5])
  }

  func testRequireIsConfinedToScriptRoots() throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("relua-lua-\(UUID().uuidString)")
    let outside = root.appendingPathComponent("outside")
    let scripts = root.appendingPathComponent("scripts")
    try FileManager.default.createDirectory(at: scripts.appendingPathComponent("feature/parts"), withIntermediateDirectories: true)
    try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: root) }
    try "return { name = 'counter', path = select(2, ...) }".write(
      to: scripts.appendingPathComponent("feature/counter.lua"), atomically: true, encoding: .utf8)
    try "return 'init of feature.parts'".write(
      to: scripts.appendingPathComponent("feature/parts/init.lua"), atomically: true, encoding: .utf8)
    try "return 'secret'".write(to: outside.appendingPathComponent("x.lua"), atomically: true, encoding: .utf8)
    try "return 'secret'".write(to: root.appendingPathComponent("x.lua"), atomically: true, encoding: .utf8)

    let state = try LuaState(options: LuaOptions(scriptRoots: [scripts.path]))
    XCTAssertEqual(try state.execute("return require('feature.counter').name"), ["counter"])
    XCTAssertTrue(try state.execute("return require('feature.counter').path")[0].stringValue?.hasSuffix("scripts/feature/counter.lua") ?? false)
    XCTAssertEqual(try state.execute("return (require('feature.parts'))"), ["init of feature.parts"])
    for name in ["../x", "..x", "../outside/x", outside.appendingPathComponent("x").path, "/etc/passwd", "a/b", ".x"] {
      let error = assertLuaError { try state.call(try state.load("return require(...)"), .text(name)) }
      guard case .runtime(let text, _)? = error else { return XCTFail("\(name): \(String(describing: error))") }
      XCTAssertTrue(text.contains("refused"), "\(name): \(text)")
    }
    guard case .runtime(let missing, _)? = assertLuaError({ try state.execute("return require('nope')") }) else { return XCTFail() }
    XCTAssertTrue(missing.contains("no file"), missing)
    // Module errors carry the module's file and line.
    try "local x = nil\nreturn x.y".write(to: scripts.appendingPathComponent("broken.lua"), atomically: true, encoding: .utf8)
    guard case .runtime(let broken, _)? = assertLuaError({ try state.execute("return require('broken')") }) else { return XCTFail() }
    XCTAssertTrue(broken.contains("broken.lua:2:"), broken)
  }

  /// Trusted, the script roots come first and `package.path` after them; a name the roots do not
  /// take (`a/b`) goes on to `package.path`'s searcher instead of being refused.
  func testTrustedStatesSearchTheRootsThenPackagePath() throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("relua-lua-\(UUID().uuidString)")
    let scripts = root.appendingPathComponent("scripts"), lib = root.appendingPathComponent("lib")
    try FileManager.default.createDirectory(at: scripts, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(at: lib.appendingPathComponent("sub"), withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: root) }
    try "return 'from the roots'".write(to: scripts.appendingPathComponent("both.lua"), atomically: true, encoding: .utf8)
    try "return 'from package.path'".write(to: lib.appendingPathComponent("both.lua"), atomically: true, encoding: .utf8)
    try "return 'slashed'".write(to: lib.appendingPathComponent("sub/helper.lua"), atomically: true, encoding: .utf8)

    let state = try LuaState(options: LuaOptions(trusted: true, scriptRoots: [scripts.path]))
    try state.call(try state.load("package.path = ... .. '/?.lua'"), .text(lib.path))
    XCTAssertEqual(try state.execute("return (require('both'))"), ["from the roots"])
    XCTAssertEqual(try state.execute("return (require('sub/helper'))"), ["slashed"])
    guard case .runtime(let missing, _)? = assertLuaError({ try state.execute("return require('no/such')") }) else {
      return XCTFail()
    }
    XCTAssertTrue(missing.contains("no field package.preload['no/such']\n\tno file for 'no/such' in the script roots (not a dotted name)\n\tno file '"), missing)
    // The roots' own lines have no blank line before them.
    guard case .runtime(let dotted, _)? = assertLuaError({ try state.execute("return require('nope')") }) else {
      return XCTFail()
    }
    XCTAssertTrue(dotted.contains("no field package.preload['nope']\n\tno file '\(scripts.path)/nope.lua'\n\tno file '\(scripts.path)/nope/init.lua'\n\tno file '\(lib.path)/nope.lua'"), dotted)
  }

  func testPrintGoesToTheHandler() throws {
    var lines: [String] = []
    let state = try LuaState(options: LuaOptions(print: { lines.append($0) }))
    try state.execute("print('a', 1, 2.5, nil, true) print()")
    XCTAssertEqual(lines, ["a\t1\t2.5\tnil\ttrue", ""])
  }
}
