import Lua
@testable import Relua
import XCTest

final class StateViewTests: XCTestCase {
  func testReadsAndWritesInPlaceFromLua() throws {
    let harness = try ViewHarness()
    var state: Value = ["count": 0, "counter": ["count": 1, "secret": 5]]
    let top = harness.stackTop
    try harness.reduce(&state, "s.count = s.count + 1; s.counter.count = s.counter.count * 10; s.name = 'x'")
    XCTAssertEqual(state, ["count": 1, "counter": ["count": 10, "secret": 5], "name": "x"])
    try harness.reduce(&state, at: ["counter"], "s.secret = nil; s.ratio = s.count / 4")
    XCTAssertEqual(state[key: "counter"], ["count": 10, "ratio": 2.5])
    XCTAssertEqual(harness.stackTop, top)
  }

  func testLengthIpairsAndPairsInOrder() throws {
    let harness = try ViewHarness()
    var state: Value = ["results": .identified([["id": "a", "n": 1], ["id": "b", "n": 2]]), "b": 2, "a": 1, "c": [3]]
    let out = try harness.reduce(&state, """
      local parts = { #s.results }
      for i, r in ipairs(s.results) do parts[#parts + 1] = i .. r.id .. r.n end
      for k, v in pairs(s) do parts[#parts + 1] = k .. ':' .. (type(v) == 'userdata' and #v or v) end
      for i, v in pairs(s.c) do parts[#parts + 1] = 'c' .. i .. '=' .. v end
      return table.concat(parts, ' ')
      """)
    XCTAssertEqual(out.first, "2 1a1 2b2 a:1 b:2 c:1 results:2 c1=3")
  }

  func testTableLibraryOnAView() throws {
    let harness = try ViewHarness()
    var state: Value = ["list": [5, 3, 9], "results": .identified([["id": "x", "n": 2], ["id": "y", "n": 1]])]
    try harness.reduce(&state, """
      table.insert(s.list, 1)
      table.insert(s.list, 1, 0)
      assert(table.remove(s.list, 2) == 5)
      table.sort(s.list)
      table.insert(s.results, 1, { id = 'z', n = 3 })
      table.sort(s.results, function(a, b) return a.n < b.n end)
      table.remove(s.results)
      """)
    XCTAssertEqual(state[key: "list"], [0, 1, 3, 9])
    XCTAssertEqual(state[key: "results"], .identified([["id": "y", "n": 1], ["id": "x", "n": 2]]))
    XCTAssertEqual(state[key: "results"].identifiedValue?.index(id: "x"), 1)
  }

  func testAssigningAViewCopiesItsValue() throws {
    let harness = try ViewHarness()
    var state: Value = ["a": ["x": 1], "b": ["x": 2, "list": [1]]]
    try harness.reduce(&state, "s.a = s.b; s.b.x = 3; table.insert(s.b.list, 2); s.c = { inner = s.a }; s.a.x = 4")
    XCTAssertEqual(state, ["a": ["x": 4, "list": [1]], "b": ["x": 3, "list": [1, 2]], "c": ["inner": ["x": 2, "list": [1]]]])
  }

  func testCopyGivesAPlainTable() throws {
    let harness = try ViewHarness()
    var state: Value = ["counter": ["count": 1]]
    let out = try harness.reduce(&state, "local t = copy(s.counter); t.count = 99; return type(t) .. s.counter.count .. t.count")
    XCTAssertEqual(out.first, "table199")
    XCTAssertEqual(state, ["counter": ["count": 1]])
  }

