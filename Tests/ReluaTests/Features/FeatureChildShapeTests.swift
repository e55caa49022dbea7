import XCTest

@testable import Relua

/// `FeatureChildShape`, the one description of the composition kinds the tree's walks share (#32):
/// for each kind, where its state sits, how actions reach what is below it, its own actions, and
/// the child states a parent's state holds.
@MainActor
final class FeatureChildShapeTests: XCTestCase {
  private static let source = """
    local Row = relua.feature "Row" { state = { id = 0 }, actions = { toggle = {} } }
    return relua.feature "Parent" {
      state = { total = 0 },
      actions = {},
      compose = {
        relua.scope("counter", Row),
        relua.scope("derived", Row, {
          get = function(s) return { id = s.total } end,
          set = function(s, row) s.total = row.id end,
        }),
        relua.optional("child", Row),
        relua.forEach("rows", Row),
        relua.presents("sheet", Row),
        relua.presents("destination", { detail = Row, alert = relua.alert { ok = {} } }),
        relua.stack("path", { detail = Row }),
      },
    }
    """

  private func parent() throws -> (ReluaRuntime, FeatureDefinition) {
    let relua = try ReluaRuntime()
    return (relua, try relua.loadFeature(source: Self.source, name: "Parent.lua"))
  }

  func testEachKindHasOneShape() async throws {
    let (relua, parent) = try parent()
    defer { withExtendedLifetime(relua) {} }
    func shape(_ key: String) -> String {
      let child = parent.child(key)!
      let places = child.places.map { ($0.kind ?? "-") + ":" + Self.name($0.destination) }.joined(separator: ",")
      let controls = child.controlActions.map(\.name).joined(separator: ",")
      return "\(child.storage) \(child.selectsKind) [\(places)] [\(controls)] \(child.actionPrefix(id: "ID", kind: "K"))"
    }
    XCTAssertEqual(shape("counter"), "field false [-:Row] [] counter[id=ID].K.")
    XCTAssertEqual(shape("derived"), "derived false [-:Row] [] derived[id=ID].K.")
    XCTAssertEqual(shape("child"), "optionalField false [-:Row] [] child[id=ID].K.")
    XCTAssertEqual(shape("rows"), "elements false [-:Row] [] rows[id=ID].K.")
    XCTAssertEqual(shape("sheet"), "optionalField false [-:Row] [dismiss] sheet[id=ID].K.")
    XCTAssertEqual(shape("destination"), "optionalField true [alert:alert,detail:Row] [dismiss] destination[id=ID].K.")
    XCTAssertEqual(shape("path"), "elements true [detail:Row] [popFrom,push] path[id=ID].K.")
    XCTAssertEqual(parent.child("derived")?.lensFunctions != nil, true)
    XCTAssertEqual(parent.children.filter(\.actionsFollowKey).map(\.key), ["counter", "derived", "child"])
    XCTAssertEqual(parent.children.flatMap(\.features).count, 7)
  }

  func testInstancesAreTheChildStatesAParentHolds() async throws {
    let (relua, parent) = try parent()
    defer { withExtendedLifetime(relua) {} }
    let state: Value = [
      "counter": ["id": 1],
      "rows": [["id": 2], ["id": 3]],
      "destination": ["detail": ["id": 4]],
      "path": [["id": 5, "detail": ["id": 6]], ["id": 7, "nowhere": [:]]],
    ]
    func instances(_ key: String, limit: Int = .max) -> [String] {
      parent.child(key)!.instances(in: state, limit: limit).map {
        "\($0.id?.luaLiteral() ?? "-") \($0.kind ?? "-") \($0.state[key: "id"].luaLiteral())"
      }
    }
    XCTAssertEqual(instances("counter"), ["- - 1"])
    XCTAssertEqual(instances("child"), [], "an absent optional has none")
    XCTAssertEqual(instances("sheet"), [])
    XCTAssertEqual(instances("rows"), ["2 - 2", "3 - 3"])
    XCTAssertEqual(instances("rows", limit: 1), ["2 - 2"])
    XCTAssertEqual(instances("destination"), ["- detail 4"])
    XCTAssertEqual(instances("path"), ["5 detail 6"], "an element of no declared kind is left out")
  }

  private static func name(_ destination: FeatureChild.Destination) -> String {
    switch destination {
    case .feature(let feature): return feature.name
    case .alert: return "alert"
    }
  }
}
