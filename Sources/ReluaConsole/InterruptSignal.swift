import Foundation
import Lua
import Synchronization

/// Ctrl-C (SIGINT) in the REPL, caught from the start of the session (`install`) to its end, and
/// in `relua run`. It never ends the REPL on a terminal:
/// - while the REPL runs Lua (between `arm` and `disarm`: a chunk, a command, printing a result,
///   a screen or a diff), it stops that Lua: the state's hook raises "interrupted!" at its next
///   instruction;
/// - otherwise it goes to the prompt, which drops what was being typed: the handler writes a byte
///   to a pipe that `LineReader` polls beside standard input. A pipe, not EINTR: the signal may
///   land on any thread, and a `read` blocked on the reading thread would go on.
///
/// With input not from a terminal (and in `relua run`) there is no prompt to go back to: outside a
/// chunk, Ctrl-C ends relua, as it would any program, and so does a second press while armed (the
/// first one may have come while the script awaited, with no Lua running to stop: lua.c's rule).
///
/// The handler only does async-signal-safe work: atomic loads, an atomic store, write(2),
/// signal(2) and raise(3).
package enum InterruptSignal {
  /// The running chunk's interrupt handle, unretained (its state outlives the chunk); nil otherwise.
  /// (`nonisolated(unsafe)` only because raw pointers are not Sendable: the atomic is the guard.)
  nonisolated(unsafe) private static let running = Atomic<UnsafeMutableRawPointer?>(nil)
  private static let toPrompt = Atomic<Bool>(false)
  /// A press came since `arm` (without a prompt, the next one ends relua).
  private static let pressedWhileArmed = Atomic<Bool>(false)
  /// The REPL's state (unretained; set while its session runs): a press at the prompt interrupts
  /// it too, so Lua it runs in the background — the reducer of an effect's action that never
  /// returns — stops as well. When no Lua runs, the state clears the request at its next entry.
  nonisolated(unsafe) private static let background = Atomic<UnsafeMutableRawPointer?>(nil)
  /// A press came since the outermost `arm`, whether or not Lua ran on to take it (see `takePress`).
  private static let pressedSinceArm = Atomic<Bool>(false)
  /// Nested `arm`s (a command that shows a screen): only the outermost `disarm` disarms.
  @MainActor private static var armings = 0
  private static let pipe: (read: Int32, write: Int32) = {
    var ends: [Int32] = [-1, -1]
    guard Glibc.pipe(&ends) == 0 else { fatalError("relua: cannot create the Ctrl-C pipe") }
    for end in ends {
      // Non-blocking: the handler must never block on a full pipe (it already holds a press then).
      _ = fcntl(end, F_SETFL, O_NONBLOCK)
      _ = fcntl(end, F_SETFD, FD_CLOEXEC)
    }
    return (ends[0], ends[1])
  }()
  nonisolated(unsafe) private static var installed = false

  /// Catches SIGINT for the rest of the process; `interactive`: whether a prompt takes Ctrl-C.
  @MainActor
  package static func install(interactive: Bool) {
    toPrompt.store(interactive, ordering: .releasing)
    guard !installed else { return }
    installed = true
    _ = pipe  // made now, not lazily in the handler
    signal(SIGINT) { _ in InterruptSignal.received() }
  }

  /// From now until the matching `disarm`, Ctrl-C stops the Lua `lua` runs. Arms nest.
  @MainActor
  package static func arm(_ lua: LuaState) {
    armings += 1
    guard armings == 1 else { return }
    pressedWhileArmed.store(false, ordering: .releasing)
    pressedSinceArm.store(false, ordering: .releasing)
    running.store(Unmanaged.passUnretained(lua.interruptHandle).toOpaque(), ordering: .releasing)
  }

  @MainActor
  package static func disarm() {
    armings -= 1
    guard armings == 0 else { return }
    running.store(nil, ordering: .sequentiallyConsistent)
  }

  /// Sets (or clears, with nil) the state a press at the prompt also interrupts (see `background`).
  @MainActor
  package static func interruptAtPrompt(_ lua: LuaState?) {
    background.store(lua.map { Unmanaged.passUnretained($0.interruptHandle).toOpaque() }, ordering: .releasing)
  }

  /// Whether Ctrl-C was pressed since the outermost `arm` (and forgets it): a press that came as
  /// armed Lua was finishing interrupts nothing, and the caller may still act on it.
  @MainActor
  static func takePress() -> Bool { pressedSinceArm.exchange(false, ordering: .acquiringAndReleasing) }

  /// Without a prompt (piped input, `relua run`), a press since the outermost `arm` that stopped
  /// no Lua (it came as armed work was finishing) ends relua, as a press between chunks does.
  @MainActor
  static func endIfPressedWithoutPrompt() {
    guard !toPrompt.load(ordering: .acquiring), pressedSinceArm.exchange(false, ordering: .sequentiallyConsistent) else { return }
    signal(SIGINT, SIG_DFL)
    // To the process, not this thread: the main actor runs on a Dispatch worker, which blocks
    // signals, and `raise` would leave SIGINT pending there for ever (relua then read on from a
    // pipe that had ended: the REPL ignored Ctrl-C, 1 run in 3).
    kill(getpid(), SIGINT)
  }

  /// Hands a Ctrl-C to the prompt, as if pressed while it waits: it drops what was typed and shows
  /// a fresh prompt (for a press that armed work took, when the prompt should still answer it).
  @MainActor
  static func deliverToPrompt() {
    guard toPrompt.load(ordering: .acquiring) else { return }
    var byte: UInt8 = 0
    _ = write(pipe.write, &byte, 1)
  }

  /// Runs `body` armed (see `arm`).
  @MainActor
  static func armed<R>(_ lua: LuaState, _ body: () throws -> R) rethrows -> R {
    arm(lua)
    defer { disarm() }
    return try body()
  }

  private static func received() {
    let savedErrno = errno
    defer { errno = savedErrno }
    if let handle = running.load(ordering: .acquiring) {
      Unmanaged<LuaInterruptHandle>.fromOpaque(handle).takeUnretainedValue().interrupt()
      pressedSinceArm.store(true, ordering: .sequentiallyConsistent)
      // Without a prompt: a second press while armed ends relua; so does one that the session
      // disarmed under (this handler runs on any thread: the session may have disarmed and
      // checked for presses between the load of `running` above and the store just made, and
      // then missed it — seen as a REPL on piped input that ignored Ctrl-C, 1 run in 10 under load).
      if !toPrompt.load(ordering: .acquiring)
        && (pressedWhileArmed.exchange(true, ordering: .acquiringAndReleasing) || running.load(ordering: .sequentiallyConsistent) == nil)
      {
        signal(SIGINT, SIG_DFL)
        raise(SIGINT)
      }
    } else if toPrompt.load(ordering: .acquiring) {
      if let handle = background.load(ordering: .acquiring) {
        Unmanaged<LuaInterruptHandle>.fromOpaque(handle).takeUnretainedValue().interrupt()
      }
      var byte: UInt8 = 0
      _ = write(pipe.write, &byte, 1)
    } else {
      signal(SIGINT, SIG_DFL)
      raise(SIGINT)  // delivered, with the default action, when this handler returns
    }
  }

  // MARK: The prompt's side (the reading thread)

  enum Wake { case input, interrupted, other }

  /// Waits until `descriptor` has input, Ctrl-C is pressed (the press is taken), or `other` can
  /// be read (output waiting to be shown above the line being edited).
  static func waitForInput(on descriptor: Int32, or other: Int32) -> Wake {
    var fds = [
      pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0), pollfd(fd: pipe.read, events: Int16(POLLIN), revents: 0),
      pollfd(fd: other, events: Int16(POLLIN), revents: 0),
    ]
    while poll(&fds, 3, -1) < 0 && errno == EINTR {}
    if fds[1].revents != 0 {
      dropPresses()
      return .interrupted
    }
    return fds[2].revents != 0 ? .other : .input
  }

  /// Forgets the presses not taken yet: one made before a prompt showed was not meant for it (it
  /// came as a chunk finished, or while a command ran).
  static func dropPresses() {
    var bytes = [UInt8](repeating: 0, count: 64)
    while read(pipe.read, &bytes, bytes.count) > 0 {}
  }
}