  /// A reducer call that makes more views than a handle can address raises with the limit, its
  /// writes are undone, and the next call makes its views afresh. (The limit is 16.7 million;
  /// lowered here, since no test can make that many.)
  func testTooManyViewsInOneCallRaises() throws {
    let harness = try ViewHarness()
    harness.views.viewLimit = 3  // the call's own view and two more
    let original: Value = ["count": 0, "a": ["b": ["c": ["n": 1]]], "list": [[1], [2], [3]]]
    var state = original
    for body in ["s.count = 1; return s.a.b.c.n", "s.count = 2; for _, row in ipairs(s.list) do row[1] = 0 end"] {
      XCTAssertThrowsError(try harness.reduce(&state, body), body) { error in
        XCTAssertEqual(luaMessage(error), "reducer:1: a reducer call made more than 3 state views", body)
      }
      XCTAssertEqual(state, original, body)
    }
    // Views are counted per call, and the same child is one view however often it is read.
    for _ in 1...3 { try harness.reduce(&state, "s.count = s.count + 1; s.a.b.x = s.a.b == s.a.b") }
    XCTAssertEqual(state[key: "count"], 3)
    XCTAssertEqual(state[key: "a"][key: "b"][key: "x"], true)
  }

  func testAViewUsedAfterItsCallRaises() throws {
    let harness = try ViewHarness()
    var state: Value = ["count": 0, "counter": ["count": 1]]
    try harness.reduce(&state, "kept = s; keptChild = s.counter")
    for body in ["return kept.count", "kept.count = 1", "return #kept", "for k in pairs(kept) do end", "keptChild.count = 2", "s.copy = kept"] {
      XCTAssertThrowsError(try harness.reduce(&state, body), body) { error in
        XCTAssertEqual(luaMessage(error), "reducer:1: state can only change inside a reducer", body)
      }
    }
    XCTAssertEqual(state, ["count": 0, "counter": ["count": 1]])
  }

  /// Reads and number or boolean writes of the session's own scalar fields take the shim's short
  /// path; every other access (another view, a key that is not a string, an absent key, a field
  /// holding a string or a table, a record that is not the root) falls back to the general one.
  /// Both give the same answers, and a failed call undoes the writes of both exactly.
  func testOwnFieldsShortPathAndItsFallbacks() throws {
    let harness = try ViewHarness()
    var state: Value = ["n": 1, "x": 1.5, "on": true, "name": "a", "child": ["n": 2], "list": [1, 2], "a_key_longer_than_8": 3]
    let out = try harness.reduce(&state, """
      local parts = {}
      local function add(v) parts[#parts + 1] = tostring(v) .. ':' .. (math.type(v) or type(v)) end
      add(s.n); add(s.x); add(s.on); add(s.missing); add(s.name); add(s.child); add(s[1]); add(s[true]); add(s.a_key_longer_than_8)
      s.n = s.n + 1; s.x = s.x * 2; s.on = not s.on; s.a_key_longer_than_8 = 2.0
      s.name = 5; s.missing = false; s.child.n = 3; s.list = 7
      add(s.n); add(s.x); add(s.on); add(s.name); add(s.missing); add(s.child.n); add(s.list); add(s.a_key_longer_than_8)
      return table.concat(parts, ' ')
      """)
    XCTAssertEqual(out.first, .string("""
      1:integer 1.5:float true:boolean nil:nil a:string StateView: state.child:userdata nil:nil nil:nil 3:integer \
      2:integer 3.0:float false:boolean 5:integer false:boolean 3:integer 7:integer 2.0:float
      """))
    let after: Value = ["n": 2, "x": 3.0, "on": false, "name": 5, "missing": false, "child": ["n": 3], "list": 7, "a_key_longer_than_8": 2.0]
    XCTAssertEqual(state, after)
    XCTAssertThrowsError(try harness.reduce(&state, """
      s.n = 10; s.x = 1; s.on = true; s.name = 1; s.n = 2.5; s.on = 3; s.missing = 'm'; s.child.n = true; s.list = false
      error('boom')
      """))
    XCTAssertEqual(state, after)
    var list: Value = [1, 2]  // the session's own state, not a record
    XCTAssertEqual(try harness.reduce(&list, "return s.x, s[2]"), [.nil, .integer(2)])
    XCTAssertThrowsError(try harness.reduce(&list, "s.x = 1")) { error in
      XCTAssertEqual(luaMessage(error), "reducer:1: state: sequences have integer keys 1…n only (got a string key)")
    }
    XCTAssertEqual(list, [1, 2])
  }

