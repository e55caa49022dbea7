import Composable
import Foundation
import Lua
import XCTest

@testable import Relua
@testable import ReluaTesting
import ReluaGitHub

/// A property-based driver: random sequences of each example feature's declared actions — and of
/// paths that are not declared — with random payloads, well-typed and not, sent to a store of the
/// feature. After every send: the host is alive, a failed send is an error relua describes and
/// left the state exactly as it was, and the state is still a value relua can print, diff, write
/// as JSON and read back.
///
/// `Scripts/test` runs a short sequence per feature. A long run:
/// `RELUA_PROPERTY_STEPS=20000 RELUA_PROPERTY_SEED=7 swift test --filter PropertyDriverTests`.
@MainActor
final class PropertyDriverTests: XCTestCase {
  private var steps: Int { ProcessInfo.processInfo.environment["RELUA_PROPERTY_STEPS"].flatMap(Int.init) ?? 250 }
  private var seed: UInt64 { ProcessInfo.processInfo.environment["RELUA_PROPERTY_SEED"].flatMap(UInt64.init) ?? 1 }

  func testRandomActionsNeverHurtTheHost() async throws {
    let files = ShippedFeatures.files()
    XCTAssertGreaterThan(files.count, 10, "the example features")
    var sent = 0, failed = 0
    for (index, file) in files.enumerated() {
      var random = SplitMix64(seed: seed &+ UInt64(index))
      let counts = try await drive(file, steps: steps, random: &random)
      sent += counts.sent
      failed += counts.failed
    }
    print("property driver: \(files.count) features, \(sent) sends (\(failed) failed cleanly), seed \(seed)")
  }

  private func drive(_ file: String, steps: Int, random: inout SplitMix64) async throws -> (sent: Int, failed: Int) {
    let lua = try LuaState(options: LuaOptions(
      memoryLimit: 64 << 20, instructionLimit: 2_000_000, scriptRoots: LuaTestDiscovery.scriptRoots(for: file)))
    defer { lua.close() }
    let host = try ReluaHost.install(in: lua)
    guard let featureValue = try lua.call(lua.load(file: file)).first else { throw ReluaError.usage("\(file) returned nothing") }
    let feature = try host.feature(featureValue, what: "property driver")
    var dependencies = DependencyValues(context: .test)
    // A test's shares, files in memory: a feature's fileStorage (the records app's records.json)
    // neither reads nor writes the files beside the scripts.
    dependencies[SharedRegistryKey.self] = host.testShares()
    dependencies.uuid = .incrementing
    dependencies.random = .seeded(random.next())
    dependencies.clock = ImmediateClock<Duration>()
    dependencies.date = .constant(Date(timeIntervalSince1970: 1_700_000_000))
    // deps.github, the plug-in, answering offline (given to this test store from Swift).
    let offline = RepositorySearchClient { query in
      query.q.count % 2 == 0
        ? .success(.record(ValueRecord([("total_count", .integer(0)), ("incomplete_results", .boolean(false)), ("items", .array([]))])))
        : .failure(.init(kind: "transport", message: "offline"))
    }
    try host.register(GitHubDependency.make(.notConfigured))
    dependencies.setReluaDependency("github", to: GitHubDependency.shape(offline))
    let store = try LuaStoreObject(host: host, feature: feature, dependencies: dependencies)
    var sent = 0, failed = 0
    for step in 0..<steps {
      let (action, payload) = randomAction(feature: feature, state: store.store.state, random: &random)
      let before = store.store.state
      sent += 1
      do {
        try store.send(action, payload: payload)
      } catch {
        failed += 1
        let context = "\(file), step \(step): \(action)(\(payload.luaLiteral()))"
        XCTAssertTrue(error is ReluaError || error is LuaError || error is ValueError, "\(context): a foreign error \(type(of: error)): \(error)")
        XCTAssertFalse("\(error)".isEmpty, "\(context): an error without a message")
        XCTAssertEqual(store.store.state, before, "\(context): a failed send changed the state")
      }
      try checkValid(store.store.state, before: before, file: file, step: step)
      // Now and then let effects run (an immediate clock: they finish at once).
      if random.next() % 8 == 0 { _ = await store.store.waitForEffects(timeout: .milliseconds(200)) }
    }
    _ = await store.store.waitForEffects(timeout: .seconds(1))
    store.store.cancelAllEffects()
    return (sent, failed)
  }

