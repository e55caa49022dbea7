/// The words after FILE in `relua run FILE …`: the script's arguments, among which relua still
/// takes its own limit and sandbox options (`--instruction-limit N`, `--memory-limit BYTES`,
/// `--trusted`, also as `--option=value`) up to a `--`. Everything after the `--` is the script's,
/// so a script can still be given such text. (ArgumentParser hands the words after FILE over
/// untouched; without this, `relua run spin.lua --instruction-limit 1000` ran unlimited.)
struct ScriptArguments {
  var script: [String] = []
  var own = OwnOptions()

  typealias Invalid = OwnOptions.Invalid

  /// `endedOptions`: a `--` already came before FILE (relua's options ended there).
  init(_ words: [String], endedOptions: Bool = false) throws {
    guard !endedOptions else {
      script = words
      return
    }
    var index = words.startIndex
    while index < words.endIndex {
      let word = words[index]
      index += 1
      if word == "--" {
        script += words[index...]
        return
      }
      let taken = try own.take(word) {
        guard index < words.endIndex else { return nil }
        defer { index += 1 }
        return words[index]
      }
      if !taken { script.append(word) }
    }
  }
}
