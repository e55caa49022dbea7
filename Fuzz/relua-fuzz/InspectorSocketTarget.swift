import Foundation
import LoopbackWeb
import Lua
import Relua
import ReluaGitHub
import ReluaInspector
import WebSocket

/// `inspector-socket`: bytes as what a client sends an inspector's connection — an HTTP head,
/// then (after a WebSocket handshake) frames — served by the inspector's own connection handler
/// (`LoopbackWebConnection.serve`, what each accepted connection runs) over a socket pair, its
/// page's messages answered by a real `InspectorControl` over a store of `GuessingGame` (made once).
/// Its token is `TOKEN` below, its port 8: an input's `Host: 127.0.0.1:8` and
/// `Origin: http://127.0.0.1:8` pass the checks. Limits are small so that inputs reach them:
/// a head of 2 KiB, a message of 4 KiB.
///
/// Invariants: it never traps; the connection ends once the input does (no hang); no reader held
/// more than a limit and one read's chunk (16 KiB) at once; every text message reaching the
/// control is at most the message limit.
@MainActor
final class InspectorSocketTarget: FuzzTarget {
  static let token = "00112233445566778899aabbccddeeff"
  static let chunk = 16 << 10

  private let runtime: ReluaRuntime
  private let inspection: ReluaStoreInspection
  private let connection: LoopbackWebConnection
  private let stats = LoopbackWebConnectionStats()
  private let limits: LoopbackWebLimits

  init() {
    var limits = LoopbackWebLimits()
    limits.maxHead = 2 << 10
    limits.maxMessage = 4 << 10
    limits.headTimeout = .seconds(2)
    limits.frameTimeout = .seconds(2)
    limits.sendTimeout = 2
    self.limits = limits
    let hub = InspectorHub()
    do {
      runtime = try ReluaRuntime(options: LuaOptions(
        memoryLimit: 64 << 20, instructionLimit: 1_000_000, sharesInstructionBudget: true, interruptible: true,
        scriptRoots: [scriptsDirectory], warningHandler: luaOutput, print: luaOutput))
      try runtime.register(GitHubDependency.make(.notConfigured))
      let store = try runtime.makeStore(try runtime.loadFeature(file: scriptsDirectory + "/Features/GuessingGame.lua"))
      inspection = ReluaStoreInspection(store: store) { hub.record($0) }
      let token = LoopbackToken(hex: Self.token)
      let access = LoopbackAccess.inspector(token: token)
      access.listening(on: 8)
      let control = InspectorControl(hub: hub, session: inspection)
      let maxMessage = limits.maxMessage
      connection = LoopbackWebConnection(
        access: access, page: try LoopbackPage.inspector(token: token), hub: hub, limits: limits, stats: stats
      ) { text in
        if text.utf8.count > maxMessage { invariantFailed("a message of \(text.utf8.count) bytes reached the control (limit \(maxMessage))") }
        return control.answer(text)
      }
    } catch {
      fatalError("relua-fuzz inspector-socket: cannot make the inspector: \(error)")
    }
  }

  func run(_ input: UnsafeRawBufferPointer) {
    let bytes = Array(input.prefix(60_000))
    var ends: [Int32] = [-1, -1]
    guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0 else {
      invariantFailed("cannot make a socket pair: errno \(errno)")
    }
    let (client, server) = (ends[0], ends[1])
    let watchdog = Watchdog(runtime.lua.interruptHandle, seconds: 5)
    defer { watchdog.cancel() }
    let done = ThreadsDone(3)
    let connection = self.connection
    Thread {
      connection.serve(server)  // closes `server`
      done.leave()
    }.start()
    // The input, then the end of the stream; what the server sends is read and thrown away.
    Thread {
      _ = SocketIO.write(client, bytes)
      shutdown(client, Int32(SHUT_WR))
      done.leave()
    }.start()
    let received = Received()
    Thread {
      var sink = [UInt8](repeating: 0, count: 65_536)
      while true {
        let count = recv(client, &sink, sink.count, 0)
        if count <= 0 { break }
        received.take(sink[..<count])
      }
      done.leave()
    }.start()
    // The page's requests are answered on the main actor: turn it while the threads work.
    if !pump(until: { done.finished }, seconds: 20) {
      invariantFailed("the connection did not end within 20 s of its input")
    }
    close(client)
    verbose("inspector-socket: \(received.description); close codes so far \(stats.closeCodes.suffix(3)), longest message \(stats.longestMessage)")
    let bound = max(limits.maxHead, limits.maxMessage) + Self.chunk + 14
    if stats.peakBuffered > bound {
      invariantFailed("a reader held \(stats.peakBuffered) bytes (bound \(bound))")
    }
    if stats.longestMessage > limits.maxMessage {
      invariantFailed("a message of \(stats.longestMessage) bytes was read (limit \(limits.maxMessage))")
    }
  }
}

/// What the client got: its size and first line (for RELUA_FUZZ_VERBOSE).
private final class Received: @unchecked Sendable, CustomStringConvertible {  // under `lock`
  private let lock = NSLock()
  private var count = 0
  private var start: [UInt8] = []

  func take(_ bytes: ArraySlice<UInt8>) {
    lock.withLock {
      count += bytes.count
      if start.count < 64 { start += bytes.prefix(64 - start.count) }
    }
  }

  var description: String {
    lock.withLock {
      let line = String(decoding: start.prefix { $0 != 13 }, as: UTF8.self)
      return "\(count) bytes back, \(line.debugDescription)"
    }
  }
}

/// Counts threads down to none.
private final class ThreadsDone: @unchecked Sendable {  // `left` is under `lock`
  private let lock = NSLock()
  private var left: Int

  init(_ count: Int) { left = count }

  func leave() { lock.withLock { left -= 1 } }
  var finished: Bool { lock.withLock { left == 0 } }
}
