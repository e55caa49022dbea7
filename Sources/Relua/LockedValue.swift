import Foundation

/// A value guarded by a lock (read by libedit's completion on its own thread in the REPL, by
/// effects and tests elsewhere).
package final class LockedValue<Value>: @unchecked Sendable {
  private var value: Value
  private let lock = NSLock()
  package init(_ value: Value) { self.value = value }
  package func withLock<R>(_ body: (inout Value) -> R) -> R {
    lock.lock()
    defer { lock.unlock() }
    return body(&value)
  }
}
