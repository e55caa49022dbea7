import CBenchmarkFloor
import Foundation
import Lua

/// The Lua layer's costs, measured in the same run as the engine's so ratios are fair.
///
/// - `lua.pcall.raw`: the baseline of DESIGN.md — a Lua counter reducer `function(s) s.count =
///   s.count + 1 end` called with a bare `lua_pcall` from Swift, no relua in between.
/// - `lua.call.swift`: a Lua loop calling a Swift function through the C trampoline (the path every
///   `store:send` will take), per call.
/// - `lua.method.userdata`: a Lua loop calling a method of a Swift object exposed as userdata
///   (`store:send("increment")` shape: self check, one string argument), per call.
/// - `lua.send.floor`: `lua.send`'s shape with no relua and no Swift at all, in C: the same Lua
///   loop calls `store:send('increment')`, a C function that finds the Lua handler and calls it
///   with `lua_pcall` on a light userdata view whose `__index`/`__newindex` are C functions over
///   one integer. What the Lua VM alone costs for that shape: the part no host can remove.
/// - `lua.send.floor.swift`: the same shape again, but `store:send`, `__index` and `__newindex`
///   are Swift functions behind relua's own C trampoline (as in relua), each doing only what the
///   C floor does. What a Swift host costs for that shape before it does any work of its own:
///   three Lua→Swift crossings per send.
@MainActor
func registerLuaBenchmarks(_ suite: BenchmarkSuite) {
  suite.add("lua.pcall.raw", iterations: 1_000_000) {
    let lua = try! LuaState()
    // The Lua layer's raw stack: its primitives are inlined, so these are the bare C calls.
    let L = LuaRawStack(lua.unsafeState!)
    try! lua.execute("counter = { count = 0 }; function reduce(s) s.count = s.count + 1 end")
    L.getGlobal("reduce")
    let reduce = Int64(L.makeReference())
    L.getGlobal("counter")
    let counter = Int64(L.makeReference())
    return { n in
      for _ in 0..<n {
        L.pushRegistryValue(reduce)
        L.pushRegistryValue(counter)
        if L.protectedCall(argumentCount: 1, resultCount: 0) != LuaRawStack.ok { fatalError("lua.pcall.raw failed") }
      }
      blackHole(lua)
    }
  }

  suite.add("lua.send.floor", iterations: 1_000_000) {
    // All in C (CBenchmarkFloor): the state, the floor and the loop.
    guard let L = relua_floor_open() else { fatalError("lua.send.floor: the loop does not compile") }
    return { n in
      if relua_floor_run(L, Int64(n)) == 0 { fatalError("lua.send.floor failed") }
      blackHole(relua_floor_count())
    }
  }

  suite.add("lua.send.floor.swift", iterations: 1_000_000) {
    let lua = try! LuaState()
    let L = LuaRawStack(lua.unsafeState!)
    let floor = SwiftFloor()
    try! lua.execute("handlers = { increment = function(s) s.count = s.count + 1 end }")
    L.getGlobal("handlers")
    floor.handlers = Int64(L.makeReference())
    // The views' metatable (light userdata share one), as relua installs it.
    L.push(lightUserdata: nil)
    L.createTable(recordCount: 2)
    try! lua.cFunction(SwiftFloor.index, context: floor).push(onto: L)
    L.setField("__index", at: -2)
    try! lua.cFunction(SwiftFloor.newIndex, context: floor).push(onto: L)
    L.setField("__newindex", at: -2)
    L.setMetatable(at: -2)
    L.pop()
    // The store: a full userdata whose metatable's __index holds `send`.
    L.pushNewUserdata(size: 1)
    L.createTable(recordCount: 1)
    L.createTable(recordCount: 1)
    try! lua.cFunction(SwiftFloor.send, context: floor).push(onto: L)
    L.setField("send", at: -2)
    L.setField("__index", at: -2)
    L.setMetatable(at: -2)
    L.setGlobal("store")
    let loop = try! lua.load("local store, n = store, ... for _ = 1, n do store:send('increment') end")
    return { n in
      try! lua.call(loop, .integer(Int64(n)))
      blackHole(floor.count)
    }
  }

  suite.add("lua.call.swift", iterations: 1_000_000) {
    let lua = try! LuaState()
    var calls = 0
    try! lua.registerRaw("tick") { _ in calls += 1; return .none }
    let loop = try! lua.load("local tick, n = tick, ... for _ = 1, n do tick() end")
    return { n in
      try! lua.call(loop, .integer(Int64(n)))
      blackHole(calls)
    }
  }

  suite.add("lua.method.userdata", iterations: 1_000_000) {
    final class Counter { var count = 0 }
    let lua = try! LuaState()
    let counter = Counter()
    try! lua.register(
      type: Counter.self, name: "Counter", methods: [:],
      rawMethods: [
        "send": { counter, stack in
          if try stack.string(at: 2) == "increment" { counter.count += 1 }
          return .none
        }
      ])
    try! lua.setGlobal("counter", .userdata(lua.userdata(counter)))
    let loop = try! lua.load("local counter, n = counter, ... for _ = 1, n do counter:send('increment') end")
    return { n in
      try! lua.call(loop, .integer(Int64(n)))
      blackHole(counter.count)
    }
  }
}

