import Foundation

extension UUIDGenerator {
  /// `first`, `first + 1`, … as UUIDs (`UUID(first)`): `.incrementing` starting past ids a test's
  /// state already holds (relua's `uuid = { incrementing = n }`).
  public static func incrementing(startingAt first: Int) -> UUIDGenerator {
    let counter = LockIsolated(first)
    return UUIDGenerator {
      counter.withValue { value in
        defer { value += 1 }
        return UUID(value)
      }
    }
  }
}
