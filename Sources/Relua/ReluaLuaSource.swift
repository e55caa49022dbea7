import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// relua's own Lua: the `.lua` files of Sources/Relua/Lua (the prelude, the async prelude, the
/// value printer, the test runner's chunks, `deps`' two small ones, and the LuaLS API file `relua
/// types` writes), so that luacheck, an editor and lua-language-server read them as Lua. They are
/// the target's resources, copied as they are into `relua_Relua.resources` beside the executable
/// (docs/DESIGN-NOTES.md, "relua's own Lua is `.lua` files").
///
/// Each user keeps the text in a `static let`: a file is read once per process, when first asked
/// for, never once per Lua state (`relua test` makes a state per test). The chunk names stay the
/// callers' (`=[relua]`, `=[relua async]`…), and so do the line numbers: the text is the file's, less
/// its final newline, as the Swift literal it was held in before.
package enum ReluaLuaSource {
  /// The text of Sources/Relua/Lua/`name`. A file missing from the resources is a fatal error naming
  /// it (relua cannot run without its Lua); a missing bundle is SwiftPM's, naming where it looked.
  static func text(_ name: String) -> String {
    text(name, in: directory, target: "Relua")
  }

  /// The text of `name` in another target's `Lua` resources (ReluaTooling's LuaLS API file):
  /// `directory` is that target's, from ``resourceDirectory(target:bundle:)``.
  package static func text(_ name: String, in directory: String, target: String) -> String {
    let path = directory + "/" + name
    guard let bytes = contents(of: path) else {
      fatalError("relua's Lua source \(name) is missing: no \(path) (Sources/\(target)/Lua/\(name), a resource of the \(target) target)")
    }
    guard var text = String(validating: bytes, as: UTF8.self) else {
      fatalError("relua's Lua source \(name) is not UTF-8: \(path)")
    }
    if text.hasSuffix("\n") { text.removeLast() }
    return text
  }

  /// `relua_Relua.resources/Lua`: beside the executable when it is there — the first place
  /// `Bundle.module` looks, found without making a `Bundle` (0.5 ms of a 19 ms `relua run`
  /// on Linux, most of what reading the files cost) — else where `Bundle.module` finds it (the
  /// build directory, for an executable copied elsewhere; its own fatal error if nowhere).
  private static let directory = resourceDirectory(target: "Relua", bundle: Bundle.module)

  /// The `Lua` folder of `target`'s resources (`relua_<target>.resources/Lua`), found as for Relua's.
  package static func resourceDirectory(target: String, bundle: @autoclosure () -> Bundle) -> String {
    #if os(Linux)
      var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
      let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
      if count > 0 {
        let executable = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if let slash = executable.lastIndex(of: "/") {
          let beside = String(executable[..<slash]) + "/relua_\(target).resources/Lua"
          var status = stat()
          if stat(beside, &status) == 0, status.st_mode & S_IFMT == S_IFDIR { return beside }
        }
      }
    #endif
    let bundle = bundle()
    return (bundle.resourceURL ?? bundle.bundleURL).appendingPathComponent("Lua").path
  }

  /// A file's bytes, or nil when it cannot be opened or read.
  private static func contents(of path: String) -> [UInt8]? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 { if errno == EINTR { continue } else { return nil } }
      if count == 0 { return bytes }
      bytes.append(contentsOf: chunk[0..<count])
    }
  }
}
