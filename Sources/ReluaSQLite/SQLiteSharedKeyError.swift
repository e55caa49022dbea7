/// Why a `sqlite` key could not load, save or be made: the text a feature reads as its share's
/// `loadError` or `saveError`, and the registry's warning.
public struct SQLiteSharedKeyError: Error, CustomStringConvertible, Sendable {
  /// The message, naming the key, the row and the column where one is to blame.
  public let description: String

  /// An error saying `description`.
  public init(_ description: String) { self.description = description }
}
