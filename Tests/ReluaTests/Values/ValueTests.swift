import Relua
import XCTest

final class ValueTests: XCTestCase {
  func testLiteralsKeepIntegersAndFloatsApart() {
    let value: Value = ["count": 1, "ratio": 1.0, "name": "a", "flag": true, "list": [1, 2], "gone": nil]
    XCTAssertEqual(value[key: "count"], .integer(1))
    XCTAssertEqual(value[key: "ratio"], .float(1.0))
    XCTAssertNotEqual(Value.integer(1), Value.float(1.0))
    XCTAssertNotEqual(Value.float(0.0), Value.float(-0.0))
    XCTAssertEqual(Value.float(.nan), Value.float(.nan))
    XCTAssertEqual(value[key: "gone"], .null)
    XCTAssertEqual(value.recordValue?.keys, ["count", "flag", "list", "name", "ratio"])
  }

  func testSubscriptsByKeyIndexIdAndPath() {
    var value: Value = [
      "counter": ["count": 1],
      "results": .identified([["id": "a", "secret": 5], ["id": "b", "secret": 7]]),
    ]
    XCTAssertEqual(value[path: [.key("counter"), .key("count")]], 1)
    XCTAssertEqual(value[path: ["results", 1, "secret"]], 7)
    XCTAssertEqual(value[key: "results"][id: "b"][key: "secret"], 7)
    value[path: ["counter", "count"]] = 2
    value[path: [.key("results"), .id("a"), .key("secret")]] = 9
    value[key: "counter"][key: "count"] = .null
    XCTAssertEqual(value[path: ["results", 0, "secret"]], 9)
    XCTAssertEqual(value[key: "counter"], [:])
  }

  func testIdentifiedCollectionKeepsIdsUnique() throws {
    var collection = try IdentifiedValues([["id": 1], ["id": 2]])
    XCTAssertThrowsError(try collection.append(["id": 1]))
    XCTAssertThrowsError(try collection.append(["name": "no id"]))
    try collection.append(["id": 3])
    XCTAssertEqual(collection.index(id: 3), 2)
    collection.remove(at: 0)
    XCTAssertEqual(collection.index(id: 3), 1)
    collection[0] = ["id": 9]
    XCTAssertEqual(collection.index(id: 9), 0)
    XCTAssertNil(collection.index(id: 2))
    XCTAssertThrowsError(try IdentifiedValues([["id": "x"], ["id": "x"]]))
  }

  /// Mutating through the enum payload does not copy the container: the array's storage stays
  /// where it was (a copy-on-write copy would allocate new storage).
  func testPathWritesMutateInPlace() {
    var value: Value = ["items": roomyArray(100_000) { .integer(Int64($0)) }]
    let before = storage(value, ["items"])
    XCTAssertGreaterThanOrEqual(before?.capacity ?? 0, 200_000)
    for position in stride(from: 0, to: 100_000, by: 1_000) {
      value[path: [.key("items"), .index(position)]] = -1
    }
    value[key: "extra"] = 1
    XCTAssertEqual(storage(value, ["items"]), before)
    XCTAssertEqual(value[path: ["items", 1_000]], -1)
  }
}

/// Where the storage of the array at `path` is, and its capacity (the copy made here to look is
/// released on return). Proof of "not copied": the arrays under test are made with twice the
/// capacity they need, and a copy-on-write copy allocates only what the elements need, so a
/// copy shows as a smaller capacity even if the allocator happens to reuse an address.
struct Storage: Equatable {
  let address: UnsafeRawPointer?
  let capacity: Int
}

func storage(_ value: Value, _ path: ValuePath) -> Storage? {
  switch value[path: path] {
  case .array(let elements):
    return Storage(address: elements.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }, capacity: elements.capacity)
  case .identified(let collection):
    return Storage(
      address: collection.elements.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) },
      capacity: collection.elements.capacity)
  default: return nil
  }
}

/// An array of `count` elements with room for twice as many (see `storage`).
func roomyArray(_ count: Int, _ element: (Int) -> Value) -> Value {
  var elements: [Value] = []
  elements.reserveCapacity(count * 2)
  for index in 0..<count { elements.append(element(index)) }
  return .array(elements)
}

extension ValueTests {
  /// Record keys are found by an 8-byte integer prefix first: keys that share it, differ only in
  /// length or in NUL bytes, are longer than 8 bytes or not ASCII must still order and match by
  /// their exact UTF-8 bytes. (Keys of every length from 0 to 9: the prefix is read in pieces.)
  func testRecordKeysOrderAndMatchByTheirBytes() {
    let keys = [
      "a", "ab", "ab\u{0}", "ab\u{0}\u{0}", "abcdefgh", "abcdefghi", "abcdefgh\u{0}", "abcdefgi", "abcdefg",
      "z", "é", "éé", "abd", "abcde", "abcdf", "abcdef", "abcdeg", "abcdef\u{0}", "b\u{0}c",
      "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "", "\u{0}",
    ]
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<20 {
      var record = ValueRecord(keys.shuffled(using: &generator).enumerated().map { ($1, Value.integer(Int64($0))) })
      XCTAssertEqual(record.keys, keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
      for key in keys { XCTAssertNotEqual(record[key], .null, "key \(key.debugDescription)") }
      for absent in ["abcdefgh\u{0}\u{0}", "abc", "b", "ééé", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"] {
        XCTAssertEqual(record[absent], .null, "absent key \(absent.debugDescription)")
      }
      record["abcdefgh"] = .null
      XCTAssertEqual(record.keys.count, keys.count - 1)
      XCTAssertEqual(record["abcdefgh"], .null)
      XCTAssertNotEqual(record["abcdefghi"], .null)
    }
  }

  /// A Lua test store compares states as Lua sees them: list kinds and empty tables' kinds are
  /// invisible to scripts.
  func testSameInLuaIgnoresKindsNoScriptCanSee() throws {
    let rows: [Value] = [["id": 1, "name": "a"]]
    XCTAssertTrue(Value.array(rows).sameInLua(as: .identified(try IdentifiedValues(rows))))
    XCTAssertTrue(Value.record(ValueRecord()).sameInLua(as: .array([])))
    XCTAssertTrue((["rows": .record(ValueRecord())] as Value).sameInLua(as: ["rows": .identified(IdentifiedValues())]))
    XCTAssertFalse(Value.array([1]).sameInLua(as: .array([2])))
    XCTAssertFalse(Value.record(ValueRecord([("a", 1)])).sameInLua(as: .array([1])))
    XCTAssertFalse(Value.integer(1).sameInLua(as: .float(1)))
  }
}

