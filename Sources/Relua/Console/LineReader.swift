import CEditLine
import Foundation

/// Where the REPL reads its lines: libedit on a terminal (prompts, emacs keys, history, Tab
/// completion), plain standard input otherwise (no prompts, so the REPL can be scripted).
///
/// Reading blocks, so it happens on a thread of its own; the REPL awaits each line on the main
/// actor, where stores run their effects meanwhile.
///
/// On a terminal, Ctrl-C cuts the reading short (`Input.interrupted`): libedit reads through
/// `readCharacter`, which also wakes on Ctrl-C (see `InterruptSignal`), and the dropped line is
/// marked `^C` as a shell marks it.
public final class LineReader: @unchecked Sendable {
  public enum Input: Equatable, Sendable {
    case line(String)
    /// Ctrl-C at the prompt: what was typed is dropped.
    case interrupted
    /// Ctrl-D on an empty line, or the end of piped input.
    case end
  }

  public let isInteractive: Bool
  private let queue = DispatchQueue(label: "relua.repl.read")
  private let historyPath: String?

  /// Completions for the word before the cursor; set by the REPL (called on the reading thread,
  /// so it must only read a snapshot the REPL keeps up to date).
  public var complete: (@Sendable (_ line: String, _ word: String) -> [String])?

  public init(interactive: Bool = isatty(STDIN_FILENO) != 0, historyPath: String? = LineReader.defaultHistoryPath) {
    self.isInteractive = interactive
    self.historyPath = interactive ? historyPath : nil
    if interactive {
      LineReader.current = self
      relua_editline_setup({ text, _, _ in LineReader.completions(for: text) }, { _ in LineReader.readCharacter() })
      if let historyPath { read_history(historyPath) }
    }
  }

  /// `$RELUA_HISTORY`, else `~/.relua_history`.
  public static var defaultHistoryPath: String? {
    if let path = ProcessInfo.processInfo.environment["RELUA_HISTORY"], !path.isEmpty { return path }
    return ProcessInfo.processInfo.environment["HOME"].map { $0 + "/.relua_history" }
  }

  /// The next line (without its newline), Ctrl-C at the prompt, or the end of input.
  public func readLine(prompt: String) async -> Input {
    await withCheckedContinuation { continuation in
      queue.async { [self] in continuation.resume(returning: self.readBlocking(prompt: prompt)) }
    }
  }

  private func readBlocking(prompt: String) -> Input {
    guard isInteractive else { return Swift.readLine(strippingNewline: true).map(Input.line) ?? .end }
    InterruptSignal.dropPresses()
    LineReader.interrupted = false
    guard let raw = readline(prompt) else {
      guard LineReader.interrupted else { return .end }
      FileHandle.standardOutput.write(Data("^C\n".utf8))
      return .interrupted
    }
    defer { free(raw) }
    let line = String(cString: raw)
    if !line.trimmingCharacters(in: .whitespaces).isEmpty {
      add_history(line)
      if let historyPath {
        // Appended line by line, so a session that crashes keeps what it had.
        if !FileManager.default.fileExists(atPath: historyPath) {
          FileManager.default.createFile(atPath: historyPath, contents: nil)
        }
        _ = append_history(1, historyPath)
        history_truncate_file(historyPath, 1000)
      }
    }
    return .line(line)
  }

  // MARK: Reading characters (libedit calls back on the reading thread)

  /// Whether Ctrl-C ended the current `readline` (used on the reading queue only).
  nonisolated(unsafe) private static var interrupted = false

  /// One character typed (a code point, decoded per the locale: UTF-8), or -1, which ends
  /// `readline` with nil: at the end of input, or on Ctrl-C.
  private static func readCharacter() -> Int32 {
    var state = mbstate_t()
    while true {
      guard InterruptSignal.waitForInput(on: STDIN_FILENO) else {
        interrupted = true
        return -1
      }
      var byte: CChar = 0
      let count = read(STDIN_FILENO, &byte, 1)
      if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
      guard count == 1 else { return -1 }
      var character: wchar_t = 0
      switch mbrtowc(&character, &byte, 1, &state) {
      case -2: continue  // more bytes to come
      case -1: state = mbstate_t()  // not valid: skipped
      default: return Int32(character)
      }
    }
  }

  // MARK: Completion (libedit calls back on the reading thread)

  nonisolated(unsafe) static var current: LineReader?

  private static func completions(for text: UnsafePointer<CChar>?) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
    relua_editline_completion_over()  // no file-name completion
    guard let text, let reader = current, let complete = reader.complete else { return nil }
    let word = String(cString: text)
    let line = relua_editline_line_buffer().map { String(cString: $0) } ?? word
    let matches = complete(line, word)
    guard !matches.isEmpty else { return nil }
    // readline's convention: [common prefix, match…, NULL], malloc'd; libedit frees them.
    let prefix = commonPrefix(matches)
    let array = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: matches.count + 2)
    array[0] = strdup(prefix)
    for (offset, match) in matches.enumerated() { array[offset + 1] = strdup(match) }
    array[matches.count + 1] = nil
    let raw = malloc(MemoryLayout<UnsafeMutablePointer<CChar>?>.stride * (matches.count + 2))!
      .bindMemory(to: UnsafeMutablePointer<CChar>?.self, capacity: matches.count + 2)
    raw.update(from: array, count: matches.count + 2)
    array.deallocate()
    return raw
  }

  private static func commonPrefix(_ words: [String]) -> String {
    guard var prefix = words.first else { return "" }
    for word in words.dropFirst() {
      while !word.hasPrefix(prefix) { prefix.removeLast() }
    }
    return prefix
  }
}