  /// The short path finds a field by its key's 8-byte prefix and length: keys of every length
  /// from 0 to 13, sharing prefixes, with NUL or non-ASCII bytes, must read and write exactly their
  /// own field (keys longer than 8 bytes that share a prefix, and absent keys, take the general
  /// path). Writes go into the session's own copy: a copy of the state taken before is untouched.
  func testOwnFieldsShortPathFindsKeysByTheirBytes() throws {
    let harness = try ViewHarness()
    let keys = [
      "", "\u{0}", "a", "ab", "ab\u{0}", "abc", "abcd", "abcde", "abcdef", "abcdefg", "abcdefgh", "abcdefgh\u{0}",
      "abcdefghi", "abcdefghij", "abcdefghik", "abcdefghijk", "abcdefghijkl", "abcdefghijklm", "abcdefgi", "b", "é", "éé",
    ]
    func literal(_ key: String) -> String { "\"" + key.utf8.map { "\\\($0)" }.joined() + "\"" }
    func initial(_ index: Int) -> Value {
      switch index % 3 {
      case 0: return .integer(Int64(index))
      case 1: return .float(Double(index) + 0.5)
      default: return .boolean(index % 2 == 0)
      }
    }
    var state = Value.record(ValueRecord(keys.enumerated().map { ($1, initial($0)) }))
    let before = state
    let absent = ["abcdefghijklmn", "abcdefghijklX", "abcdefghiX", "abcdefghj", "abcdefgh\u{0}\u{0}", "ab\u{0}\u{0}", "abcdefgj", "c", "ééé", "\u{0}\u{0}"]
    let out = try harness.reduce(&state, """
      local parts = {}
      local function add(v) parts[#parts + 1] = tostring(v) .. ':' .. (math.type(v) or type(v)) end
      for _, k in ipairs({ \(keys.map(literal).joined(separator: ", ")) }) do
        local v = s[k]
        add(v)
        if type(v) == 'boolean' then s[k] = not v else s[k] = v + 100 end
        add(s[k])
      end
      for _, k in ipairs({ \(absent.map(literal).joined(separator: ", ")) }) do add(s[k]) end
      return table.concat(parts, ' ')
      """)
    func describe(_ value: Value) -> String {
      switch value {
      case .integer(let integer): return "\(integer):integer"
      case .float(let number): return "\(number):float"
      case .boolean(let flag): return "\(flag):boolean"
      default: return "?"
      }
    }
    func written(_ value: Value) -> Value {
      switch value {
      case .integer(let integer): return .integer(integer + 100)
      case .float(let number): return .float(number + 100)
      case .boolean(let flag): return .boolean(!flag)
      default: return value
      }
    }
    let reads = keys.indices.flatMap { [describe(initial($0)), describe(written(initial($0)))] }
    XCTAssertEqual(out.first?.stringValue, (reads + absent.map { _ in "nil:nil" }).joined(separator: " "))
    XCTAssertEqual(state, .record(ValueRecord(keys.enumerated().map { ($1, written(initial($0))) })))
    XCTAssertEqual(before, .record(ValueRecord(keys.enumerated().map { ($1, initial($0)) })))
    // A raising call over a state shared with a copy: both end as they were.
    let shared = state
    XCTAssertThrowsError(try harness.reduce(&state, """
      for _, k in ipairs({ \(keys.map(literal).joined(separator: ", ")) }) do
        local v = s[k]
        if type(v) == 'boolean' then s[k] = not v else s[k] = v * 3 end
      end
      s.abcd = 0.25; s.abcd = true; s.b = 7
      error('boom')
      """))
    XCTAssertEqual(state, shared)
    XCTAssertEqual(state, .record(ValueRecord(keys.enumerated().map { ($1, written(initial($0))) })))
  }

