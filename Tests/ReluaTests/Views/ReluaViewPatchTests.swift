import Foundation
import XCTest

@testable import Relua

/// `ReluaViewPatch`: a tree's change as patches (the format a page applies), by hand-written
/// cases and by random pairs of trees (`old.applying(changes(old, new)) == new`, JSON round trips).
final class ReluaViewPatchTests: XCTestCase {
  private func button(_ label: String, _ path: String, _ payload: Value = .null) -> ReluaViewNode {
    .button(label: label, action: ReluaViewAction(path: path, payload: payload))
  }

  private func row(_ id: Int, _ text: String? = nil) -> ReluaViewRow {
    ReluaViewRow(id: .integer(Int64(id)), content: .hstack([.text(text ?? "Row \(id)"), button("Delete", "rows[id=\(id)].delete")]))
  }

  private func list(_ ids: [Int]) -> ReluaViewNode {
    .vstack([.text("Rows"), .list(ids.map { row($0) })])
  }

  /// The patches from `old` to `new`, checked to apply and to read back from their JSON.
  @discardableResult
  private func checkedChanges(_ old: ReluaViewNode, _ new: ReluaViewNode, file: StaticString = #filePath, line: UInt = #line) throws -> [ReluaViewPatch] {
    let patches = ReluaViewPatch.changes(from: old, to: new)
    XCTAssertEqual(try old.applying(patches), new, file: file, line: line)
    let json = try ReluaViewPatch.json(patches)
    XCTAssertEqual(try JSONDecoder().decode([ReluaViewPatch].self, from: Data(json.utf8)), patches, json, file: file, line: line)
    return patches
  }

  func testNoChangeIsNoPatch() throws {
    let tree = list(Array(1...5))
    XCTAssertEqual(try checkedChanges(tree, tree), [])
    XCTAssertEqual(try ReluaViewPatch.json([]), "[]")
    XCTAssertEqual(try tree.applying([]), tree)
  }

