import Composable
import Lua
import XCTest

@testable import Relua

/// Printouts for people follow one rule (`Elision`): Swift's printer of values, its diffs and Lua's
/// printer of Lua values (the REPL's results, assertion messages) cut alike, say what they left
/// out, and stay within their lines however large the value.
final class ElidedPrintingTests: XCTestCase {
  private let million = Value.array((1...1_000_000).map { .integer(Int64($0)) })

  private func elision(items: Int = 25, characters: Int = 200, depth: Int = 8, lines: Int = 40) -> Elision {
    Elision(items: items, characters: characters, depth: depth, lines: lines, textLines: 100, textCharacters: 10_000)
  }

  func testAMillionElementListPrintsItsHeadAndTheCountLeftOut() {
    XCTAssertEqual(million.description, "{ " + (1...25).map(String.init).joined(separator: ", ") + ", … 999,975 more }")
    let lines = million.luaLiteral(.multiLine.elided()).split(separator: "\n")
    XCTAssertEqual(lines.count, 28)  // `{`, 25 rows, the count, `}`
    XCTAssertEqual(lines[26], "  … 999,975 more")
  }

  func testALongStringShowsItsStartAndHowManyCharactersItHas() {
    let text = Value.string(String(repeating: "abcdefghij", count: 10_000))
    XCTAssertEqual(text.description, "\"" + String(repeating: "abcdefghij", count: 20) + "…\" (100,000 characters, 99,800 not shown)")
    // A key too, and it is no longer bare.
    let record: Value = .record(ValueRecord([(String(repeating: "k", count: 300), Value.integer(1))]))
    XCTAssertEqual(record.description, "{ [\"" + String(repeating: "k", count: 200) + "…\" (300 characters, 100 not shown)] = 1 }")
  }

  func testTablesDeeperThanTheLimitAreCounted() {
    var value: Value = ["leaf": 1]
    for _ in 0..<10 { value = ["next": value] }
    let text = value.luaLiteral(.oneLine.elided(elision(depth: 3)))
    XCTAssertEqual(text, "{ next = { next = { next = { … 1 more } } } }")
  }

  func testTheExactFormatsStillShowEverything() {
    let thousand = Value.array((1...1_000).map { .integer(Int64($0)) })
    XCTAssertEqual(thousand.luaLiteral().split(separator: ",").count, 1_000)
    XCTAssertEqual(thousand.luaLiteral(.multiLine).split(separator: "\n").count, 1_002)
    XCTAssertEqual(Value.string(String(repeating: "x", count: 1_000)).luaLiteral().count, 1_002)
  }

  /// Whatever the value and the limits, a printout and a diff keep within their lines.
  func testEveryPrintoutAndDiffStaysWithinItsLines() {
    var random = SplitMix64(seed: 20)
    for round in 0..<400 {
      let limits = elision(
        items: Int(random.next() % 6), characters: Int(random.next() % 8), depth: Int(random.next() % 5),
        lines: 1 + Int(random.next() % 12))
      let old = randomValue(&random, depth: 0)
      var new = randomValue(&random, depth: 0)
      if round % 3 == 0 { new = mutated(old, &random) }
      for width in [nil, 10, 40] as [Int?] {
        let format = LuaLiteralFormat(width: width, elision: limits)
        let printed = old.luaLiteral(format)
        if width != nil {
          XCTAssertLessThanOrEqual(printed.split(separator: "\n").count, limits.lines, "\(limits)\n\(printed)")
        }
        if let diff = old.diff(to: new, format: format) {
          XCTAssertLessThanOrEqual(diff.split(separator: "\n").count, max(limits.lines, 3), "\(limits)\n\(diff)")
        }
      }
    }
  }

  func testAMillionRowChangeDiffsToAScreenfulSayingHowManyChangesAreNotShown() throws {
    guard case .array(let rows) = million else { return XCTFail() }
    let old: Value = ["rows": million, "title": "list"]
    let new: Value = ["rows": .array(rows.map { .integer($0.integerValue! + 1) }), "title": "list"]
    let start = ContinuousClock.now
    let diff = try XCTUnwrap(old.diff(to: new))
    let elapsed = ContinuousClock.now - start
    let lines = diff.split(separator: "\n")
    XCTAssertLessThanOrEqual(lines.count, Elision.standard.lines, diff)
    XCTAssertEqual(lines[2], "−     1,")
    XCTAssertEqual(lines[3], "+     2,")
    XCTAssertTrue(diff.contains("      … 999,983 more changes\n    },"), diff)
    // Comparing the rows is all the work left (before, writing 2,000,000 lines took seconds).
    XCTAssertLessThan(elapsed, .seconds(5))
    // `.multiLine` (what `:state --all` uses) is exact: every change is there.
    XCTAssertEqual(old.diff(to: new, format: .multiLine)?.split(separator: "\n").count, 2_000_005)
  }

  func testAWholeValueInADiffIsCutToo() throws {
    let none: Value = ["rows": "none"]
    let diff = try XCTUnwrap(none.diff(to: ["rows": million]))
    XCTAssertTrue(diff.hasPrefix("  {\n−   rows = \"none\",\n+   rows = {\n+     1,\n"), diff)
    XCTAssertTrue(diff.contains("+     … 999,975 more\n+   },"), diff)
    XCTAssertLessThanOrEqual(diff.split(separator: "\n").count, Elision.standard.lines)
  }

