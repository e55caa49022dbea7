/// `relua repl`'s `--inspect [PORT]` (also `--inspect=PORT`): serve the inspector on
/// 127.0.0.1:PORT (any free port without one). Like `relua run`'s own options, it is relua's
/// wherever it appears up to a `--` — after the script too, as in `relua repl FILE.lua --inspect`;
/// a number right after it is its port. It is taken out of the words before lua.c's command line
/// reads them.
struct InspectOption {
  typealias Invalid = OwnOptions.Invalid

  /// Removes `--inspect [PORT]` from `words`; the port asked for (0: any), or nil without it.
  static func take(from words: inout [String]) throws -> UInt16? {
    var port: UInt16?
    var index = words.startIndex
    while index < words.endIndex {
      let word = words[index]
      if word == "--" { break }
      // lua.c's options with a separate value: the value is not an option (`-e --inspect`).
      if word == "-e" || word == "-l" {
        index += 2
        continue
      }
      let (name, attached) = OwnOptions.split(word)
      guard name == "--inspect" else {
        index += 1
        continue
      }
      words.remove(at: index)
      if let attached {
        port = try parsePort(attached)
      } else if index < words.endIndex, !words[index].isEmpty, words[index].allSatisfy(\.isASCII), words[index].allSatisfy(\.isNumber) {
        port = try parsePort(words.remove(at: index))
      } else {
        port = 0
      }
    }
    return port
  }

  private static func parsePort(_ text: String) throws -> UInt16 {
    guard let port = UInt16(text) else { throw Invalid(description: "--inspect's port must be a number from 0 to 65535, not '\(text)'") }
    return port
  }
}
