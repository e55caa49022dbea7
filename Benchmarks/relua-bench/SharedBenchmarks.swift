import Foundation
import Lua
import Relua

/// Shared state's costs (#33), each beside the same send without it:
///
/// - `lua.shared.100` / `lua.shared.plain`: a root action writing a number that 100 forEach rows
///   also hold (one `inMemory` share) vs the same write to a field nobody shares, in the same
///   tree. Goal: ≤ 2×. `lua.shared.100.byHand`: the same 100 copies written by the handler itself.
/// - `lua.fileStorage.10000` / `lua.inMemory.10000` / `lua.unshared.10000`: a send changing one
///   element of a 10,000-element list kept in a file (saved off the send path, debounced), the
///   same list shared in memory, and not shared at all. Goal: the file's ≤ 1.2× the same send
///   without persistence (in memory).
@MainActor
func registerSharedBenchmarks(_ suite: BenchmarkSuite) {
  for (name, source) in [
    ("lua.shared.plain", rowsFeature(shared: false)), ("lua.shared.100", rowsFeature(shared: true)),
    ("lua.shared.100.byHand", rowsFeature(shared: false, byHand: true)),
  ] {
    suite.add(name, iterations: 50_000) {
      let (lua, store) = makeSharedStore(source, name: "Rows")
      let loop = try! lua.load("local store, n = ... for _ = 1, n do store:send('bump') end")
      return { n in
        try! lua.call(loop, store, .integer(Int64(n)))
        blackHole(lua)
      }
    }
  }
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent("relua-bench-\(getpid())").path
  try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  for key in ["fileStorage", "inMemory", "unshared"] {
    suite.add("lua.\(key).10000", iterations: 2_000) {
      let (lua, store) = makeSharedStore(listFeature(key: key), name: "List", root: directory)
      let loop = try! lua.load("local store, n = ... for _ = 1, n do store:send('touch') end")
      return { n in
        try! lua.call(loop, store, .integer(Int64(n)))
        blackHole(lua)
      }
    }
  }
}

/// `byHand`: no share; the root's handler copies the number into every row itself (what an app
/// without shared state writes).
private func rowsFeature(shared: Bool, byHand: Bool = false) -> String {
  """
  local relua = require "relua"
  local Count = relua.inMemory("count")
  local Row = relua.feature "Row" {
    state = { id = 0, count = 0 },
    \(shared ? "shared = { count = Count }," : "")
  }
  local rows = {}
  for id = 1, 100 do rows[id] = { id = id, count = 0 } end
  return relua.feature "Rows" {
    state = { count = 0, rows = rows },
    \(shared ? "shared = { count = Count }," : "")
    actions = { bump = {} },
    compose = { relua.forEach("rows", Row) },
    reduce = relua.on { bump = function(s)
      s.count = s.count + 1
      \(byHand ? "for _, row in ipairs(s.rows) do row.count = s.count end" : "")
    end },
  }
  """
}

private func listFeature(key: String) -> String {
  let shared: String
  switch key {
  case "fileStorage": shared = "shared = { items = relua.fileStorage('bench-items.json') },"
  case "inMemory": shared = "shared = { items = relua.inMemory('items') },"
  default: shared = ""
  }
  return """
    local relua = require "relua"
    local items = {}
    for id = 1, 10000 do items[id] = { id = id, n = 0 } end
    return relua.feature "List" {
      state = { items = relua.identified(items) },
      \(shared)
      actions = { touch = {} },
      reduce = relua.on { touch = function(s) s.items[1].n = s.items[1].n + 1 end },
    }
    """
}

/// A fresh runtime (script root `root`) and a store of the feature the chunk returns.
@MainActor
private func makeSharedStore(_ source: String, name: String, root: String = FileManager.default.currentDirectoryPath) -> (LuaState, LuaValue) {
  let lua = try! LuaState(options: LuaOptions(scriptRoots: [root]))
  try! ReluaHost.install(in: lua)
  let feature = try! lua.execute(source, name: "=\(name)")[0]
  let relua = try! lua.global("relua").tableValue!
  let store = try! lua.call(relua["Store"].functionValue!, feature)[0]
  return (lua, store)
}
