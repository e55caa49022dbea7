import XCTest
final class CLITestsPlaceholder: XCTestCase { func testBuilds() {} }
