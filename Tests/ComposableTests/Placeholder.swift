import XCTest
final class ComposableTestsPlaceholder: XCTestCase { func testBuilds() {} }