  /// The state is still a value: printable, diffable, and JSON that reads back the same (when it
  /// has a JSON form: a float NaN or infinity has none, which is an error, not a crash).
  private func checkValid(_ state: Value, before: Value, file: String, step: Int) throws {
    XCTAssertFalse(state.luaLiteral().isEmpty)
    _ = ValueDiff.lines(from: before, to: state)
    guard case .record = state else { return XCTFail("\(file), step \(step): the root state is no longer a record") }
    if let json = try? state.json() {
      let back = try Value(json: json, hint: state)
      XCTAssertEqual(try back.json(), json, "\(file), step \(step): the state's JSON does not read back")
    }
  }

  // MARK: Random actions

  /// An action path and payload: mostly one the feature declares (at a place the state has, or
  /// an absent child), sometimes a near miss or random text.
  private func randomAction(feature: FeatureDefinition, state: Value, random: inout SplitMix64) -> (String, Value) {
    var candidates: [(String, PayloadType)] = []
    collect(feature, state: state, prefix: "", depth: 0, into: &candidates, random: &random)
    switch random.next() % 20 {
    case 0: return (randomText(&random), randomValue(&random, depth: 0))
    case 1:
      if let (name, _) = candidates.randomElement(using: &random) { return (name + (random.next() % 2 == 0 ? "x" : ".nope"), .null) }
    default: break
    }
    guard let (name, type) = candidates.randomElement(using: &random) else { return ("nothing", .null) }
    let payload = random.next() % 4 == 0 ? randomValue(&random, depth: 0) : typedValue(type, &random)
    return (name, payload)
  }

  private func collect(
    _ feature: FeatureDefinition, state: Value, prefix: String, depth: Int, into candidates: inout [(String, PayloadType)],
    random: inout SplitMix64
  ) {
    guard depth < 6 else { return }
    for (name, type) in feature.actions { candidates.append((prefix + name, type)) }
    for field in feature.bindable { candidates.append((prefix + "binding." + field, .any)) }
    for child in feature.children {
      let key = child.key
      let value = state[key: key]
      switch child.kind {
      case .scope(let nested), .lens(let nested, _, _), .optional(let nested):
        collect(nested, state: value, prefix: prefix + key + ".", depth: depth + 1, into: &candidates, random: &random)
      case .forEach(let element):
        var ids = value.asIdentified.ids.shuffled(using: &random).prefix(2).map { $0.luaLiteral() }
        ids.append(String(random.next() % 5))
        for id in ids {
          let row = value.asIdentified[id: Value(literalID: id)] ?? .null
          collect(element, state: row, prefix: "\(prefix)\(key)[\(id)].", depth: depth + 1, into: &candidates, random: &random)
        }
      case .presented(let destination):
        candidates.append((prefix + key + ".dismiss", .none))
        destinationActions(destination, state: value, prefix: prefix + key + ".", depth: depth, into: &candidates, random: &random)
      case .presents(let kinds):
        candidates.append((prefix + key + ".dismiss", .none))
        for (kind, destination) in kinds {
          destinationActions(destination, state: value[key: kind], prefix: "\(prefix)\(key).\(kind).", depth: depth, into: &candidates, random: &random)
        }
      case .stack(let kinds):
        let ids = value.asIdentified.ids.map { $0.luaLiteral() } + [String(random.next() % 5)]
        candidates.append((prefix + key + ".popFrom", .integer))
        for id in ids.shuffled(using: &random).prefix(2) {
          let element = value.asIdentified[id: Value(literalID: id)] ?? .null
          for (kind, destination) in kinds {
            destinationActions(destination, state: element[key: kind], prefix: "\(prefix)\(key)[\(id)].\(kind).", depth: depth, into: &candidates, random: &random)
          }
        }
      }
    }
  }

