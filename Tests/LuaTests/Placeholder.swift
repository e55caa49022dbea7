import XCTest
final class LuaTestsPlaceholder: XCTestCase { func testBuilds() {} }
