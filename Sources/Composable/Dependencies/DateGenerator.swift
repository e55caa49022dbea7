import Foundation

/// The current date: `date.now`.
public struct DateGenerator: Sendable {
  private let generate: @Sendable () -> Date
  public init(_ generate: @escaping @Sendable () -> Date) { self.generate = generate }
  public var now: Date { generate() }
  public func callAsFunction() -> Date { generate() }

  public static let live = DateGenerator { Date() }
  public static func constant(_ date: Date) -> DateGenerator { DateGenerator { date } }
}

private enum DateGeneratorKey: DependencyKey {
  static let liveValue = DateGenerator.live
  static var name: String { "date" }
}

extension DependencyValues {
  public var date: DateGenerator {
    get { self[DateGeneratorKey.self] }
    set { self[DateGeneratorKey.self] = newValue }
  }
}
