/// A string quoted for Lua or JSON: in double quotes, `"` and `\` escaped, newline, return and tab
/// as `\n`, `\r`, `\t`, other control characters as the format spells them, everything else
/// (UTF-8) as is. Built byte by byte in one buffer: escapes are ASCII and the other bytes of valid
/// UTF-8 pass through, and appending to a `String` scalar by scalar took seconds for megabytes.
enum QuotedString {
  /// Whether `byte` is another control character of the format, and how it is written.
  typealias ControlEscape = (_ byte: UInt8, _ into: inout [UInt8]) -> Bool

  static func quote(_ string: String, escapingControl escape: ControlEscape) -> String {
    var quoted: [UInt8] = [UInt8(ascii: "\"")]
    quoted.reserveCapacity(string.utf8.count + 2)
    for byte in string.utf8 {
      switch byte {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"): quoted.append(UInt8(ascii: "\\")); quoted.append(byte)
      case 0x0A: quoted.append(UInt8(ascii: "\\")); quoted.append(UInt8(ascii: "n"))
      case 0x0D: quoted.append(UInt8(ascii: "\\")); quoted.append(UInt8(ascii: "r"))
      case 0x09: quoted.append(UInt8(ascii: "\\")); quoted.append(UInt8(ascii: "t"))
      default: if !escape(byte, &quoted) { quoted.append(byte) }
      }
    }
    quoted.append(UInt8(ascii: "\""))
    return String(decoding: quoted, as: UTF8.self)
  }
}
