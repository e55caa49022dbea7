import CLua
import CLuaShim

/// Line coverage: how often each line of the Lua files that states ran was run.
///
/// Give one to the states to watch (`LuaOptions.coverage`); each such state counts the lines its
/// scripts run — on every thread, coroutines included — through a line hook that is installed
/// together with the instruction budget's and interrupts' count hook. Only files count (chunks
/// named `@path`, as `load(file:)` and `require` name them), not the host's own chunks nor text
/// given to `load`. A state's counts are added here when it closes (then `counts()` sees them).
/// States without a coverage have no line hook at all.
///
/// Thread-safe: states running on different threads may share one.
public final class LuaCoverage: @unchecked Sendable {
  /// The C coverage; alive as long as this object, which every state attached to it keeps.
  let pointer: OpaquePointer

  /// An empty coverage, to give to `LuaOptions.coverage`.
  public init() {
    guard let pointer = relua_coverage_new() else { fatalError("relua: cannot allocate a coverage") }
    self.pointer = pointer
  }

  deinit { relua_coverage_free(pointer) }

  /// The lines run so far by the states that have closed: chunk name (`@path`) → line → times
  /// run (lines that never ran are absent; see `codeLines(ofFile:)`).
  public func counts() -> [String: [Int: Int]] {
    final class Collected { var counts: [String: [Int: Int]] = [:] }
    let collected = Collected()
    withExtendedLifetime(collected) {
      relua_coverage_read(pointer, { context, source, length, hits, size in
        guard let context, let source, let hits else { return }
        let collected = Unmanaged<Collected>.fromOpaque(context).takeUnretainedValue()
        let name = String(decoding: UnsafeRawBufferPointer(start: source, count: length), as: UTF8.self)
        var lines: [Int: Int] = [:]
        for line in 0..<Int(size) where hits[line] > 0 { lines[line] = Int(clamping: hits[line]) }
        collected.counts[name, default: [:]].merge(lines, uniquingKeysWith: +)
      }, Unmanaged.passUnretained(collected).toOpaque())
    }
    return collected.counts
  }

  /// The lines of the Lua file at `path` that hold code, sorted: the lines a line hook can report,
  /// as the Lua VM itself says (the active lines of the file's main function and of every function
  /// nested in it). The file is compiled in a state of its own, none of it is run. Throws
  /// `LuaError.file` when it cannot be read or compiled.
  public static func codeLines(ofFile path: String) throws(LuaError) -> [Int] {
    var lines: UnsafeMutablePointer<Int32>?
    var count: Int32 = 0
    var message = [CChar](repeating: 0, count: 512)
    let compiled = relua_code_lines(path, &lines, &count, &message, message.count)
    defer { relua_free(lines) }
    guard compiled != 0 else {
      throw .file(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
    guard let lines else { return [] }
    return (0..<Int(count)).map { Int(lines[$0]) }
  }
}