/// `relua run` of an empty script, in milliseconds (median of `samples` process launches).
/// Needs the `relua` binary beside this one (`swift build -c release` builds both).
/// How long a `relua` binary takes from launch to exit, in milliseconds (median, p10, p90):
/// `relua run EMPTY.lua`, and, as `repl`, `relua repl EMPTY.lua` on an empty standard input (the
/// REPL's start without a terminal). `binaries` are measured in alternating launches, so that a
/// baseline (`RELUA_BENCH_BASELINE`, another build) shares the machine's moments with this one.
func measureStartup(binaries: [String], repl: Bool, samples: Int = 15) -> [(median: Double, p10: Double, p90: Double)]? {
  guard binaries.allSatisfy({ FileManager.default.isExecutableFile(atPath: $0) }) else { return nil }
  let script = FileManager.default.temporaryDirectory.appendingPathComponent("relua-empty-\(getpid()).lua")
  _ = FileManager.default.createFile(atPath: script.path, contents: Data())
  defer { try? FileManager.default.removeItem(at: script) }
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
  var milliseconds = Array(repeating: [Double](), count: binaries.count)
  let argvs: [[UnsafeMutablePointer<CChar>?]] = binaries.map { [strdup($0), strdup(repl ? "repl" : "run"), strdup(script.path), nil] }
  defer { for argv in argvs { for pointer in argv { free(pointer) } } }
  for _ in 0..<samples {
    for (index, binary) in binaries.enumerated() {
      // posix_spawn + waitpid: Foundation's `Process.waitUntilExit` polls and would add its own latency.
      var pid: pid_t = 0
      let start = DispatchTime.now().uptimeNanoseconds
      guard posix_spawn(&pid, binary, &actions, nil, argvs[index], environ) == 0 else { return nil }
      var status: Int32 = 0
      waitpid(pid, &status, 0)
      milliseconds[index].append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
  }
  return milliseconds.map { values in
    let sorted = values.sorted()
    return (sorted[samples / 2], sorted[samples / 10], sorted[samples * 9 / 10])
  }
}

/// `lua.send.floor.swift`'s three functions: the C floor's work, in Swift, behind the trampoline.
/// Nonisolated and context-based, as relua's own hot functions are (no executor check, no closure).
private final class SwiftFloor: @unchecked Sendable {
  var count: Int64 = 0
  var handlers = Int64(LuaRawStack.noReference)

  static func isCount(_ L: LuaRawStack) -> Bool {
    var length = 0
    guard let key = L.cString(at: 2, length: &length) else { return false }
    return length == 5 && memcmp(key, "count", 5) == 0
  }

  static let index: LuaCFunction = { L, context in
    let floor = Unmanaged<SwiftFloor>.fromOpaque(context!).takeUnretainedValue()
    let L = LuaRawStack(L.unsafelyUnwrapped)
    if isCount(L) { L.push(integer: floor.count) } else { L.pushNil() }
    return 1
  }

  static let newIndex: LuaCFunction = { L, context in
    let floor = Unmanaged<SwiftFloor>.fromOpaque(context!).takeUnretainedValue()
    let L = LuaRawStack(L.unsafelyUnwrapped)
    if isCount(L) { floor.count = L.integerValue(at: 3) }
    return 0
  }

  /// `store:send(name)`: the handler by name, called with `lua_pcall` on a light userdata view.
  static let send: LuaCFunction = { L, context in
    let floor = Unmanaged<SwiftFloor>.fromOpaque(context!).takeUnretainedValue()
    let L = LuaRawStack(L.unsafelyUnwrapped)
    L.setTop(2)
    L.pushRegistryValue(floor.handlers)
    L.pushCopy(of: 2)
    guard L.rawGet(at: -2) == .function else { fatalError("lua.send.floor.swift: no handler") }
    L.push(lightUserdata: UnsafeMutableRawPointer(bitPattern: 1))
    if L.protectedCall(argumentCount: 1, resultCount: 0) != LuaRawStack.ok { fatalError("lua.send.floor.swift: the handler raised") }
    L.setTop(2)
    return 0
  }
}
