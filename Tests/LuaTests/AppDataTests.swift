import XCTest

@testable import Lua

/// `LuaState.appData`: typed per-state storage, dropped when the state closes.
final class AppDataTests: XCTestCase {
  private final class Owner {
    let name: String
    init(_ name: String) { self.name = name }
  }

  func testOneValuePerTypeKeptUntilTheStateCloses() throws {
    let state = try LuaState()
    XCTAssertNil(state.appData(Owner.self))
    state.setAppData(Owner("first"))
    state.setAppData(Owner("second"))
    state.setAppData(7)
    XCTAssertEqual(state.appData(Owner.self)?.name, "second")
    XCTAssertEqual(state.appData(Int.self), 7)
    XCTAssertNil(state.appData(String.self))

    weak var kept = state.appData(Owner.self)
    var seenAtClose: String?
    state.onClose { seenAtClose = state.appData(Owner.self)?.name }
    state.close()
    XCTAssertEqual(seenAtClose, "second", "close handlers still see the app data")
    XCTAssertNil(kept, "dropped when the state closes")
    XCTAssertNil(state.appData(Int.self))

    state.setAppData(Owner("after"))
    XCTAssertNil(state.appData(Owner.self), "a closed state keeps nothing")
  }

  func testNilForgets() throws {
    let state = try LuaState()
    state.setAppData("text")
    state.setAppData(nil as String?)
    XCTAssertNil(state.appData(String.self))
  }
}
