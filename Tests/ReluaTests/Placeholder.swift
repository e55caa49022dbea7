import XCTest
final class ReluaPlaceholderTests: XCTestCase { func testBuilds() {} }