  /// The short path does not ask Lua for the receiver's type: a metamethod called directly (from
  /// trusted code) with something that is not a view gets the general path's answer.
  func testMetamethodsCalledOnOtherValuesRaise() throws {
    let lua = try LuaState(options: LuaOptions(trusted: true))
    let views = try StateViews(lua: lua)
    let function = try lua.execute("""
      return function(s)
        local mt = debug.getmetatable(s)
        local out = {}
        for _, receiver in ipairs({ io.stdout, {}, 1, 'count' }) do
          out[#out + 1] = select(2, pcall(mt.__index, receiver, 'count'))
          out[#out + 1] = select(2, pcall(mt.__newindex, receiver, 'count', 2))
        end
        out[#out + 1] = s.count
        return table.concat(out, '|')
      end
      """, name: "=reducer")[0].functionValue!
    var state: Value = ["count": 1]
    let out = try views.withViews(of: &state) { session in try function.call(try session.view()) }
    let stale = ["reducer:5: ", "reducer:6: "].map { $0 + StateViews.staleMessage }.joined(separator: "|")
    let expected = Array(repeating: stale, count: 4).joined(separator: "|") + "|1"
    XCTAssertEqual(out.first?.stringValue, expected)
    XCTAssertEqual(state, ["count": 1])
  }

  func testBadWritesNameThePath() throws {
    let harness = try ViewHarness()
    var state: Value = ["list": [1, 2, 3], "results": .identified([["id": 1]])]
    let cases: [(String, String)] = [
      ("s.list[1] = nil", "reducer:1: state.list[1]: setting nil would leave a hole in a sequence (use table.remove)"),
      ("s.list[9] = 1", "reducer:1: state.list[9]: index 9 is out of range 1…4 of a sequence"),
      ("s.list.x = 1", "reducer:1: state.list: sequences have integer keys 1…n only (got a string key)"),
      ("s[1] = 1", "reducer:1: state: records have string keys only (got a number key)"),
      ("s.f = print", "reducer:1: state.f: a function cannot be state"),
      ("s.results[2] = { name = 'x' }", "reducer:1: state.results[2]: elements of an identified collection must be records with an id"),
      ("s.results[2] = { id = 1 }", "state.results: duplicate id 1 in an identified collection (at position 2)"),
    ]
    for (body, message) in cases {
      XCTAssertThrowsError(try harness.reduce(&state, body), body) { error in XCTAssertEqual(luaMessage(error), message) }
      XCTAssertEqual(state, ["list": [1, 2, 3], "results": .identified([["id": 1]])], body)
    }
  }

  func testAWriteToOneElementOfAHugeArrayDoesNotCopyIt() throws {
    let harness = try ViewHarness()
    var state: Value = ["items": roomyArray(100_000) { ["n": .integer(Int64($0))] }, "count": 0]
    let before = storage(state, ["items"])
    try harness.reduce(&state, "s.items[50000].n = -1; s.items[7] = { n = 7 }; s.items[#s.items + 1] = { n = 0 }; s.count = #s.items")
    XCTAssertEqual(storage(state, ["items"]), before)
    XCTAssertEqual(state[path: ["items", 49_999, "n"]], -1)
    XCTAssertEqual(state[key: "count"], 100_001)
    // Many writes in one call, and more calls: still the same storage.
    try harness.reduce(&state, "for i = 1, 100 do s.items[i * 1000].n = -i end")
    try harness.reduce(&state, at: ["items"], "table.remove(s)")
    XCTAssertEqual(storage(state, ["items"]), before)
  }

  func testChildViewsAreReusedWithinACall() throws {
    let harness = try ViewHarness()
    var state: Value = ["counter": ["count": 1]]
    XCTAssertEqual(try harness.reduce(&state, "return rawequal(s.counter, s.counter)").first, true)
  }
}

final class StateViewSemanticsTests: XCTestCase {
  func testSwapsAndRemovedElementsBehaveLikeLuaTables() throws {
    let harness = try ViewHarness()
    var state: Value = ["list": [["n": 1], ["n": 2], ["n": 3]]]
    let out = try harness.reduce(&state, """
      s.list[1], s.list[2] = s.list[2], s.list[1]
      local removed = table.remove(s.list, 1)
      removed.n = 100 -- a table moved out of the state: changing it changes only it
      return removed.n
      """)
    XCTAssertEqual(out.first, 100)
    XCTAssertEqual(state, ["list": [["n": 1], ["n": 3]]])
  }

