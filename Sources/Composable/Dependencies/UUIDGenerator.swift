import Foundation

/// Makes UUIDs: random ones live, `00000000-0000-0000-0000-000000000000`, `…01`, … in tests.
public struct UUIDGenerator: Sendable {
  private let generate: @Sendable () -> UUID
  /// A generator calling `generate` for each UUID.
  public init(_ generate: @escaping @Sendable () -> UUID) { self.generate = generate }
  /// `uuid()`: the next UUID.
  public func callAsFunction() -> UUID { generate() }

  /// Random UUIDs (`UUID()`).
  public static let live = UUIDGenerator { UUID() }

  /// 0, 1, 2, … as UUIDs (`UUID(0)`), each generator counting on its own.
  public static var incrementing: UUIDGenerator {
    let counter = LockIsolated(0)
    return UUIDGenerator {
      counter.withValue { value in
        defer { value += 1 }
        return UUID(value)
      }
    }
  }

  /// Always `uuid` (for tests).
  public static func constant(_ uuid: UUID) -> UUIDGenerator { UUIDGenerator { uuid } }
}

extension UUID {
  /// `UUID(1)` is `00000000-0000-0000-0000-000000000001`: readable ids for tests. Any `Int` has
  /// one: its 64 bits, big-endian, are the UUID's last eight bytes (a negative one's two's complement).
  public init(_ intValue: Int) {
    let b = UInt64(bitPattern: Int64(intValue))
    func byte(_ shift: UInt64) -> UInt8 { UInt8(truncatingIfNeeded: b >> shift) }
    self.init(uuid: (0, 0, 0, 0, 0, 0, 0, 0, byte(56), byte(48), byte(40), byte(32), byte(24), byte(16), byte(8), byte(0)))
  }
}

private enum UUIDGeneratorKey: DependencyKey {
  static let liveValue = UUIDGenerator.live
  static var name: String { "uuid" }
}

extension DependencyValues {
  /// UUIDs (`UUIDGenerator.live` unless given; `.incrementing` in tests that want readable ids).
  public var uuid: UUIDGenerator {
    get { self[UUIDGeneratorKey.self] }
    set { self[UUIDGeneratorKey.self] = newValue }
  }
}
