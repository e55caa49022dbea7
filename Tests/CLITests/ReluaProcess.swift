import Foundation
import XCTest

/// Runs the `relua` binary built next to the test bundle, as a user would from a shell.
struct ReluaProcess {
  struct Result {
    var exitCode: Int32
    var stdout: String
    var stderr: String
  }

  static var binary: URL {
    // On Linux the test bundle is an executable in the products directory, beside `relua`.
    Bundle.main.bundleURL.appendingPathComponent("relua")
  }

  static func run(
    _ arguments: [String], stdin: String? = nil, currentDirectory: URL? = nil, environment: [String: String] = [:]
  ) throws -> Result {
    let process = Process()
    process.executableURL = binary
    process.arguments = arguments
    if !environment.isEmpty {
      process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
    if let currentDirectory { process.currentDirectoryURL = currentDirectory }
    let out = Pipe(), err = Pipe(), input = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = input
    try process.run()
    if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
    try input.fileHandleForWriting.close()
    // Read both pipes before waiting so a chatty child cannot block on a full pipe.
    let group = DispatchGroup()
    nonisolated(unsafe) var outData = Data(), errData = Data()
    group.enter()
    DispatchQueue.global().async { outData = out.fileHandleForReading.readDataToEndOfFile(); group.leave() }
    errData = err.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return Result(
      exitCode: process.terminationStatus,
      stdout: String(decoding: outData, as: UTF8.self),
      stderr: String(decoding: errData, as: UTF8.self))
  }
}

/// A temporary directory holding script files for one test.
final class ScriptDirectory {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent("relua-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: url) }

  @discardableResult
  func write(_ name: String, _ source: String) throws -> String {
    let file = url.appendingPathComponent(name)
    try FileManager.default.createDirectory(
      at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try source.write(to: file, atomically: true, encoding: .utf8)
    return file.path
  }
}

/// A `relua` still running: its output read as it comes, for tests that act on it meanwhile
/// (send it SIGINT, kill it once a line has appeared).
final class RunningRelua: @unchecked Sendable {
  let process = Process()
  private let lock = NSLock()
  private var out = Data(), err = Data()
  private let done = DispatchGroup()

  init(_ arguments: [String], currentDirectory: URL? = nil) throws {
    process.executableURL = ReluaProcess.binary
    process.arguments = arguments
    if let currentDirectory { process.currentDirectoryURL = currentDirectory }
    let outPipe = Pipe(), errPipe = Pipe()
    process.standardOutput = outPipe
    process.standardError = errPipe
    process.standardInput = FileHandle.nullDevice
    try process.run()
    for (pipe, isOut) in [(outPipe, true), (errPipe, false)] {
      done.enter()
      let handle = pipe.fileHandleForReading
      DispatchQueue.global().async {
        while true {
          let chunk = handle.availableData
          if chunk.isEmpty { break }
          self.lock.lock()
          if isOut { self.out.append(chunk) } else { self.err.append(chunk) }
          self.lock.unlock()
        }
        self.done.leave()
      }
    }
  }

  var stdout: String { lock.lock(); defer { lock.unlock() }; return String(decoding: out, as: UTF8.self) }
  var stderr: String { lock.lock(); defer { lock.unlock() }; return String(decoding: err, as: UTF8.self) }

  /// Waits until standard output contains `text`; false when `seconds` passed first.
  func waitForOutput(containing text: String, seconds: Double = 20) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      if stdout.contains(text) { return true }
      if !process.isRunning { return stdout.contains(text) }
      Thread.sleep(forTimeInterval: 0.02)
    }
    return false
  }

  /// Waits for the process to end (killing it after `seconds`) and returns what it did.
  func finish(seconds: Double = 20) -> ReluaProcess.Result {
    let deadline = Date().addingTimeInterval(seconds)
    while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    done.wait()
    return ReluaProcess.Result(exitCode: process.terminationStatus, stdout: stdout, stderr: stderr)
  }
}
