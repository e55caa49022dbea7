import Foundation

/// The REPL's files (`:save`, `:load`, `:record`): read and written with failures in plain words,
/// `cannot write /nope/x.json: no such directory`, never Foundation's `Error Domain=…` text.
package enum ConsoleFile {
  package struct Failure: Error, CustomStringConvertible {
    package let description: String
    package init(description: String) { self.description = description }
  }

  /// Checks that `path` can be written, as early as `:record`: an existing file is opened for
  /// writing (not truncated), a new one created and removed again.
  package static func checkWritable(_ path: String) throws {
    var descriptor = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
    var created = false
    if descriptor < 0 && errno == ENOENT {
      descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
      created = descriptor >= 0
    }
    guard descriptor >= 0 else { throw Failure(description: "cannot write \(path): \(words(errno, writing: true))") }
    close(descriptor)
    if created { unlink(path) }
  }

  /// Writes `text` to `path` (atomically: a failed write leaves the old file).
  package static func write(_ text: String, to path: String) throws {
    try checkWritable(path)
    do {
      try text.write(toFile: path, atomically: true, encoding: .utf8)
    } catch {
      throw Failure(description: "cannot write \(path): \(words(of: error, writing: true))")
    }
  }

  /// The text of `path`, which must be UTF-8.
  package static func read(_ path: String) throws -> String {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw Failure(description: "cannot read \(path): \(words(errno, writing: false))") }
    var status = stat()
    let isDirectory = fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    close(descriptor)
    if isDirectory { throw Failure(description: "cannot read \(path): it is a directory") }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw Failure(description: "cannot read \(path): \(words(errno, writing: false))")
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw Failure(description: "cannot read \(path): it is not UTF-8 text")
    }
    return text
  }

  /// An errno in words; ENOENT while writing means the directory is missing (the file would be made).
  static func words(_ code: Int32, writing: Bool) -> String {
    switch code {
    case ENOENT: return writing ? "no such directory" : "no such file"
    case EACCES, EPERM: return "permission denied"
    case EISDIR: return "it is a directory"
    case ENOTDIR: return "a part of the path is not a directory"
    case EROFS: return "the file system is read-only"
    case ENOSPC: return "no space left on the device"
    default: return String(cString: strerror(code)).lowercased()
    }
  }

  /// A Foundation file error in words: its POSIX cause when it has one.
  static func words(of error: any Error, writing: Bool) -> String {
    let error = error as NSError
    if error.domain == NSPOSIXErrorDomain { return words(Int32(error.code), writing: writing) }
    if let cause = error.userInfo[NSUnderlyingErrorKey] as? NSError, cause.domain == NSPOSIXErrorDomain {
      return words(Int32(cause.code), writing: writing)
    }
    switch CocoaError.Code(rawValue: error.code) {
    case .fileNoSuchFile, .fileReadNoSuchFile: return writing ? "no such directory" : "no such file"
    case .fileWriteNoPermission, .fileReadNoPermission: return "permission denied"
    case .fileWriteVolumeReadOnly: return "the file system is read-only"
    case .fileWriteOutOfSpace: return "no space left on the device"
    default: return "the system refused (error \(error.code))"
    }
  }
}
