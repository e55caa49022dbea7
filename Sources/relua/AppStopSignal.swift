import Foundation

/// SIGINT (Ctrl-C) and SIGTERM end `relua app`: caught by a handler installed at once that writes
/// to a pipe the main queue reads (a Dispatch signal source installs its handler later, on
/// Dispatch's manager thread: a signal right after the address was printed was lost, 1 run in 5;
/// the REPL's EndingSignal does the same for this reason). The handler only calls write(2).
@MainActor
enum AppStopSignal {
  static let numbers = [SIGINT, SIGTERM]

  /// Installs the handlers now; the function returned waits until one of the signals came.
  static func install() -> @MainActor () async -> Void {
    var ends: [Int32] = [-1, -1]
    guard Glibc.pipe(&ends) == 0 else { fatalError("relua: cannot create the signal pipe") }
    for end in ends {
      _ = fcntl(end, F_SETFL, O_NONBLOCK)
      _ = fcntl(end, F_SETFD, FD_CLOEXEC)
    }
    pipeWriteEnd = ends[1]
    for number in numbers {
      signal(number) { _ in AppStopSignal.received() }
    }
    let (stream, continuation) = AsyncStream<Void>.makeStream()
    let source = DispatchSource.makeReadSource(fileDescriptor: ends[0], queue: .main)
    source.setEventHandler {
      var byte: UInt8 = 0
      while read(ends[0], &byte, 1) == 1 { continuation.yield() }
    }
    source.resume()
    return {
      for await _ in stream { break }
      source.cancel()
    }
  }

  private nonisolated static func received() {
    let savedErrno = errno
    defer { errno = savedErrno }
    var byte: UInt8 = 1
    _ = write(pipeWriteEnd, &byte, 1)
  }

  /// The pipe's write end (set before the handlers are installed).
  private nonisolated(unsafe) static var pipeWriteEnd: Int32 = -1
}
