import Foundation

/// relua's command words (`app`, `run`, `test` …) come first, as `git`'s or `swift`'s do: lua.c
/// has none, so `lua app` runs a file named `app`, while `relua app` is the web app command. A
/// script named like a command runs as `relua ./app`, `relua -- app` (lua.c's end of options) or
/// `relua run app`. When a command's arguments do not parse and such a file is in the current
/// directory, the error says so (docs/DESIGN-NOTES.md, "A script named like a command").
enum CommandWordNote {
  /// The note for `words` (relua's arguments), or nil: the first word is a command and a file of
  /// that name (not a folder) is here.
  static func note(for words: [String], commands: Set<String>) -> String? {
    guard let word = words.first, commands.contains(word), !word.hasPrefix("-") else { return nil }
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: word, isDirectory: &isFolder), !isFolder.boolValue else { return nil }
    return "relua: '\(word)' is relua's command (relua \(word) --help), not the file ./\(word); "
      + "to run that script: relua ./\(word) (or relua -- \(word), relua run \(word))\n"
  }
}
