import CLua
import CLuaShim

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One Lua 5.4 state and the safe Swift API over it.
///
/// Not thread-safe and not `Sendable`: use it from one thread (or one actor) only. The exception is
/// `interruptHandle`, which may be used from anywhere.
///
/// Every call into Lua is protected: Lua errors, memory-limit hits and spent instruction budgets
/// come back as `LuaError`; no Lua error ever unwinds through Swift code. Every public method
/// leaves the Lua stack as it found it.
public final class LuaState {
  @usableFromInline let handle: LuaStateHandle
  /// Stops running code from any thread; see `LuaInterruptHandle`.
  public let interruptHandle: LuaInterruptHandle
  /// Whether the full standard library is open (no sandbox).
  public let isTrusted: Bool
  /// `LuaOptions.namesErrorObjectsByType`.
  let namesErrorObjectsByType: Bool
  /// The directories a sandboxed script may read (`require`) and keep files in (`fileStorage`).
  public let scriptRoots: [String]
  private let textSinks: [LuaTextSink]
  private var userdataTypes: [ObjectIdentifier: AnyObject] = [:]
  private var cachedGlobals: LuaTable?
  /// The coverage the state counts lines into: the C side writes into it when the state closes,
  /// so the state keeps it alive.
  private let coverage: LuaCoverage?

  /// A new state: the standard library (sandboxed unless `options.trusted`), relua's protected
  /// allocator and hooks, and the options' limits.
  public init(options: LuaOptions = LuaOptions()) throws {
    interruptHandle = LuaInterruptHandle()
    isTrusted = options.trusted
    namesErrorObjectsByType = options.namesErrorObjectsByType
    scriptRoots = options.scriptRoots
    coverage = options.coverage
    guard let L = relua_newstate(interruptHandle.flag) else {
      throw LuaError.memory(message: "not enough memory to create a Lua state")
    }
    handle = LuaStateHandle(mainThread: L)
    let control = relua_getcontrol(L)!
    var sinks: [LuaTextSink] = []
    if let warningHandler = options.warningHandler {
      let sink = LuaTextSink(warningHandler)
      sinks.append(sink)
      control.pointee.warn = luaWarningThunk
      control.pointee.warn_context = Unmanaged.passUnretained(sink).toOpaque()
    }
    if let print = options.print {
      let sink = LuaTextSink(print)
      sinks.append(sink)
      control.pointee.print = luaPrintThunk
      control.pointee.print_context = Unmanaged.passUnretained(sink).toOpaque()
    }
    textSinks = sinks
    handle.owner = self
    if let coverage = options.coverage, relua_coverage_attach(L, coverage.pointer) == 0 {
      close()
      throw LuaError.memory(message: "not enough memory to count lines")
    }

    let status = withCStrings(options.scriptRoots) { roots in
      relua_openlibs(L, options.trusted ? 1 : 0, options.ignoresEnvironment ? 1 : 0, roots, Int32(options.scriptRoots.count))
    }
    if status != LUA_OK {
      let error = failure(status: status, on: L, traceback: nil)
      close()
      throw error
    }
    memoryLimit = options.memoryLimit
    sharesInstructionBudget = options.sharesInstructionBudget
    instructionLimit = options.instructionLimit
    isInterruptible = options.interruptible
    relua_getcontrol(L).pointee.shares_chunks = options.sharesCompiledChunks ? 1 : 0
    if !options.warnsByDefault { relua_getcontrol(L).pointee.warn_on = 0 }
    relua_getcontrol(L).pointee.interrupt_catchable = options.interruptsAreCatchable ? 1 : 0
  }

  private var closeHandlers: [() -> Void] = []
  /// What `appData`/`setAppData` keep, by type (see LuaState+AppData.swift).
  var appDataStorage: [ObjectIdentifier: Any] = [:]

  deinit { close() }

