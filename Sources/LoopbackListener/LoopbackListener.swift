import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A TCP listener on 127.0.0.1 that hands each connection to `serve` on a thread of its own until
/// it is stopped: what relua's loopback servers (the fake GitHub, the WebSocket echo) share. Plain
/// POSIX sockets, one thread per connection; at most `maxConnections` at once if given (a server
/// a page can reach must not let it open threads without end).
public final class LoopbackListener: @unchecked Sendable {  // `socket` is under `lock`
  private let lock = NSLock()
  private var socket: Int32 = -1
  private let admission = Admission()

  /// Connections being served now (accepted, their `serve` not yet returned).
  public var openConnections: Int { admission.count }

  public init() {}

  /// Why listening failed, in a sentence (`cannot listen on 127.0.0.1:8766: Address in use`).
  public struct Failure: Error, CustomStringConvertible {
    public let description: String
    /// What the system said (`Address already in use`).
    public var reason: String = ""
  }

  /// Listens on `port` (0: the system picks one) and returns the port. `serve` gets each
  /// connection's socket on a new thread and must close it. With `maxConnections`, a connection
  /// beyond that many being served is handed to `refuse` (on the accepting thread: it must not
  /// wait, e.g. `SocketIO.writeWithoutWaiting` a 503) and closed, with no thread of its own.
  public func start(
    port requested: UInt16, maxConnections: Int = .max, refuse: (@Sendable (Int32) -> Void)? = nil,
    serve: @escaping @Sendable (Int32) -> Void
  ) throws(Failure) -> UInt16 {
    let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw Failure(description: "socket: \(Self.errorText())") }
    var yes: Int32 = 1
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = requested.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard bound == 0, listen(fd, 64) == 0 else {
      let why = Self.errorText()
      close(fd)
      throw Failure(description: "cannot listen on 127.0.0.1:\(requested): \(why)", reason: why)
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    lock.withLock { socket = fd }
    let admission = self.admission
    Thread { Self.accept(fd, admission: admission, maxConnections: maxConnections, refuse: refuse, serve) }.start()
    return UInt16(bigEndian: address.sin_port)
  }

  /// Stops accepting (connections being served go on until their `serve` returns).
  public func stop() {
    let fd = lock.withLock { () -> Int32 in
      defer { socket = -1 }
      return socket
    }
    if fd >= 0 {
      shutdown(fd, Int32(SHUT_RDWR))
      close(fd)
    }
  }

  deinit { stop() }

  private static func accept(
    _ fd: Int32, admission: Admission, maxConnections: Int, refuse: (@Sendable (Int32) -> Void)?, _ serve: @escaping @Sendable (Int32) -> Void
  ) {
    while true {
      let client = Glibc.accept(fd, nil, nil)
      if client < 0 {
        if errno == EINTR || errno == ECONNABORTED { continue }
        if errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM {
          usleep(10_000)  // out of descriptors for now: the connections being served will end
          continue
        }
        return  // closed by stop()
      }
      guard admission.enter(below: maxConnections) else {
        refuse?(client)
        close(client)
        continue
      }
      Thread {
        serve(client)
        admission.leave()
      }.start()
    }
  }

  /// The connections being served, counted.
  private final class Admission: @unchecked Sendable {  // `open` is under `lock`
    private let lock = NSLock()
    private var open = 0

    var count: Int { lock.withLock { open } }

    func enter(below limit: Int) -> Bool {
      lock.withLock {
        guard open < limit else { return false }
        open += 1
        return true
      }
    }

    func leave() { lock.withLock { open -= 1 } }
  }

  private static func errorText() -> String { String(cString: strerror(errno)) }
}
