import Foundation
import Lua
import Relua

/// Views as trees (#35), on a 1,000-row `relua.ui.list` (each row an hstack of a text and a
/// button) whose one action toggles one row:
///
/// - `views.send.1000`: the send alone (`ReluaStore.send("rows[id=500].toggle")`).
/// - `views.render.1000`: the same send, then what a renderer does after it: read the screen's
///   tree (`ReluaStore.topView()`) and diff it against the tree before (`ReluaViewPatch.changes`).
///   It includes the send, so its ratio to the send overstates the rendering's by one. The
///   reference: every row drawn by Lua on every read.
/// - `views.render.1000.forEach`: the same list drawn with `relua.ui.forEach("rows", Row)`: only
///   the toggled row is drawn again (the host's row cache), the diff skips reused rows by their
///   revision. Goal: ≤ 10 ×.
/// - `views.read.1000`, `views.diff.1000`: its two parts alone (reading the tree of the same state
///   again; diffing two trees one row apart), for the profile.
/// - `views.diff.1000.forEach`: the diff alone of two forEach trees one row apart, as the reader
///   gives them (rows sharing all chunks but the changed row's: only that chunk is compared).
/// - `views.patch.bytes` (a size, not a time): the patch JSON a page receives for that change,
///   over the changed row's node JSON. Goal: ≤ 2 × (`measureViewPatchSize` prints both sizes).
@MainActor
func registerViewBenchmarks(_ suite: BenchmarkSuite) {
  suite.add("views.send.1000", iterations: 2_000) {
    let (runtime, store) = makeViewStore(rows: 1_000)
    return { n in
      for _ in 0..<n { try! store.send("rows[id=500].toggle") }
      blackHole(runtime)
    }
  }
  // A send, then the tree read again and diffed against the last: what a page's update costs.
  func render(forEach: Bool) -> () -> (Int) -> Void {
    {
      let (runtime, store) = makeViewStore(rows: 1_000, forEach: forEach)
      var tree = try! store.topView()!
      return { n in
        for _ in 0..<n {
          try! store.send("rows[id=500].toggle")
          let next = try! store.topView()!
          blackHole(ReluaViewPatch.changes(from: tree, to: next))
          tree = next
        }
        blackHole(runtime)
      }
    }
  }
  suite.add("views.render.1000", iterations: 20, prepare: render(forEach: false))
  suite.add("views.render.1000.forEach", iterations: 200, prepare: render(forEach: true))
  suite.add("views.read.1000", iterations: 20) {
    let (runtime, store) = makeViewStore(rows: 1_000)
    return { n in
      for _ in 0..<n { blackHole(try! store.topView()!) }
      blackHole(runtime)
    }
  }
  // The diff alone of two trees one toggled row apart.
  func diff(forEach: Bool) -> () -> (Int) -> Void {
    {
      let (runtime, store) = makeViewStore(rows: 1_000, forEach: forEach)
      let before = try! store.topView()!
      try! store.send("rows[id=500].toggle")
      let after = try! store.topView()!
      return { n in
        for _ in 0..<n { blackHole(ReluaViewPatch.changes(from: before, to: after)) }
        blackHole(runtime)
      }
    }
  }
  suite.add("views.diff.1000.forEach", iterations: 2_000, prepare: diff(forEach: true))
  suite.add("views.diff.1000", iterations: 200, prepare: diff(forEach: false))
}

/// The size of the update for one toggled row of the 1,000: the patches' JSON and the row's node
/// JSON (both compact, keys sorted), in bytes.
@MainActor
func measureViewPatchSize() -> (patch: Int, row: Int) {
  let (runtime, store) = makeViewStore(rows: 1_000)
  defer { blackHole(runtime) }
  let before = try! store.topView()!
  try! store.send("rows[id=500].toggle")
  let after = try! store.topView()!
  let patches = ReluaViewPatch.changes(from: before, to: after)
  guard case .list(let rows) = after, let row = rows.first(where: { $0.id == .integer(500) }) else {
    fatalError("views.patch.bytes: the view is not the list it was written as")
  }
  let patchJSON = try! ReluaViewPatch.json(patches)
  let rowJSON = try! row.content.json(pretty: false)
  return (patchJSON.utf8.count, rowJSON.utf8.count)
}

private func viewListFeature(rows: Int, forEach: Bool) -> String {
  """
  local relua = require "relua"
  local ui = relua.ui
  local Row = relua.feature "Row" {
    state = { id = 0, title = "", done = false },
    actions = { toggle = {} },
    reduce = relua.on { toggle = function(s) s.done = not s.done end },
    view = function(row)
      return ui.hstack { ui.text((row.done and "[x] " or "[ ] ") .. row.title), ui.button("Toggle", "toggle") }
    end,
  }
  local rows = {}
  for id = 1, \(rows) do rows[id] = { id = id, title = "Row " .. id, done = false } end
  return relua.feature "List" {
    state = { rows = relua.identified(rows) },
    compose = { relua.forEach("rows", Row) },
    view = \(forEach ? "function() return ui.forEach(\"rows\", Row) end" : "function(s) return ui.list(s.rows, Row.view, \"rows\") end"),
  }
  """
}

@MainActor
private func makeViewStore(rows: Int, forEach: Bool = false) -> (ReluaRuntime, ReluaStore) {
  let relua = try! ReluaRuntime(options: LuaOptions())
  let source = viewListFeature(rows: rows, forEach: forEach)
  return (relua, try! relua.makeStore(try! relua.loadFeature(source: source, name: "ViewList.lua")))
}