  private func destinationActions(
    _ destination: FeatureChild.Destination, state: Value, prefix: String, depth: Int,
    into candidates: inout [(String, PayloadType)], random: inout SplitMix64
  ) {
    switch destination {
    case .feature(let nested): collect(nested, state: state, prefix: prefix, depth: depth + 1, into: &candidates, random: &random)
    case .alert(let actions, _): for (name, type) in actions { candidates.append((prefix + name, type)) }
    }
  }

  private func typedValue(_ type: PayloadType, _ random: inout SplitMix64) -> Value {
    switch type {
    case .none: return .null
    case .integer: return .integer(interestingInteger(&random))
    case .float: return .float(interestingFloat(&random))
    case .number: return random.next() % 2 == 0 ? .integer(interestingInteger(&random)) : .float(interestingFloat(&random))
    case .string: return .string(randomText(&random))
    case .boolean: return .boolean(random.next() % 2 == 0)
    case .table, .any: return randomValue(&random, depth: 0)
    case .array(let element): return .array((0..<Int(random.next() % 4)).map { _ in typedValue(element, &random) })
    case .optional(let wrapped): return random.next() % 3 == 0 ? .null : typedValue(wrapped, &random)
    }
  }

  private func interestingInteger(_ random: inout SplitMix64) -> Int64 {
    let choices: [Int64] = [0, 1, -1, 2, 42, -100, 100, 101, Int64.max, Int64.min, 1 << 53, -(1 << 31)]
    return random.next() % 2 == 0 ? choices.randomElement(using: &random)! : Int64(truncatingIfNeeded: random.next()) % 1000
  }

  private func interestingFloat(_ random: inout SplitMix64) -> Double {
    [0.0, -0.0, 0.5, 1e300, -1e300, .infinity, -.infinity, .nan, .ulpOfOne, 3.25].randomElement(using: &random)!
  }

  private func randomText(_ random: inout SplitMix64) -> String {
    let pieces = ["a", ".", "[", "]", "1", "\"", "x", "dismiss", "popFrom", "binding", "destination", "path", "rows", "é", "\u{0}", " ", "[0]", "-"]
    return (0..<Int(random.next() % 8)).map { _ in pieces.randomElement(using: &random)! }.joined()
  }

  private func randomValue(_ random: inout SplitMix64, depth: Int) -> Value {
    switch random.next() % (depth > 3 ? 6 : 9) {
    case 0: return .null
    case 1: return .boolean(random.next() % 2 == 0)
    case 2: return .integer(interestingInteger(&random))
    case 3: return .float(interestingFloat(&random))
    case 4: return .string(randomText(&random))
    case 5: return .string(String(repeating: "z", count: Int(random.next() % 3000)))
    case 6: return .array((0..<Int(random.next() % 4)).map { _ in randomValue(&random, depth: depth + 1) }.filter { !$0.isNull })
    case 7:
      let fields = (0..<Int(random.next() % 4)).map { _ in (["id", "count", "query", "x", "alert", "title"].randomElement(using: &random)!, randomValue(&random, depth: depth + 1)) }
      var record = ValueRecord()
      for (key, value) in fields where !value.isNull { record[key] = value }
      return .record(record)
    default:
      let rows = (0..<Int(random.next() % 3)).map { index in Value.record(ValueRecord([("id", .integer(Int64(index))), ("count", .integer(0))])) }
      return .array(rows)
    }
  }
}

/// A small seeded generator (SplitMix64, `relua test --shuffle`'s), so a failing sequence can be
/// replayed from its seed.
typealias SplitMix64 = LuaTestRunner.SeededGenerator

extension Value {
  /// The id a Lua literal names (`42`, `"a"`), for looking a row up by the text of its path.
  init(literalID text: String) {
    if let integer = Int64(text) {
      self = .integer(integer)
    } else if text.hasPrefix("\""), text.hasSuffix("\""), text.count >= 2 {
      self = .string(String(text.dropFirst().dropLast()))
    } else {
      self = .string(text)
    }
  }
}
