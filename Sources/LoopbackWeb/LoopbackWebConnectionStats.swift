import Foundation

/// What the connections went through, for tests and the fuzz target: the most bytes a
/// connection's reader held at once, the longest message handed to the control, the close codes
/// sent, the connections refused at the cap.
package final class LoopbackWebConnectionStats: @unchecked Sendable {  // all under `lock`
  private let lock = NSLock()
  private var peak = 0
  private var longest = 0
  private var codes: [UInt16] = []
  private var refusals = 0
  private var heads = 0

  package init() {}

  /// The most bytes one connection's reader held at once (head, or frames being read).
  package var peakBuffered: Int { lock.withLock { peak } }
  /// The longest text message (UTF-8 bytes) handed to the control.
  package var longestMessage: Int { lock.withLock { longest } }
  /// The close codes the server sent, in order (1000 normal, 1001 going away, 1002 protocol
  /// error, 1007 not UTF-8, 1009 too big).
  package var closeCodes: [UInt16] { lock.withLock { codes } }
  /// Connections refused because `maxConnections` were being served.
  package var refused: Int { lock.withLock { refusals } }
  /// Requests whose head was read whole.
  package var requests: Int { lock.withLock { heads } }

  func buffered(_ count: Int) { lock.withLock { peak = max(peak, count) } }
  func message(_ count: Int) { lock.withLock { longest = max(longest, count) } }
  func closed(_ code: UInt16) { lock.withLock { codes.append(code) } }
  /// One connection more was refused at the cap (the server's `refuse`).
  package func refusedOne() { lock.withLock { refusals += 1 } }
  func headRead() { lock.withLock { heads += 1 } }
}