  func testAChangedTextReplacesThatTextOnly() throws {
    let old = ReluaViewNode.vstack([.text("Count: 0"), .hstack([button("+", "increment"), .text("x")])])
    let new = ReluaViewNode.vstack([.text("Count: 1"), .hstack([button("+", "increment"), .text("x")])])
    XCTAssertEqual(try checkedChanges(old, new), [.replace(at: [0], node: .text("Count: 1"))])
    XCTAssertEqual(try ReluaViewPatch.json(ReluaViewPatch.changes(from: old, to: new)),
                   #"[{"at":[0],"node":{"kind":"text","text":"Count: 1"},"op":"replace"}]"#)
  }

  func testAButtonsChangedPayloadReplacesTheButton() throws {
    let old = ReluaViewNode.hstack([.text("Guess"), button("Next", "guess", 3)])
    let new = ReluaViewNode.hstack([.text("Guess"), button("Next", "guess", 4)])
    XCTAssertEqual(try checkedChanges(old, new), [.replace(at: [1], node: button("Next", "guess", 4))])
  }

  func testAChangedKindReplacesTheNode() throws {
    XCTAssertEqual(try checkedChanges(.text("a"), .vstack([.text("a")])), [.replace(at: [], node: .vstack([.text("a")]))])
    let old = ReluaViewNode.vstack([.text("a"), .list([row(1)])])
    let new = ReluaViewNode.vstack([.text("a"), .section(title: "S", children: [])])
    XCTAssertEqual(try checkedChanges(old, new), [.replace(at: [1], node: .section(title: "S", children: []))])
    // A stack with another number of children is replaced whole.
    XCTAssertEqual(try checkedChanges(.vstack([.text("a")]), .vstack([.text("a"), .text("b")])).count, 1)
  }

  func testARowAddedToAThousandRowListSendsOnlyThatRow() throws {
    let old = list(Array(1...1000))
    let new = list(Array(1...500) + [5000] + Array(501...1000))
    let patches = try checkedChanges(old, new)
    XCTAssertEqual(patches, [.rows(at: [1], ids: (Array(1...500) + [5000] + Array(501...1000)).map { .integer(Int64($0)) }, rows: [row(5000)])])
  }

  func testARowRemovedOrMovedSendsTheIdsAlone() throws {
    let old = list(Array(1...1000))
    let removed = try checkedChanges(old, list(Array(1...1000).filter { $0 != 10 }))
    XCTAssertEqual(removed.count, 1)
    guard case .rows(let at, let ids?, let rows) = removed[0] else { return XCTFail("\(removed)") }
    XCTAssertEqual(at, [1])
    XCTAssertEqual(ids.count, 999)
    XCTAssertEqual(rows, [])
    let moved = try checkedChanges(old, list([1000] + Array(1...999)))
    guard case .rows(_, let order?, let sent) = moved[0] else { return XCTFail("\(moved)") }
    XCTAssertEqual(order.first, .integer(1000))
    XCTAssertEqual(sent, [])
  }

  func testARowChangedInsideIsPatchedWhereItIs() throws {
    var rows = (1...1000).map { row($0) }
    let old = ReluaViewNode.vstack([.text("Rows"), .list(rows)])
    rows[41] = row(42, "Row 42 (done)")
    let new = ReluaViewNode.vstack([.text("Rows"), .list(rows)])
    XCTAssertEqual(try checkedChanges(old, new), [.replace(at: [1, 41, 0], node: .text("Row 42 (done)"))])
    // Moved and changed: the order, then the change at its new position.
    var moved = rows
    moved.swapAt(0, 41)
    moved[0] = row(42, "Row 42 (moved)")
    let patches = try checkedChanges(old, .vstack([.text("Rows"), .list(moved)]))
    XCTAssertEqual(patches.count, 2)
    XCTAssertEqual(patches.last, .replace(at: [1, 0, 0], node: .text("Row 42 (moved)")))
  }

  func testARowWhoseKindChangedTravelsWholeInTheRowsPatch() throws {
    let old = ReluaViewNode.list([row(1), row(2)])
    let new = ReluaViewNode.list([row(1), ReluaViewRow(id: .integer(2), content: .text("gone"))])
    XCTAssertEqual(try checkedChanges(old, new), [.rows(at: [], ids: nil, rows: [ReluaViewRow(id: .integer(2), content: .text("gone"))])])
  }

  func testAListWithARepeatedIdIsReplacedWhole() throws {
    let old = ReluaViewNode.list([row(1), row(1)])
    let new = ReluaViewNode.list([row(1), row(2)])
    XCTAssertEqual(try checkedChanges(old, new), [.replace(at: [], node: new)])
  }

  func testTheRowsPatchsJSONHasIdsAsJSONText() throws {
    let patch = ReluaViewPatch.rows(at: [2], ids: [.integer(3), .string("abc")], rows: [ReluaViewRow(id: .string("abc"), content: .text("A"))])
    XCTAssertEqual(try ReluaViewPatch.json([patch]),
                   #"[{"at":[2],"ids":["3","\"abc\""],"op":"rows","rows":[{"content":{"kind":"text","text":"A"},"id":"\"abc\""}]}]"#)
    let unordered = ReluaViewPatch.rows(at: [], ids: nil, rows: [])
    XCTAssertEqual(try ReluaViewPatch.json([unordered]), #"[{"at":[],"op":"rows","rows":[]}]"#)
    XCTAssertThrowsError(try JSONDecoder().decode([ReluaViewPatch].self, from: Data(#"[{"op":"move","at":[]}]"#.utf8)))
  }

  func testAPatchThatDoesNotFitThrows() throws {
    let tree = list([1, 2])
    let bad: [[ReluaViewPatch]] = [
      [.replace(at: [5], node: .text("x"))],
      [.replace(at: [0, 0], node: .text("x"))],
      [.replace(at: [-1], node: .text("x"))],
      [.rows(at: [0], ids: nil, rows: [])],
      [.rows(at: [1], ids: [.integer(1), .integer(3)], rows: [])],
      [.rows(at: [1], ids: [.integer(1), .integer(1)], rows: [])],
      [.rows(at: [1], ids: nil, rows: [row(9)])],
      [.rows(at: [1], ids: nil, rows: [row(1), row(1)])],
      [.rows(at: [1], ids: [.integer(2)], rows: []), .replace(at: [1, 1], node: .text("x"))],
    ]
    for patches in bad {
      XCTAssertThrowsError(try tree.applying(patches), "\(patches)") { error in
        XCTAssertTrue(error is ReluaViewPatchError, "\(error)")
      }
    }
  }

  /// Random pairs of trees, the new one mostly an edit of the old (so lists keep, move, add and
  /// drop rows), some drawn afresh.
  func testRandomPairsOfTreesPatchIntoEachOther() throws {
    var random = SeededRandom(seed: 35)
    var patchCount = 0, rowsPatches = 0, reordered = 0, insideRows = 0
    for round in 0..<2_000 {
      let old = random.tree(depth: 4)
      var new = old
      if round % 5 == 0 {
        new = random.tree(depth: 4)
      } else {
        for _ in 0..<random.int(1...3) { new = random.edit(new) }
      }
      let patches = ReluaViewPatch.changes(from: old, to: new)
      patchCount += patches.count
      for patch in patches {
        guard case .rows(_, let ids, _) = patch else { continue }
        rowsPatches += 1
        if ids != nil { reordered += 1 }
      }
      // A change inside a row kept: a replace whose path goes through a list.
      insideRows += patches.filter { patch in
        guard case .replace(let at, _) = patch else { return false }
        var node = new
        for index in at.dropLast() {
          if case .list = node { return true }
          node = node.children[index]
        }
        return false
      }.count
      XCTAssertEqual(try old.applying(patches), new, "round \(round): \(patches)")
      if old == new { XCTAssertEqual(patches, []) }
      let json = try ReluaViewPatch.json(patches)
      XCTAssertEqual(try JSONDecoder().decode([ReluaViewPatch].self, from: Data(json.utf8)), patches, "round \(round): \(json)")
    }
    // The generator reaches every kind of change.
    XCTAssertGreaterThan(patchCount, 2_000)
    XCTAssertGreaterThan(rowsPatches, 50)
    XCTAssertGreaterThan(reordered, 50)
    XCTAssertGreaterThan(insideRows, 10)
  }
}

/// SplitMix64: the same trees on every run.
private struct SeededRandom {
  var state: UInt64
  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  mutating func int(_ range: ClosedRange<Int>) -> Int {
    range.lowerBound + Int(next() % UInt64(range.count))
  }

  mutating func text() -> String { ["a", "b", "Count: 1", "é ✓", "", "x\ny"][int(0...5)] }

  mutating func value() -> Value {
    switch int(0...4) {
    case 0: return .null
    case 1: return .integer(Int64(int(-3...3)))
    case 2: return .string(text())
    case 3: return .boolean(int(0...1) == 1)
    default: return .float(Double(int(0...8)) / 4)
    }
  }

  mutating func id() -> Value { int(0...1) == 0 ? .integer(Int64(int(0...20))) : .string(["a", "b", "c", "d", "e"][int(0...4)]) }

  mutating func rows(depth: Int) -> [ReluaViewRow] {
    var seen = Set<Value>()
    var rows: [ReluaViewRow] = []
    for _ in 0..<int(0...6) {
      let id = id()
      // A repeated id now and then: the diff must replace such a list whole.
      guard seen.insert(id).inserted || int(0...20) == 0 else { continue }
      // Mostly a row as apps draw one: a text beside a control.
      let content = int(0...2) == 0 ? tree(depth: depth - 1) : .hstack([.text(text()), tree(depth: depth - 2)])
      rows.append(ReluaViewRow(id: id, content: content))
    }
    return rows
  }

  mutating func tree(depth: Int) -> ReluaViewNode {
    let kind = depth <= 0 ? int(0...5) : int(0...10)
    switch kind {
    case 0: return .text(text())
    case 1: return .button(label: text(), action: ReluaViewAction(path: "a.b", payload: value()))
    case 2: return .textField(label: text(), binding: ReluaViewBinding(action: "binding.t", value: value()))
    case 3: return .stepper(label: text(), binding: ReluaViewBinding(action: "binding.n", value: value()))
    case 4: return .picker(label: text(), binding: ReluaViewBinding(action: "binding.p", value: value()), options: [text(), text()])
    case 5: return .image(url: "https://x/" + text(), alt: text())
    case 6, 7: return .vstack((0..<int(0...4)).map { _ in tree(depth: depth - 1) })
    case 8: return .hstack((0..<int(0...3)).map { _ in tree(depth: depth - 1) })
    case 9: return .section(title: text(), children: (0..<int(0...3)).map { _ in tree(depth: depth - 1) })
    default: return .list(rows(depth: depth))
    }
  }

  /// `node` with one random change somewhere inside.
  mutating func edit(_ node: ReluaViewNode) -> ReluaViewNode {
    func editChild(_ nodes: [ReluaViewNode]) -> [ReluaViewNode] {
      var nodes = nodes
      if nodes.isEmpty || int(0...5) == 0 {
        nodes.insert(tree(depth: 2), at: int(0...nodes.count))
      } else if int(0...6) == 0 {
        nodes.remove(at: int(0...nodes.count - 1))
      } else {
        let index = int(0...nodes.count - 1)
        nodes[index] = edit(nodes[index])
      }
      return nodes
    }
    if int(0...7) == 0 { return tree(depth: 2) }
    switch node {
    case .vstack(let nodes): return .vstack(editChild(nodes))
    case .hstack(let nodes): return .hstack(editChild(nodes))
    case .section(let title, let nodes): return int(0...6) == 0 ? .section(title: text(), children: nodes) : .section(title: title, children: editChild(nodes))
    case .list(var rows):
      switch int(0...4) {
      case 0: rows.insert(ReluaViewRow(id: id(), content: tree(depth: 2)), at: int(0...rows.count))
      case 1: if !rows.isEmpty { rows.remove(at: int(0...rows.count - 1)) }
      case 2: rows.shuffle(using: &self)
      default:
        if !rows.isEmpty {
          let index = int(0...rows.count - 1)
          rows[index].content = edit(rows[index].content)
        }
      }
      return .list(rows)
    case .text: return .text(text())
    default: return tree(depth: 0)
    }
  }
}

extension SeededRandom: RandomNumberGenerator {}
