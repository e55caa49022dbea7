import CBenchmarkFloor
import Foundation
import Lua
import Relua

/// The feature host's costs: Lua features driven through the engine from Lua loops.
///
/// - `lua.send`: `store:send("increment")` from a Lua loop to a Lua counter feature
///   (`s.count = s.count + 1` through a state view), per send. DESIGN.md's goal: ≤ 300 ns and
///   ≤ 6 × `lua.pcall.raw` (the same Lua function called with a bare `lua_pcall`).
/// - `lua.forEach.100` / `lua.forEach.100000`: an element action (`rows[id=50].toggle`) in a forEach
///   of 100 and of 100,000 rows; goal: the large one ≤ 2 × the small one.
@MainActor
func registerReluaBenchmarks(_ suite: BenchmarkSuite) {
  suite.add("lua.send", iterations: 200_000) {
    let (lua, store) = makeStore(counterFeature, name: "Counter")
    let loop = try! lua.load("local store, n = ... for _ = 1, n do store:send('increment') end")
    return { n in
      try! lua.call(loop, store, .integer(Int64(n)))
      blackHole(lua)
    }
  }
  // The same send, taken apart (what each layer adds): an action no handler names; a handler that
  // does nothing; one that only reads `s.count`.
  for (suffix, handler) in [("nohandler", nil), ("empty", "function(s) end"), ("read", "function(s) local _ = s.count end")] {
    suite.add("lua.send.\(suffix)", iterations: 200_000) {
      let (lua, store) = makeStore(makeCounterFeature(handler: handler), name: "Counter")
      let loop = try! lua.load("local store, n = ... for _ = 1, n do store:send('increment') end")
      return { n in
        try! lua.call(loop, store, .integer(Int64(n)))
        blackHole(lua)
      }
    }
  }
  for rows in [100, 100_000] {
    suite.add("lua.forEach.\(rows)", iterations: 100_000) {
      let (lua, store) = makeStore(listFeature(rows: rows), name: "List")
      let loop = try! lua.load("local store, n = ... for _ = 1, n do store:send('rows[id=50].toggle') end")
      return { n in
        try! lua.call(loop, store, .integer(Int64(n)))
        blackHole(lua)
      }
    }
  }
}

private let counterFeature = makeCounterFeature(handler: "function(s) s.count = s.count + 1 end")

/// The benchmarks' counter; `handler` nil: `increment` is declared but no handler names it.
private func makeCounterFeature(handler: String?) -> String {
  """
  local relua = require "relua"
  return relua.feature "Counter" {
    state = { count = 0 },
    actions = { increment = {} },
    reduce = relua.on { \(handler.map { "increment = " + $0 } ?? "") },
  }
  """
}

private func listFeature(rows: Int) -> String {
  """
  local relua = require "relua"
  local Row = relua.feature "Row" {
    state = { id = 0, on = false },
    actions = { toggle = {} },
    reduce = relua.on { toggle = function(s) s.on = not s.on end },
  }
  local rows = {}
  for id = 1, \(rows) do rows[id] = { id = id, on = false } end
  return relua.feature "List" {
    state = { rows = rows },
    compose = { relua.forEach("rows", Row) },
  }
  """
}

/// A fresh Lua state with relua, and a store of the feature the chunk returns.
@MainActor
private func makeStore(_ source: String, name: String) -> (LuaState, LuaValue) {
  let lua = try! LuaState()
  try! ReluaHost.install(in: lua)
  let feature = try! lua.execute(source, name: "=\(name)")[0]
  let relua = try! lua.global("relua").tableValue!
  let store = try! lua.call(relua["Store"].functionValue!, feature)[0]
  return (lua, store)
}

/// Resident memory growth over 1,000,000 sends of `lua.send`'s loop, in MB, and whether the
/// registry references came back to their baseline (DESIGN.md: < 5 MB).
@MainActor
func measureSendMemory(sends: Int = 1_000_000) -> (megabytes: Double, referencesBack: Bool) {
  let (lua, store) = makeStore(counterFeature, name: "Counter")
  let loop = try! lua.load("local store, n = ... for _ = 1, n do store:send('increment') end")
  try! lua.call(loop, store, .integer(10_000))  // warm up caches and pools
  lua.collectGarbage()
  let references = lua.liveReferences
  let before = residentBytes()
  try! lua.call(loop, store, .integer(Int64(sends)))
  lua.collectGarbage()
  let after = residentBytes()
  let referencesAfter = lua.liveReferences
  if referencesAfter != references {
    FileHandle.standardError.write(Data("lua.memory.1M: live references \(references) → \(referencesAfter)\n".utf8))
  }
  return (Double(max(0, after - before)) / 1_048_576, referencesAfter == references)
}

func residentBytes() -> Int {
  guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
  let fields = text.split(separator: " ")
  guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
  return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// Bytes the C heap has handed out and not taken back (all arenas, mmapped blocks included). Unlike
/// resident memory, it does not depend on what earlier benchmarks freed: a measurement after one
/// that freed 30 MB saw its new allocations land in those pages and reported a third of the truth.
func heapBytesInUse() -> Int { Int(relua_bench_heap_in_use()) }
