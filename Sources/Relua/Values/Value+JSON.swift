/// JSON for state files. Integers and floats stay apart (`1` vs `1.0`: a float is always written
/// with a fraction or an exponent, and a number without one reads back as an integer), record
/// keys come out sorted, identified collections are arrays (read them back with `hint:`).
extension Value {
  /// JSON text; `pretty` indents by two spaces. NaN and infinities have no JSON form and throw.
  public func json(pretty: Bool = false) throws(ValueError) -> String {
    var output = ""
    try writeJSON(into: &output, pretty: pretty, indent: 0)
    return output
  }

  private func writeJSON(into output: inout String, pretty: Bool, indent: Int) throws(ValueError) {
    switch self {
    case .null: output += "null"
    case .boolean(let value): output += value ? "true" : "false"
    case .integer(let value): output += String(value)
    case .float(let value):
      guard value.isFinite else { throw .json("\(value) has no JSON form") }
      output += value.description
    case .string(let value): writeJSONString(value, into: &output)
    case .array(let elements): try writeJSONArray(elements, into: &output, pretty: pretty, indent: indent)
    case .identified(let collection):
      try writeJSONArray(collection.elements, into: &output, pretty: pretty, indent: indent)
    case .record(let record):
      guard !record.isEmpty else { output += "{}"; return }
      output += "{"
      for (offset, field) in record.fields.enumerated() {
        if offset > 0 { output += "," }
        if pretty { output += "\n" + String(repeating: " ", count: indent + 2) }
        writeJSONString(field.key, into: &output)
        output += pretty ? ": " : ":"
        try field.value.writeJSON(into: &output, pretty: pretty, indent: indent + 2)
      }
      if pretty { output += "\n" + String(repeating: " ", count: indent) }
      output += "}"
    }
  }

  private func writeJSONArray(_ elements: [Value], into output: inout String, pretty: Bool, indent: Int) throws(ValueError) {
    guard !elements.isEmpty else { output += "[]"; return }
    output += "["
    for (offset, element) in elements.enumerated() {
      if offset > 0 { output += "," }
      if pretty { output += "\n" + String(repeating: " ", count: indent + 2) }
      try element.writeJSON(into: &output, pretty: pretty, indent: indent + 2)
    }
    if pretty { output += "\n" + String(repeating: " ", count: indent) }
    output += "]"
  }

  /// Parses JSON. `null` object members are left out (a record has no nil fields); `null` in an
  /// array is an error (Lua sequences have no holes). With a `hint` (e.g. the feature's initial
  /// state), arrays become identified collections where the hint has one.
  public init(json text: String, hint: Value? = nil) throws(ValueError) {
    var parser = JSONParser(bytes: Array(text.utf8))
    parser.skipSpace()
    var value = try parser.parseValue()
    parser.skipSpace()
    guard parser.position == parser.bytes.count else { throw parser.error("unexpected text after the value") }
    if let hint { value = try value.conformed(to: hint) }
    self = value
  }

  /// This value with the kinds of `template`'s containers where plain data cannot tell them
  /// apart: arrays become identified collections, and empty records empty arrays or
  /// identified collections, where the template has those.
  public func conformed(to template: Value) throws(ValueError) -> Value {
    switch (self, template) {
    case (.record(let record), .record(let templateRecord)):
      var result = ValueRecord()
      for field in record.fields { result[field.key] = try field.value.conformed(to: templateRecord[field.key]) }
      return .record(result)
    case (.record(let record), _) where record.isEmpty:
      return template.emptyOfSameKind ?? self
    case (.array(let elements), .array(let templateElements)):
      guard !templateElements.isEmpty else { return self }
      return .array(try Self.conformed(elements, to: templateElements))
    case (.array(let elements), .identified(let templateCollection)):
      return .identified(try IdentifiedValues(Self.conformed(elements, to: templateCollection.elements)))
    default:
      return self
    }
  }
}

extension Value {
  /// Elements conformed to the template's element at the same position, past its end to its
  /// first: a list may mix kinds (`{ {}, { x = 1 } }` from an `any` payload), and its own JSON
  /// must read back as it was.
  fileprivate static func conformed(_ elements: [Value], to templates: [Value]) throws(ValueError) -> [Value] {
    guard let first = templates.first else { return elements }
    var result: [Value] = []
    result.reserveCapacity(elements.count)
    for (position, element) in elements.enumerated() {
      result.append(try element.conformed(to: position < templates.count ? templates[position] : first))
    }
    return result
  }
}

private let hexDigits = Array("0123456789abcdef".utf8)

private func writeJSONString(_ string: String, into output: inout String) {
  output += QuotedString.quote(string) { byte, quoted in
    guard byte < 0x20 else { return false }
    quoted.append(UInt8(ascii: "\\"))
    quoted.append(UInt8(ascii: "u"))
    quoted.append(48)
    quoted.append(48)
    quoted.append(hexDigits[Int(byte >> 4)])
    quoted.append(hexDigits[Int(byte & 15)])
    return true
  }
}

/// A small strict JSON parser (RFC 8259) producing `Value`s.
private struct JSONParser {
  let bytes: [UInt8]
  var position = 0
  /// Objects and arrays open around the current position (bounded by `Value.maxDepth`).
  private var depth = 0

  init(bytes: [UInt8]) { self.bytes = bytes }

  func error(_ message: String) -> ValueError { .json("\(message) at byte \(position)") }

