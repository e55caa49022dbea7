import Foundation

/// The current date: `date.now`.
public struct DateGenerator: Sendable {
  private let generate: @Sendable () -> Date
  /// A generator calling `generate` for each date.
  public init(_ generate: @escaping @Sendable () -> Date) { self.generate = generate }
  /// The current date.
  public var now: Date { generate() }
  /// `date()`: the current date.
  public func callAsFunction() -> Date { generate() }

  /// The system's clock (`Date()`).
  public static let live = DateGenerator { Date() }
  /// Always `date` (for tests).
  public static func constant(_ date: Date) -> DateGenerator { DateGenerator { date } }
}

private enum DateGeneratorKey: DependencyKey {
  static let liveValue = DateGenerator.live
  static var name: String { "date" }
}

extension DependencyValues {
  /// The current date (`DateGenerator.live` unless given).
  public var date: DateGenerator {
    get { self[DateGeneratorKey.self] }
    set { self[DateGeneratorKey.self] = newValue }
  }
}
