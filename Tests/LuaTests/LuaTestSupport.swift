import CLua
import XCTest

@testable import Lua

/// The stack top of the thread Swift uses now.
func stackTop(_ state: LuaState) -> Int32 {
  (try? state.withRawState { lua_gettop($0) }) ?? -1
}

/// Runs `body` and checks that the Lua stack top is the same afterwards (also when it throws).
func assertBalanced<R>(
  _ state: LuaState, file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> R
) rethrows -> R {
  let before = stackTop(state)
  defer { XCTAssertEqual(stackTop(state), before, "stack top changed", file: file, line: line) }
  return try body()
}

/// Asserts `body` throws a `LuaError` and returns it.
@discardableResult
func assertLuaError(
  file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> Any
) -> LuaError? {
  do {
    _ = try body()
    XCTFail("expected a LuaError", file: file, line: line)
    return nil
  } catch let error as LuaError {
    return error
  } catch {
    XCTFail("expected a LuaError, got \(error)", file: file, line: line)
    return nil
  }
}

struct TestError: Error, CustomStringConvertible, Equatable {
  let code: Int
  var description: String { "test error \(code)" }
}

final class Probe {
  nonisolated(unsafe) static var deinits = 0  // tests run serially; only they touch it
  let id: Int
  init(id: Int) { self.id = id }
  deinit { Probe.deinits += 1 }
}