  func testActionsAndPayloadMismatchesInMessagesAreCut() {
    let action = FeatureAction(steps: [.name("rows"), .id(.string(String(repeating: "i", count: 500))), .name("load")], payload: million)
    XCTAssertEqual(
      action.description,
      "rows[id=\"" + String(repeating: "i", count: 200) + "…\" (500 characters, 300 not shown)].load({ "
        + (1...25).map(String.init).joined(separator: ", ") + ", … 999,975 more })")
    XCTAssertEqual(action.name.count, 516)  // the exact path, for code
    let mismatch = PayloadType.integer.mismatch(.string(String(repeating: "x", count: 100_000)))
    XCTAssertEqual(mismatch, "expected integer, got string \"" + String(repeating: "x", count: 200) + "…\" (100,000 characters, 99,800 not shown)")
  }

  // MARK: Lua's printer

  private func luaPrint(_ lua: LuaState, _ value: LuaValue, width: Int?, all: Bool = false) throws -> String {
    let printer = try lua.call(lua.load(LuaValuePrinter.source, name: LuaValuePrinter.chunkName))[0]
    var fields: [String: LuaValue] = ["all": .boolean(all)]
    if let width { fields["width"] = .integer(Int64(width)) }
    return try XCTUnwrap(printer.functionValue?.call(value, .table(lua.table(fields: fields))).first?.stringValue)
  }

  /// The same value printed by Swift (as state) and by Lua (as a Lua table) reads the same.
  func testLuaPrintsValuesAsSwiftDoes() throws {
    let harness = try ViewHarness()
    let expressions = [
      "(function() local t = {} for i = 1, 1000000 do t[i] = i end return t end)()",
      "{ text = string.rep('abcdefghij', 10000), ['odd key'] = 'a\\nb\\0c\\r\\t\"', ok = true }",
      "{ n = 1.5, third = 1/3, big = 1e100, whole = 2.0, low = math.mininteger, huge = math.huge }",
      "(function() local t = { leaf = 1 } for i = 1, 12 do t = { next = t, i = i } end return t end)()",
      "(function() local t = {} for i = 1, 40 do t['k' .. i] = { i, { name = 'row ' .. i } } end return t end)()",
      "{ { 'é' .. string.rep('è', 300) }, {}, { {} } }",
    ]
    for expression in expressions {
      let table = try harness.lua.execute("return \(expression)", name: "=value")[0]
      let value = try harness.views.value(from: table)
      XCTAssertEqual(try luaPrint(harness.lua, table, width: 80), value.luaLiteral(.multiLine.elided()), expression)
      XCTAssertEqual(try luaPrint(harness.lua, table, width: nil), value.description, expression)
    }
  }

  func testLuaPrintsEverythingWhenAskedAndValuesStateCannotHold() throws {
    let harness = try ViewHarness()
    let million = try harness.lua.execute("local t = {} for i = 1, 1000000 do t[i] = i end return t", name: "=value")[0]
    XCTAssertEqual(try luaPrint(harness.lua, million, width: 100, all: true).split(separator: "\n").count, 1_000_002)
    let odd = try harness.lua.execute("local t = { 1, [1.5] = 2, [true] = 3, f = print } t.self = t return t", name: "=value")[0]
    let text = try luaPrint(harness.lua, odd, width: nil)
    XCTAssertTrue(text.hasPrefix("{ 1, [1.5] = 2, f = <function: "), text)
    XCTAssertTrue(text.hasSuffix(">, self = <cycle>, [true] = 3 }"), text)
    // A hash of a million keys shows its first 25 in order without sorting them all.
    let hash = try harness.lua.execute("local t = {} for i = 1, 1000000 do t[string.format('k%07d', i)] = i end return t", name: "=value")[0]
    let lines = try luaPrint(harness.lua, hash, width: 100).split(separator: "\n")
    XCTAssertEqual(lines[1], "  k0000001 = 1,")
    XCTAssertEqual(lines[25], "  k0000025 = 25,")
    XCTAssertEqual(lines[26], "  … 999,975 more")
  }

  // MARK: Random values

  private func randomValue(_ random: inout SplitMix64, depth: Int) -> Value {
    switch random.next() % (depth > 3 ? 4 : 7) {
    case 0: return .integer(Int64(random.next() % 100))
    case 1: return .string(String(repeating: "s", count: Int(random.next() % 12)))
    case 2: return .boolean(random.next() % 2 == 0)
    case 3: return .float(Double(random.next() % 1000) / 8)
    case 4, 5:
      return .array((0..<Int(random.next() % 9)).map { _ in randomValue(&random, depth: depth + 1) })
    default:
      var fields: [(String, Value)] = []
      for key in ["a", "b", "odd key", "c", "d", "e"] where random.next() % 2 == 0 {
        fields.append((key, randomValue(&random, depth: depth + 1)))
      }
      return .record(ValueRecord(fields))
    }
  }

  private func mutated(_ value: Value, _ random: inout SplitMix64) -> Value {
    switch value {
    case .array(let elements):
      return .array(elements.map { random.next() % 3 == 0 ? randomValue(&random, depth: 3) : mutated($0, &random) })
    case .record(let record):
      return .record(ValueRecord(record.fields.compactMap { field in
        random.next() % 5 == 0 ? nil : (field.key, random.next() % 3 == 0 ? randomValue(&random, depth: 3) : mutated(field.value, &random))
      }))
    default:
      return random.next() % 2 == 0 ? value : randomValue(&random, depth: 3)
    }
  }
}
