extension ConsoleSession {
  /// Completions of a name that holds characters libedit breaks words at (`=` and `"`, as in
  /// `:binding.rows[id="a1"].name`): libedit hands over only the part after the last one
  /// (`a1"].na`), so the names are matched against the whole last word of the line
  /// (`:binding.rows[id="a1"].na`) and returned without the part before `word`, which libedit
  /// keeps. Nil when the word is whole, or nothing matches that way (then the names are matched
  /// against `word` as before).
  nonisolated static func wholeMatches(_ names: [String], line: String, word: String) -> [String]? {
    guard let whole = line.split(separator: " ", omittingEmptySubsequences: false).last.map(String.init),
          whole != word, whole.hasSuffix(word)
    else { return nil }
    let kept = whole.count - word.count
    let matches = names.filter { $0.hasPrefix(whole) && $0 != whole }.map { String($0.dropFirst(kept)) }
    return matches.isEmpty ? nil : matches.sorted()
  }
}