  mutating func skipSpace() {
    while position < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[position]) { position += 1 }
  }

  mutating func parseValue() throws(ValueError) -> Value {
    guard position < bytes.count else { throw error("unexpected end") }
    switch bytes[position] {
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      guard depth < Value.maxDepth else { throw error("nested more than \(Value.maxDepth) objects and arrays deep") }
      depth += 1
      defer { depth -= 1 }
      return bytes[position] == UInt8(ascii: "{") ? try parseObject() : try parseArray()
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "t"): try expect("true"); return .boolean(true)
    case UInt8(ascii: "f"): try expect("false"); return .boolean(false)
    case UInt8(ascii: "n"): try expect("null"); return .null
    default: return try parseNumber()
    }
  }

  private mutating func expect(_ word: String) throws(ValueError) {
    let wordBytes = Array(word.utf8)
    guard bytes.count - position >= wordBytes.count, Array(bytes[position..<position + wordBytes.count]) == wordBytes else {
      throw error("invalid literal")
    }
    position += wordBytes.count
  }

  private mutating func parseObject() throws(ValueError) -> Value {
    position += 1
    var record = ValueRecord()
    skipSpace()
    if position < bytes.count, bytes[position] == UInt8(ascii: "}") { position += 1; return .record(record) }
    while true {
      skipSpace()
      guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw error("expected a key") }
      let key = try parseString()
      skipSpace()
      guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw error("expected ':'") }
      position += 1
      skipSpace()
      record[key] = try parseValue()
      skipSpace()
      guard position < bytes.count else { throw error("unexpected end") }
      if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
      guard bytes[position] == UInt8(ascii: "}") else { throw error("expected ',' or '}'") }
      position += 1
      return .record(record)
    }
  }

  private mutating func parseArray() throws(ValueError) -> Value {
    position += 1
    var elements: [Value] = []
    skipSpace()
    if position < bytes.count, bytes[position] == UInt8(ascii: "]") { position += 1; return .array(elements) }
    while true {
      skipSpace()
      let element = try parseValue()
      guard !element.isNull else { throw error("null in an array (Lua sequences have no holes)") }
      elements.append(element)
      skipSpace()
      guard position < bytes.count else { throw error("unexpected end") }
      if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
      guard bytes[position] == UInt8(ascii: "]") else { throw error("expected ',' or ']'") }
      position += 1
      return .array(elements)
    }
  }

  /// A string: its UTF-8 bytes collected in one buffer, escapes appended as their encoding, and
  /// the text made once at the end (appending to a `String` after each escape copied it whole: a
  /// string alternating escapes and text took quadratic time; the fuzzer found it).
  private mutating func parseString() throws(ValueError) -> String {
    position += 1
    var utf8: [UInt8] = []
    func append(_ scalar: Unicode.Scalar) { utf8.append(contentsOf: UTF8.encode(scalar)!) }
    while position < bytes.count {
      let byte = bytes[position]
      position += 1
      switch byte {
      case UInt8(ascii: "\""):
        return String(decoding: utf8, as: UTF8.self)
      case UInt8(ascii: "\\"):
        guard position < bytes.count else { throw error("unexpected end") }
        let escape = bytes[position]
        position += 1
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escape)
        case UInt8(ascii: "b"): utf8.append(0x08)
        case UInt8(ascii: "f"): utf8.append(0x0C)
        case UInt8(ascii: "n"): utf8.append(0x0A)
        case UInt8(ascii: "r"): utf8.append(0x0D)
        case UInt8(ascii: "t"): utf8.append(0x09)
        case UInt8(ascii: "u"):
          var code = try parseHex4()
          if (0xD800..<0xDC00).contains(code) {
            guard bytes.count - position >= 6, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
              throw error("unpaired surrogate")
            }
            position += 2
            let low = try parseHex4()
            guard (0xDC00..<0xE000).contains(low) else { throw error("unpaired surrogate") }
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
          }
          guard let scalar = Unicode.Scalar(code) else { throw error("invalid \\u escape") }
          append(scalar)
        default: throw error("invalid escape")
        }
      case 0..<0x20: throw error("control character in a string")
      default: utf8.append(byte)
      }
    }
    throw error("unterminated string")
  }

  private mutating func parseHex4() throws(ValueError) -> UInt32 {
    guard bytes.count - position >= 4 else { throw error("invalid \\u escape") }
    var code: UInt32 = 0
    for offset in 0..<4 {
      let byte = bytes[position + offset]
      let digit: UInt8
      switch byte {
      case 48...57: digit = byte - 48
      case 65...70: digit = byte - 55
      case 97...102: digit = byte - 87
      default: throw error("invalid \\u escape")
      }
      code = code << 4 | UInt32(digit)
    }
    position += 4
    return code
  }

  private mutating func parseNumber() throws(ValueError) -> Value {
    let start = position
    var isFloat = false
    while position < bytes.count {
      let byte = bytes[position]
      if byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") { isFloat = true }
      guard (byte >= 48 && byte <= 57) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || isFloat && byte != UInt8(ascii: ",") && byte > 0x20 && byte != UInt8(ascii: "]") && byte != UInt8(ascii: "}") else { break }
      position += 1
    }
    let text = String(decoding: bytes[start..<position], as: UTF8.self)
    guard !text.isEmpty else { throw error("unexpected character") }
    if isFloat {
      guard let value = Double(text), value.isFinite else { throw error("invalid number \(text)") }
      return .float(value)
    }
    guard let value = Int64(text) else { throw error("invalid or out-of-range integer \(text)") }
    return .integer(value)
  }
}
