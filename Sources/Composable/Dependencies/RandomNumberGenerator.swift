import ConcurrencyExtras

/// Random integers: `random(in: -100...100)`. Live uses the system generator; tests use a seeded one
/// (same seed, same numbers) or a script of values.
public struct RandomNumber: Sendable {
  private let next: @Sendable (ClosedRange<Int>) -> Int
  /// A generator calling `next` for each number in a range.
  public init(_ next: @escaping @Sendable (ClosedRange<Int>) -> Int) { self.next = next }

  /// `random(in: range)`: a number in `range`.
  public func callAsFunction(in range: ClosedRange<Int>) -> Int { next(range) }
  /// A number in `range`.
  public func random(in range: ClosedRange<Int>) -> Int { next(range) }

  /// The system's generator.
  public static let live = RandomNumber { Int.random(in: $0) }

  /// Deterministic numbers from `seed` (SplitMix64).
  public static func seeded(_ seed: UInt64) -> RandomNumber {
    let generator = LockIsolated(SplitMix64(seed: seed))
    return RandomNumber { range in generator.withValue { Int.random(in: range, using: &$0) } }
  }

  /// These values in order (clamped to the requested range), then the last one again.
  public static func sequence(_ values: [Int]) -> RandomNumber {
    let index = LockIsolated(0)
    return RandomNumber { range in
      index.withValue { i in
        let value = values.isEmpty ? range.lowerBound : values[min(i, values.count - 1)]
        i += 1
        return min(max(value, range.lowerBound), range.upperBound)
      }
    }
  }
}

/// A small seedable generator (SplitMix64).
public struct SplitMix64: RandomNumberGenerator, Sendable {
  private var state: UInt64
  /// A generator starting from `seed`: the same seed gives the same numbers.
  public init(seed: UInt64) { state = seed }
  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

private enum RandomNumberKey: DependencyKey {
  static let liveValue = RandomNumber.live
  static var name: String { "random" }
}

extension DependencyValues {
  /// Random integers (`RandomNumber.live` unless given).
  public var random: RandomNumber {
    get { self[RandomNumberKey.self] }
    set { self[RandomNumberKey.self] = newValue }
  }
}
