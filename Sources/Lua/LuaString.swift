/// A Lua string: bytes, not necessarily UTF-8, possibly with embedded zeros.
public struct LuaString: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
  /// The string's bytes.
  public var bytes: [UInt8]

  /// A string of these bytes.
  public init(bytes: [UInt8]) { self.bytes = bytes }
  /// A string of the text's UTF-8 bytes.
  public init(_ string: String) { self.bytes = Array(string.utf8) }
  /// A string of the literal's UTF-8 bytes.
  public init(stringLiteral value: String) { self.init(value) }

  /// The text when the bytes are valid UTF-8, else nil.
  public var string: String? {
    let decoded = String(decoding: bytes, as: UTF8.self)
    return decoded.utf8.elementsEqual(bytes) ? decoded : nil
  }

  /// The text, with invalid UTF-8 replaced by U+FFFD.
  public var description: String { String(decoding: bytes, as: UTF8.self) }
}