  func testEmptyTableKeepsTheKindOfItsSlot() throws {
    let harness = try ViewHarness()
    var state: Value = ["results": .identified([["id": "a"]]), "list": [1], "child": ["x": 1]]
    try harness.reduce(&state, "s.results = {}; s.list = {}; s.child = {}; s.fresh = {}")
    XCTAssertEqual(state, ["results": .identified([]), "list": .array([]), "child": [:], "fresh": [:]])
    try harness.reduce(&state, "s.results[1] = { id = 'b' }; s.results = { { id = 'c' }, { id = 'd' } }")
    XCTAssertEqual(state[key: "results"], .identified([["id": "c"], ["id": "d"]]))
    XCTAssertEqual(state[key: "results"].identifiedValue?.index(id: "d"), 1)
  }

  /// What a forEach element action will do: a view of one element, found by id.
  func testAViewOfOneElementByID() throws {
    let harness = try ViewHarness()
    var state: Value = ["rows": .identified((0..<1_000).map { ["id": .integer(Int64($0)), "liked": false] })]
    try harness.reduce(&state, at: [.key("rows"), .id(500)], "s.liked = not s.liked")
    XCTAssertEqual(state[key: "rows"][id: 500][key: "liked"], true)
    XCTAssertEqual(state[key: "rows"][id: 499][key: "liked"], false)
  }

  func testScalarsAtAPathArePassedAsPlainValues() throws {
    let harness = try ViewHarness()
    var state: Value = ["count": 3]
    XCTAssertEqual(try harness.reduce(&state, at: ["count"], "return math.type(s) .. s").first, "integer3")
  }

  func testSessionsDoNotNest() throws {
    let harness = try ViewHarness()
    var outer: Value = ["a": 1]
    var inner: Value = ["b": 2]
    XCTAssertThrowsError(try harness.views.withViews(of: &outer) { _ in
      try harness.views.withViews(of: &inner) { _ in }
    })
    XCTAssertEqual(outer, ["a": 1])
    XCTAssertEqual(inner, ["b": 2])
  }

  /// Views are light userdata, which share one metatable per Lua state: a second set of views
  /// in the same state is refused, and the first keeps working.
  func testOneStateViewsPerLuaState() throws {
    let harness = try ViewHarness()
    XCTAssertThrowsError(try StateViews(lua: harness.lua, copyGlobal: nil)) { error in
      XCTAssertTrue("\(error)".contains("one StateViews per Lua state"), "\(error)")
    }
    var state: Value = ["count": 1]
    try harness.reduce(&state, "s.count = s.count + 1")
    XCTAssertEqual(state, ["count": 2])
  }
}

final class StateViewResourceTests: XCTestCase {
  /// Views, cached child views and their registry slots are all released after the calls.
  func testSessionsLeaveNoSwiftObjectsOrStackSlotsBehind() throws {
    let harness = try ViewHarness()
    var state: Value = ["counter": ["count": 0], "list": [["n": 1], ["n": 2]]]
    harness.lua.collectGarbage()
    let objects = harness.lua.liveSwiftObjects
    let top = harness.stackTop
    for _ in 0..<100 {
      try harness.reduce(&state, """
        s.counter.count = s.counter.count + 1
        for i, e in ipairs(s.list) do e.n = e.n + i end
        for k, v in pairs(s) do end
        """)
      _ = try? harness.reduce(&state, "s.counter.count = 0; error('x')")
    }
    harness.lua.collectGarbage()
    XCTAssertEqual(state[path: ["counter", "count"]], 100)
    XCTAssertEqual(state[path: ["list", 1, "n"]], 202)
    XCTAssertEqual(harness.lua.liveSwiftObjects, objects)
    XCTAssertEqual(harness.stackTop, top)
  }
}
