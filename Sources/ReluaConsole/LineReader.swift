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
package final class LineReader: @unchecked Sendable {
  package enum Input: Equatable, Sendable {
    case line(String)
    /// Ctrl-C at the prompt: what was typed is dropped.
    case interrupted
    /// Ctrl-D on an empty line, or the end of piped input.
    case end
  }

  package let isInteractive: Bool
  private let queue = DispatchQueue(label: "relua.repl.read")
  private let historyPath: String?

  /// Completions for the word before the cursor; set by the REPL (called on the reading thread,
  /// so it must only read a snapshot the REPL keeps up to date).
  package var complete: (@Sendable (_ line: String, _ word: String) -> [String])?

  package init(interactive: Bool = isatty(STDIN_FILENO) != 0, historyPath: String? = LineReader.defaultHistoryPath) {
    self.isInteractive = interactive
    self.historyPath = interactive ? historyPath : nil
    if interactive {
      LineReader.current = self
      relua_editline_setup({ text, _, _ in LineReader.completions(for: text) }, { _ in LineReader.readCharacter() })
      if let historyPath { read_history(historyPath) }
    }
  }

  /// `$RELUA_HISTORY`, else `~/.relua_history`.
  package static var defaultHistoryPath: String? {
    if let path = ProcessInfo.processInfo.environment["RELUA_HISTORY"], !path.isEmpty { return path }
    return ProcessInfo.processInfo.environment["HOME"].map { $0 + "/.relua_history" }
  }

  /// The next line (without its newline), Ctrl-C at the prompt, or the end of input.
  package func readLine(prompt: String) async -> Input {
    LineReader.outputLock.withLock { LineReader.prompt = prompt }
    return await withCheckedContinuation { continuation in
      queue.async { [self] in continuation.resume(returning: self.readBlocking(prompt: prompt)) }
    }
  }

  private func readBlocking(prompt: String) -> Input {
    guard isInteractive else {
      // A prompt without a terminal (lua.c's -i on a pipe): written as is, before reading.
      // (And the line read after it, as lua.c's readline echoes it.)
      guard !prompt.isEmpty else { return Swift.readLine(strippingNewline: true).map(Input.line) ?? .end }
      FileHandle.standardOutput.write(Data(prompt.utf8))
      guard let line = Swift.readLine(strippingNewline: true) else { return .end }
      FileHandle.standardOutput.write(Data((line + "\n").utf8))
      return .line(line)
    }
    InterruptSignal.dropPresses()
    LineReader.interrupted = false
    let prompt = LineReader.beginEditing()
    let raw = readline(prompt)
    LineReader.endEditing()
    guard let raw else {
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
      switch InterruptSignal.waitForInput(on: STDIN_FILENO, or: outputPipe.read) {
      case .interrupted:
        interrupted = true
        return -1
      case .other:
        showQueuedOutput()
        continue
      case .input:
        break
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

  // MARK: Output while a line is being edited

  /// Whether `readline` runs, and what was written meanwhile, not shown yet (under `outputLock`).
  nonisolated(unsafe) private static var editing = false
  nonisolated(unsafe) private static var queuedOutput: [(text: String, toError: Bool)] = []
  private static let outputLock = NSLock()
  /// Wakes the reading thread, waiting for a key, to show queued output.
  private static let outputPipe: (read: Int32, write: Int32) = {
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { fatalError("relua: cannot create the REPL's output pipe") }
    for end in ends { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
    return (ends[0], ends[1])
  }()

  /// Writes `text` and a newline to standard output (or error). While a line is being edited at
  /// the prompt (an effect's action arriving as the user types), the text goes above it: the
  /// reading thread clears the line, writes the text and redraws the prompt with what was typed,
  /// the cursor where it was. In order with everything else written.
  package static func write(_ text: String, toError: Bool = false) {
    outputLock.withLock {
      writesAndLines &+= 1
      guard editing else { return emit(text, toError: toError) }
      queuedOutput.append((text, toError))
      var byte: UInt8 = 0
      _ = Glibc.write(outputPipe.write, &byte, 1)
    }
  }

  /// Writes what waits to be shown above the line being edited, now, from any thread: relua is
  /// about to end (a signal), and the reading thread would not get to it.
  static func flushBeforeExit() {
    outputLock.withLock {
      if editing && !queuedOutput.isEmpty { FileHandle.standardOutput.write(Data("\r\u{1B}[K".utf8)) }
      editing = false
      flushQueuedOutput()
    }
  }

  private static func emit(_ text: String, toError: Bool) {
    (toError ? FileHandle.standardError : FileHandle.standardOutput).write(Data((text + "\n").utf8))
  }

  /// The prompt to show: the one `readLine` was given, or a newer one from `changePrompt`.
  private static func beginEditing() -> String {
    outputLock.withLock {
      writesAndLines &+= 1
      editing = true
      shownPrompt = prompt
      return prompt
    }
  }

  /// The prompt asked for (under `outputLock`), and the one `readline` shows (the reading thread's).
  nonisolated(unsafe) private static var prompt = ""
  nonisolated(unsafe) private static var shownPrompt = ""

  /// Shows `newPrompt` instead of the prompt of the line being edited, at once, with what was
  /// typed (an effect opened or closed a screen: the prompt names the screen on top). Without a
  /// line being edited, it is the prompt of the next one (unless `readLine` is given another).
  package func changePrompt(to newPrompt: String) {
    guard isInteractive else { return }
    LineReader.outputLock.withLock {
      guard LineReader.prompt != newPrompt else { return }
      LineReader.prompt = newPrompt
      guard LineReader.editing else { return }
      var byte: UInt8 = 0
      _ = Glibc.write(LineReader.outputPipe.write, &byte, 1)
    }
  }

  /// After `readline`: what came too late to be shown above the line follows it.
  private static func endEditing() {
    outputLock.withLock {
      writesAndLines &+= 1
      editing = false
      flushQueuedOutput()
    }
    drainOutputPipe()
  }

  /// On the reading thread, inside `readline` (libedit waits for a key): clear the line being
  /// edited, write the queued output, let libedit draw the prompt (a new one, if it changed) and
  /// the line again.
  private static func showQueuedOutput() {
    drainOutputPipe()
    let (shown, newPrompt) = outputLock.withLock { () -> (Bool, String?) in
      let newPrompt = prompt != shownPrompt ? prompt : nil
      guard !queuedOutput.isEmpty || newPrompt != nil else { return (false, nil) }
      FileHandle.standardOutput.write(Data("\r\u{1B}[K".utf8))
      flushQueuedOutput()
      return (true, newPrompt)
    }
    if let newPrompt {
      shownPrompt = newPrompt
      rl_set_prompt(newPrompt)
    }
    if shown { rl_forced_update_display() }
  }

  /// Under `outputLock`.
  private static func flushQueuedOutput() {
    for (text, toError) in queuedOutput { emit(text, toError: toError) }
    queuedOutput.removeAll()
  }

  private static func drainOutputPipe() {
    var bytes = [UInt8](repeating: 0, count: 64)
    while read(outputPipe.read, &bytes, bytes.count) > 0 {}
  }

  // MARK: A block rewritten in place

  /// Bumped (under `outputLock`) by each write and each line's start and end: a block is still
  /// the last thing above the prompt while this is what it was right after it.
  nonisolated(unsafe) private static var writesAndLines = 0
  /// What the last block queued writes before its text (the move over the block it replaces).
  nonisolated(unsafe) private static var queuedBlockPrefix = ""

  /// A block written above the line being edited: where it stands, and the rows it takes.
  package struct BlockMark: Sendable, Equatable {
    let writesAndLines: Int
    let rows: Int
  }

  /// Whether the block at `mark` is still the last thing written above the line being edited
  /// (nothing written, no line entered since).
  package static func isLast(_ mark: BlockMark) -> Bool {
    outputLock.withLock { editing && writesAndLines == mark.writesAndLines }
  }

  /// Writes `text` as `write` does; `replacing` a block that is still the last written (an
  /// effect's timer tick after tick), writes it over that block instead: the terminal's cursor
  /// goes up the block's rows and clears to the end of the screen first. Returns the new block's
  /// mark, nil when it could not be replaced in turn (not editing, or a line too wide or too many
  /// to count its rows surely).
  @discardableResult
  package static func writeBlock(_ text: String, replacing previous: BlockMark?) -> BlockMark? {
    let rows = rowsFitting(text)
    return outputLock.withLock { () -> BlockMark? in
      writesAndLines &+= 1
      guard editing else {
        emit(text, toError: false)
        return nil
      }
      if let previous, previous.writesAndLines == writesAndLines - 1 {
        if !queuedOutput.isEmpty {
          // Not shown yet: the new text takes its place in the queue (after what moves up over
          // the block before it, if that one was shown).
          queuedOutput[queuedOutput.count - 1].text = queuedBlockPrefix + text
        } else {
          queuedBlockPrefix = "\u{1B}[\(previous.rows)A\u{1B}[J"
          queuedOutput.append((queuedBlockPrefix + text, false))
        }
      } else {
        queuedBlockPrefix = ""
        queuedOutput.append((text, false))
      }
      var byte: UInt8 = 0
      _ = Glibc.write(outputPipe.write, &byte, 1)
      return rows.map { BlockMark(writesAndLines: writesAndLines, rows: $0) }
    }
  }

  /// The rows `text` takes on the terminal, when each of its lines surely fits on one row (its
  /// colours aside; a wide character counted as two columns) and all fit on the screen; nil otherwise.
  private static func rowsFitting(_ text: String) -> Int? {
    var size = winsize()
    let known = ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 && size.ws_row > 0
    let (columns, screenRows) = known ? (Int(size.ws_col), Int(size.ws_row)) : (80, 24)
    let lines = text.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
      .split(separator: "\n", omittingEmptySubsequences: false)
    guard lines.count < screenRows - 1 else { return nil }
    for line in lines {
      let width = line.unicodeScalars.reduce(0) { $0 + ($1.value >= 0x1100 && $1.value < 0x2000 || $1.value >= 0x2E80 ? 2 : 1) }
      guard width < columns else { return nil }
    }
    return lines.count
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
