import Relua

import Composable
import Foundation
import Lua

/// Why a test failed: the message, where (`file:line` in the script), and the script frames of
/// the Lua traceback (C frames and relua's own chunks left out).
public struct LuaTestFailure: Sendable, Equatable, CustomStringConvertible {
  /// The message without its location prefix.
  public var message: String
  /// `file:line` of the failure in a script, when known.
  public var location: String?
  /// Traceback lines (`file:line: in function ...`), innermost first.
  public var traceback: [String]

  /// A failure with `message`, at `location` (`file:line`), with the script frames of its traceback.
  public init(message: String, location: String?, traceback: [String] = []) {
    self.message = message
    self.location = location
    self.traceback = traceback
  }

  /// `file:line: message`.
  public var description: String { location.map { "\($0): \(message)" } ?? message }

  /// A failure from a raised message and a Lua traceback. The location is the message's own
  /// `file:line:` prefix, else the first frame in `file`, else the first script frame. The
  /// message is cut as any text is (`Elision`): `error(hugeString)` fails with a screenful.
  init(raised: String, traceback: String?, file: String) {
    let frames = Self.scriptFrames(in: traceback)
    if let (location, rest) = Self.splitLocation(raised) {
      self.init(message: Elision.standard.cut(text: rest), location: location, traceback: frames)
    } else {
      let locations = frames.compactMap(Self.frameLocation)
      let inFile = locations.first { Self.source(of: $0, isFile: file) }
      self.init(message: Elision.standard.cut(text: raised), location: inFile ?? locations.first, traceback: frames)
    }
  }

  /// A failure from any error a test run threw.
  init(_ error: any Error, file: String) {
    switch error {
    case LuaError.runtime(let message, let traceback):
      self.init(raised: message, traceback: traceback, file: file)
    case LuaError.syntax(let message, _):
      self.init(raised: message, traceback: nil, file: file)
      self.message = "syntax error: " + self.message
    case LuaError.memory(let message):
      self.init(raised: message, traceback: nil, file: file)
    case LuaError.instructionLimit(let location):
      self.init(message: "instruction budget exhausted", location: location)
    case LuaError.interrupted(let location, let traceback):
      self.init(message: "interrupted", location: location, traceback: Self.scriptFrames(in: traceback))
    case is CancellationError:
      self.init(message: "cancelled", location: nil)
    default:
      self.init(raised: (error as? LuaError)?.message ?? String(describing: error), traceback: nil, file: file)
    }
  }

  // MARK: Reading Lua's text

  /// Splits `chunk:line: rest` (the position Lua puts before messages).
  static func splitLocation(_ text: String) -> (String, String)? {
    guard let match = text.firstMatch(of: #/^([^\s:\[][^:\n]*:\d+): /#) else { return nil }
    return (String(match.1), String(text[match.range.upperBound...]))
  }

  /// The traceback's frames that are in scripts: no `[C]` frames, no relua chunks, no tail-call marks.
  static func scriptFrames(in traceback: String?) -> [String] {
    guard let traceback else { return [] }
    return traceback.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { line in
        frameLocation(line) != nil && !line.hasPrefix("[")
      }
  }

  /// `file:line` at the start of a traceback frame.
  static func frameLocation(_ frame: String) -> String? {
    guard let match = frame.firstMatch(of: #/^([^\s:\[][^:\n]*:\d+):/#) else { return nil }
    return String(match.1)
  }

  /// Whether a `source:line` location is in `file` (Lua shortens long sources to `...tail`).
  static func source(of location: String, isFile file: String) -> Bool {
    guard let colon = location.lastIndex(of: ":") else { return false }
    var source = location[..<colon]
    if source.hasPrefix("...") { source = source.dropFirst(3) }
    return file.hasSuffix(source)
  }
}