  /// Closes the state: runs pending finalizers, releases every Swift object Lua held. Idempotent.
  /// References into the state throw `LuaError.closed` afterwards.
  public func close() {
    guard let L = handle.mainThread else { return }
    cachedGlobals = nil
    handle.markClosed()
    var place = [CChar](repeating: 0, count: 256)
    if relua_close(L, &place, place.count) != 0 {
      let location = String(cString: place).replacing(#/: $/#, with: "")
      finalizerFailure = .instructionLimit(location: location.isEmpty ? nil : location)
    }
    userdataTypes = [:]
    let handlers = closeHandlers
    closeHandlers = []
    for handler in handlers { handler() }
    appDataStorage = [:]
  }

  /// Set by `close()` when the finalizers (`__gc`) and `__close` handlers that ran then spent the
  /// budget they get at close (`instructionLimit`, or 100,000,000 instructions without one): each
  /// one stopped was reported as a warning, and this names the script line it first ran out at.
  public private(set) var finalizerFailure: LuaError?

  /// Whether `__gc` finalizers written in Lua run under the instruction budget and interrupts
  /// (Lua runs them with hooks off; relua runs them in a coroutine of their own once a startup
  /// self-check against the linked liblua passed).
  public static var finalizersAreBudgeted: Bool { relua_finalizers_budgeted() != 0 }

  /// Runs `handler` once the state has closed (what an owner keyed by this state forgets then).
  public func onClose(_ handler: @escaping () -> Void) {
    if isClosed { handler() } else { closeHandlers.append(handler) }
  }

  /// Whether `close()` was called (every reference into the state then throws `LuaError.closed`).
  public var isClosed: Bool { !handle.isAlive }

  var control: UnsafeMutablePointer<relua_control>? { handle.control }

  /// The thread Swift works on now (the thread of the Swift function being called, else the main one).
  @inlinable
  func currentThread() throws(LuaError) -> OpaquePointer { try handle.currentThread() }

  // MARK: Limits and diagnostics

  /// Bytes Lua may allocate; nil for no limit. Takes effect for the next allocation.
  public var memoryLimit: Int? {
    get {
      guard let limit = control?.pointee.memory_limit, limit != 0 else { return nil }
      return Int(limit)
    }
    set { control?.pointee.memory_limit = newValue.map { max(1, $0) } ?? 0 }
  }

  /// Without `memoryLimit`, the bytes Lua's heap may grow to all the same (set when the state is
  /// made: half of what the process could still allocate then, by its `ulimit -v`/`-d` and
  /// physical memory; nil when nothing bounds the process). Past it an allocation of Lua code is
  /// "not enough memory", a Lua error; the other half is headroom for the host's own allocations,
  /// which are never refused. `memoryLimit`, when set, replaces it.
  public var memoryCeiling: Int? {
    guard let ceiling = control?.pointee.memory_ceiling, ceiling != 0 else { return nil }
    return Int(ceiling)
  }

  /// Runs `body` with no memory limit and no ceiling (the few bytes it takes to describe a memory
  /// error, after one), then puts them back.
  package func withoutMemoryLimit<R>(_ body: () throws -> R) rethrows -> R {
    guard let control else { return try body() }
    let (limit, ceiling) = (control.pointee.memory_limit, control.pointee.memory_ceiling)
    control.pointee.memory_limit = 0
    control.pointee.memory_ceiling = 0
    defer {
      control.pointee.memory_limit = limit
      control.pointee.memory_ceiling = ceiling
    }
    return try body()
  }

  /// Bytes Lua has allocated now.
  public var memoryUsed: Int { control.map { Int($0.pointee.memory_used) } ?? 0 }

  /// Bytes the host holds for this state's scripts outside Lua's heap (a store's state, say),
  /// counted against `memoryLimit` together with `memoryUsed`: an allocation of Lua's that would
  /// take the sum past the limit fails as any other.
  public var externalMemory: Int {
    get { control.map { Int($0.pointee.external_used) } ?? 0 }
    set { control?.pointee.external_used = max(0, newValue) }
  }

  /// Lua VM instructions allowed per top-level call from Swift; nil for no limit. Takes effect at
  /// the next top-level call.
  public var instructionLimit: Int? {
    get {
      guard let limit = control?.pointee.instruction_limit, limit != 0 else { return nil }
      return Int(limit)
    }
    set {
      control?.pointee.instruction_limit = newValue.map { Int64(max(1, $0)) } ?? 0
      if sharesInstructionBudget { resetInstructionBudget() }
    }
  }

  /// Whether `instructionLimit` counts all top-level calls together (until
  /// `resetInstructionBudget()`) rather than each on its own: a script's whole run, effects and
  /// coroutines included. Each top-level call then costs at least 1,000 instructions.
  public var sharesInstructionBudget: Bool {
    get { control.map { $0.pointee.shared_budget != 0 } ?? false }
    set {
      control?.pointee.shared_budget = newValue ? 1 : 0
      resetInstructionBudget()
    }
  }

  /// Gives a shared instruction budget its whole limit again.
  public func resetInstructionBudget() {
    guard let control else { return }
    control.pointee.instructions_remaining = control.pointee.instruction_limit
    control.pointee.budget_exhausted = 0
    control.pointee.exhausted_where.0 = 0
  }

  /// Keeps the count hook installed even without an instruction limit, so `interrupt()` works.
  public var isInterruptible: Bool {
    get { control.map { $0.pointee.interruptible != 0 } ?? false }
    set { control?.pointee.interruptible = newValue ? 1 : 0 }
  }

  /// Stops the running code with `LuaError.interrupted` (needs `isInterruptible` or an
  /// instruction limit). From another thread, use `interruptHandle.interrupt()`.
  public func interrupt() { interruptHandle.interrupt() }

  /// The hook mask (`LUA_MASKCOUNT`, `LUA_MASKLINE`…) of the main thread: which hooks it has now.
  package var hookMask: Int32 { handle.mainThread.map { lua_gethookmask($0) } ?? 0 }

  /// Swift objects Lua currently keeps alive (function closures, userdata objects, error objects).
  public var liveSwiftObjects: Int { control.map { Int($0.pointee.live_boxes) } ?? 0 }

  /// Registry references held by Swift values (`LuaRef`s) that are still alive.
  public var liveReferences: Int {
    handle.drainReleases()
    return handle.liveReferences
  }

  /// Runs a full garbage collection (finalizers included).
  public func collectGarbage() {
    guard let L = try? currentThread() else { return }
    relua_gc_collect(L)
  }

  /// Lua's own count of the bytes in use (`collectgarbage("count")`).
  public var garbageCollectorBytes: Int {
    guard let L = try? currentThread() else { return 0 }
    return Int(relua_gc_count_bytes(L))
  }

  // MARK: Raw access

  /// The main thread's `lua_State*`. Unsafe: a raising Lua API called on it from Swift is
  /// undefined behaviour (it would longjmp through Swift frames); use CLuaShim's protected helpers.
  package var unsafeState: OpaquePointer? { handle.mainThread }

  /// The `lua_State*` Swift should use now, for a hot path calling the shim's protected entries
  /// itself (see `unsafeState` for the rules): `withRawState` without the closure.
  @inlinable
  package func currentRawState() throws(LuaError) -> OpaquePointer { try currentThread() }

  /// Calls `body` with the `lua_State*` Swift should use now (see `unsafeState` for the rules).
  /// The stack must be balanced when `body` returns.
  package func withRawState<R>(_ body: (OpaquePointer) throws -> R) throws -> R {
    try body(currentThread())
  }

  // MARK: Globals and tables

  /// The global table (`_G`).
  public var globals: LuaTable {
    get throws {
      if let cachedGlobals, cachedGlobals.isValid { return cachedGlobals }
      let L = try currentThread()
      try reserve(L, 1)
      relua_pushglobaltable(L)
      defer { lua_settop(L, -2) }
      let table = LuaTable(handle: handle, at: -1, in: L)
      cachedGlobals = table
      return table
    }
  }

  /// The global `name` (`_G[name]`, metamethods included).
  public func global(_ name: String) throws -> LuaValue { try globals.get(LuaValue.text(name)) }
  /// Sets the global `name` to `value`.
  public func setGlobal(_ name: String, _ value: LuaValue) throws { try globals.set(.text(name), value) }
  /// Sets the global `name` to a pushable Swift value.
  public func setGlobal(_ name: String, _ value: some LuaPushable) throws { try globals.set(name, value) }

  /// A new table, optionally filled with an array part and string-keyed fields.
  public func table(array: [LuaValue] = [], fields: [String: LuaValue] = [:]) throws -> LuaTable {
    let L = try currentThread()
    try reserve(L, 3)
    let top = lua_gettop(L)
    defer { lua_settop(L, top) }
    lua_createtable(L, Int32(clamping: array.count), Int32(clamping: fields.count))
    for (offset, element) in array.enumerated() {
      try push(element, onto: L)
      lua_rawseti(L, -2, lua_Integer(offset + 1))
    }
    for (key, element) in fields {
      LuaStack(L, self).push(key)
      try push(element, onto: L)
      lua_rawset(L, -3)
    }
    return LuaTable(handle: handle, at: -1, in: L)
  }

  /// Converts any pushable Swift value (arrays, dictionaries...) into a Lua value of this state.
  public func value(_ value: some LuaPushable) throws -> LuaValue {
    let L = try currentThread()
    try reserve(L, 4)
    let top = lua_gettop(L)
    defer { lua_settop(L, top) }
    try value.push(onto: LuaStack(L, self))
    return self.value(at: -1, in: L)
  }

  // MARK: Stack plumbing (internal)

  func reserve(_ L: OpaquePointer, _ count: Int) throws(LuaError) {
    guard lua_checkstack(L, Int32(clamping: count + 1)) != 0 else { throw .memory(message: "Lua stack overflow") }
  }

  /// Reads the value at `index` of a raw stack of this state (references for tables, functions...).
  package func value(at index: Int32, in L: OpaquePointer) -> LuaValue {
    switch lua_type(L, index) {
    case LUA_TBOOLEAN: return .boolean(lua_toboolean(L, index) != 0)
    case LUA_TNUMBER:
      if lua_isinteger(L, index) != 0 { return .integer(lua_tointegerx(L, index, nil)) }
      return .number(lua_tonumberx(L, index, nil))
    case LUA_TSTRING:
      var length = 0
      let pointer = lua_tolstring(L, index, &length)
      return .string(LuaString(bytes: Array(UnsafeRawBufferPointer(start: pointer, count: length))))
    case LUA_TTABLE: return .table(LuaTable(handle: handle, at: index, in: L))
    case LUA_TFUNCTION: return .function(LuaFunction(handle: handle, at: index, in: L))
    case LUA_TUSERDATA: return .userdata(LuaUserdata(handle: handle, at: index, in: L))
    case LUA_TLIGHTUSERDATA: return .lightUserdata(lua_touserdata(L, index))
    case LUA_TTHREAD: return .thread(LuaThread(handle: handle, at: index, in: L))
    default: return .nil
    }
  }

  /// Pushes `value` onto `L` (one slot; the caller has reserved it).
  func push(_ value: LuaValue, onto L: OpaquePointer) throws(LuaError) {
    switch value {
    case .nil: lua_pushnil(L)
    case .boolean(let value): lua_pushboolean(L, value ? 1 : 0)
    case .integer(let value): lua_pushinteger(L, value)
    case .number(let value): lua_pushnumber(L, value)
    case .string(let value):
      value.bytes.withUnsafeBufferPointer { bytes in
        _ = lua_pushlstring(L, UnsafeRawPointer(bytes.baseAddress)?.assumingMemoryBound(to: CChar.self), bytes.count)
      }
    case .table(let ref): try ref.push(onto: L, from: handle)
    case .function(let ref): try ref.push(onto: L, from: handle)
    case .userdata(let ref): try ref.push(onto: L, from: handle)
    case .thread(let ref): try ref.push(onto: L, from: handle)
    case .lightUserdata(let pointer): lua_pushlightuserdata(L, pointer)
    }
  }

  func values(from start: Int32, to end: Int32, in L: OpaquePointer) -> [LuaValue] {
    guard start <= end else { return [] }
    return (start...end).map { value(at: $0, in: L) }
  }

  func userdataType<T: AnyObject>(for type: T.Type) -> LuaUserdataType<T>? {
    userdataTypes[ObjectIdentifier(type)] as? LuaUserdataType<T>
  }

  func addUserdataType<T: AnyObject>(_ userdataType: LuaUserdataType<T>) {
    userdataTypes[ObjectIdentifier(T.self)] = userdataType
  }
}

/// A Swift closure receiving text from C (print, warnings).
final class LuaTextSink {
  let body: (String) -> Void
  init(_ body: @escaping (String) -> Void) { self.body = body }
}

func luaWarningThunk(_ context: UnsafeMutableRawPointer?, _ message: UnsafePointer<CChar>?) {
  guard let context, let message else { return }
  Unmanaged<LuaTextSink>.fromOpaque(context).takeUnretainedValue().body(String(cString: message))
}

func luaPrintThunk(_ context: UnsafeMutableRawPointer?, _ text: UnsafePointer<CChar>?, _ length: Int) {
  guard let context else { return }
  let line = String(decoding: UnsafeRawBufferPointer(start: text, count: length), as: UTF8.self)
  Unmanaged<LuaTextSink>.fromOpaque(context).takeUnretainedValue().body(line)
}

func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> R) -> R {
  let copies: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
  defer { copies.forEach { free($0) } }
  let constCopies = copies.map { UnsafePointer($0) }
  return constCopies.withUnsafeBufferPointer { body($0.baseAddress) }
}
