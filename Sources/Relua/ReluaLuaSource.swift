import Foundation

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
enum ReluaLuaSource {
  /// The text of Sources/Relua/Lua/`name`. A file missing from the resources is a fatal error naming
  /// it (relua cannot run without its Lua); a missing bundle is SwiftPM's, naming where it looked.
  static func text(_ name: String) -> String {
    let directory = Bundle.module.resourceURL ?? Bundle.module.bundleURL
    let url = directory.appendingPathComponent("Lua").appendingPathComponent(name)
    guard let data = FileManager.default.contents(atPath: url.path) else {
      fatalError("relua's Lua source \(name) is missing: no \(url.path) (Sources/Relua/Lua/\(name), a resource of the Relua target)")
    }
    guard var text = String(data: data, encoding: .utf8) else {
      fatalError("relua's Lua source \(name) is not UTF-8: \(url.path)")
    }
    if text.hasSuffix("\n") { text.removeLast() }
    return text
  }
}
