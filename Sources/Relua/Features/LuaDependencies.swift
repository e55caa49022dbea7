import Clocks
import Composable
import Foundation
import Lua

/// The `deps` table Lua code receives. Each function reads the dependency values of the store
/// running right now (the reducer's, or the effect's), so one table serves every store.
///
/// - `deps.uuid()` → `"00000000-0000-0000-0000-000000000001"` style text
/// - `deps.random(low, high)` → an integer in `low…high`
/// - `deps.date()` → seconds since 1970 (a float)
/// - `deps.clock.sleep(seconds)` (async: inside `Effect.run`)
/// - `deps.dismiss()` (inside an effect of a presented feature)
/// - `deps.websocket.connect(id, url)`, `deps.websocket.send(id, text)` (async; see `LuaWebSocket`)
@MainActor
enum LuaDependencies {
  static func makeTable(host: ReluaHost) throws -> LuaTable {
    let lua = host.lua
    let deps = try lua.table()
    try deps.rawSet("uuid", .function(lua.function { _ in [.text(DependencyValues.current.uuid().uuidString)] }))
    try deps.rawSet("random", .function(lua.function { stack in
      let low = try stack.int(at: 1)
      let high = try stack.int(at: 2)
      guard low <= high else { throw LuaError.argument(position: 2, message: "deps.random(low, high): high must be >= low") }
      return [.integer(Int64(DependencyValues.current.random(in: low...high)))]
    }))
    try deps.rawSet("date", .function(lua.function { _ in [.number(DependencyValues.current.date.now.timeIntervalSince1970)] }))
    let clock = try lua.table()
    try clock.rawSet("sleep", .function(host.driver.awaitable(name: "deps.clock.sleep", in: lua) { arguments in
      guard let duration = arguments.first?.doubleValue.flatMap(Duration.luaSeconds) else {
        throw LuaError.argument(position: 1, message: "deps.clock.sleep(seconds): expected \(Duration.luaSecondsRule)")
      }
      try await DependencyValues.current.clock.sleep(for: duration, isolation: #isolation)
      return []
    }))
    // deps.clock.timer(seconds): `for tick in deps.clock.timer(1) do … end` (1, 2, 3… after each
    // interval on the store's clock; TCA's clock.timer).
    try clock.rawSet("timer", .function(lua.function { stack in
      guard let interval = stack.values.first?.doubleValue.flatMap(Duration.luaSeconds), interval > .zero else {
        throw LuaError.argument(position: 1, message: "deps.clock.timer(seconds): expected seconds more than 0 and at most 9e9")
      }
      var tick: Int64 = 0
      return try LuaStream.iterate("deps.clock.timer", host: host) {
        try await DependencyValues.current.clock.sleep(for: interval, isolation: #isolation)
        tick += 1
        return [.integer(tick)]
      }
    }))
    try deps.rawSet("clock", .table(clock))
    // deps.notifications(name): `for value in deps.notifications("saved") do … end`, each value
    // posted to the store under that name (`store:post(name, value)`).
    try deps.rawSet("notifications", .function(lua.function { stack in
      guard let name = stack.values.first?.stringValue else {
        throw LuaError.argument(position: 1, message: "deps.notifications(name): expected a notification name (a string)")
      }
      let subscription = DependencyValues.current.notifications.subscribe(name)
      return try LuaStream.iterate("deps.notifications", host: host, next: {
        guard let value = await subscription.next() else { return nil }
        return [try lua.value(value)]
      }, cancel: subscription.cancel)
    }))
    let github = try lua.table()
    try github.rawSet("search", .function(host.driver.awaitable(name: "deps.github.search", in: lua) { arguments in
      let query = try searchQuery(arguments.first, host: host)
      switch await DependencyValues.current.github.search(query) {
      case .success(let result): return [try lua.value(result)]
      case .failure(let failure): return [.nil, try lua.value(failure.record)]
      }
    }))
    try deps.rawSet("github", .table(github))
    try deps.rawSet("websocket", .table(LuaWebSocket.makeTable(host: host)))
    try deps.rawSet("dismiss", .function(lua.function { _ in
      MainActor.assumeIsolated { DependencyValues.current.dismiss() }
      return []
    }))
    return deps
  }

  /// `{ q = "tca", page = 2, per_page = 10, sort = "stars", language = "swift" }`.
  private static func searchQuery(_ argument: LuaValue?, host: ReluaHost) throws -> RepositorySearchClient.Query {
    guard let argument, case .table = argument, case .record(let record) = try host.value(from: argument) else {
      throw LuaError.argument(position: 1, message: "deps.github.search{ q = …, page = …, per_page = … } expects a table")
    }
    guard case .string(let q) = record["q"] else {
      throw LuaError.argument(position: 1, message: "deps.github.search: 'q' (the query text) is required")
    }
    func integer(_ key: String, _ fallback: Int) throws -> Int {
      switch record[key] {
      case .null: return fallback
      case .integer(let value) where value > 0: return Int(value)
      default: throw LuaError.argument(position: 1, message: "deps.github.search: '\(key)' must be a positive integer")
      }
    }
    return RepositorySearchClient.Query(
      q: q, page: try integer("page", 1), perPage: try integer("per_page", 30),
      sort: record["sort"].stringValue, language: record["language"].stringValue)
  }
}

/// The dependency settings a store or test store is made with (`deps = { … }` in Lua):
/// `uuid = "incrementing" | "live" | "<uuid>"`, `random = { seed = n } | { v1, v2, … } | "live"`,
/// `clock = "test" | "immediate" | "live"`, `date = seconds | "live"`.
@MainActor
struct DependencyOptions {
  var testClock: TestStoreClock?
  private var apply: [(inout DependencyValues) -> Void] = []

  init(_ table: LuaTable?, host: ReluaHost) throws {
    guard let table else { return }
    for (key, value) in try table.pairs() {
      guard let name = key.stringValue else { throw ReluaError.usage("deps: keys must be dependency names") }
      switch name {
      case "uuid":
        switch value.stringValue {
        case "incrementing"?:
          let generator = UUIDGenerator.incrementing
          apply.append { $0.uuid = generator }
        case "live"?: apply.append { $0.uuid = .live }
        case let text?:
          guard let uuid = UUID(uuidString: text) else { throw ReluaError.usage("deps.uuid: '\(text)' is not \"incrementing\", \"live\" or a UUID") }
          apply.append { $0.uuid = .constant(uuid) }
        case nil:
          // A list of UUIDs, returned in turn (a recorded session replays what it produced).
          guard let list = try value.tableValue?.array(), !list.isEmpty else {
            throw ReluaError.usage("deps.uuid: expected \"incrementing\", \"live\", a UUID or a list of UUIDs")
          }
          let uuids = try list.map { item -> UUID in
            guard let text = item.stringValue, let uuid = UUID(uuidString: text) else {
              throw ReluaError.usage("deps.uuid: every entry of the list must be a UUID")
            }
            return uuid
          }
          let next = LockedValue(0)
          apply.append { $0.uuid = UUIDGenerator { next.withLock { index in defer { index += 1 }; return uuids[index % uuids.count] } } }
        }
      case "random":
        if value.stringValue == "live" {
          apply.append { $0.random = .live }
        } else if let options = value.tableValue, let seed = try options.rawGet("seed").integerValue {
          let generator = RandomNumber.seeded(UInt64(bitPattern: seed))
          apply.append { $0.random = generator }
        } else if let list = try value.tableValue?.array(), !list.isEmpty {
          let values = try list.map { item -> Int in
            guard let number = item.integerValue else { throw ReluaError.usage("deps.random: a list of integers, got \(item.type)") }
            return Int(number)
          }
          let generator = RandomNumber.sequence(values)
          apply.append { $0.random = generator }
        } else {
          throw ReluaError.usage("deps.random: expected { seed = n }, a list of integers, or \"live\"")
        }
      case "stackElementID":
        // The first id the store's stack pushes give (a recorded session starts where it was).
        guard let first = value.integerValue, first >= 0, let start = Int(exactly: first) else {
          throw ReluaError.usage("deps.stackElementID: expected the first id, an integer >= 0")
        }
        apply.append { $0.stackElementID = .starting(at: start) }
      case "clock":
        switch value.stringValue {
        case "test"?:
          let clock = TestStoreClock()
          testClock = clock
          apply.append { $0.clock = clock }
        case "immediate"?: apply.append { $0.clock = ImmediateClock<Duration>() }
        case "live"?: apply.append { $0.clock = ContinuousClock() }
        default: throw ReluaError.usage("deps.clock: expected \"test\", \"immediate\" or \"live\"")
        }
      case "date":
        if value.stringValue == "live" {
          apply.append { $0.date = .live }
        } else if let seconds = value.doubleValue {
          apply.append { $0.date = .constant(Date(timeIntervalSince1970: seconds)) }
        } else {
          throw ReluaError.usage("deps.date: expected seconds since 1970 or \"live\"")
        }
      case "github":
        apply.append(try Self.githubStub(value, host: host))
      case "websocket":
        // A live client of the test store's own (its sockets by id are its own).
        guard value.stringValue == "live" else { throw ReluaError.usage("deps.websocket: expected \"live\" (real connections)") }
        let client = WebSocketClient.live()
        apply.append { $0.websocket = client }
      default:
        throw ReluaError.usage("deps: unknown dependency '\(name)' (known: clock, date, github, random, stackElementID, uuid, websocket)")
      }
    }
  }

  /// `github = function(query) return result end` (or `return nil, err`; a third value delays the
  /// answer by that many seconds on the store's clock): a scripted stub, called with the query as
  /// a table on each search. `github = "live"`: the host's live client.
  private static func githubStub(_ value: LuaValue, host: ReluaHost) throws -> (inout DependencyValues) -> Void {
    if let live = host.liveGitHub, value.stringValue == "live" {
      return { $0.github = live }
    }
    guard let stub = value.functionValue else {
      throw ReluaError.usage("deps.github: expected a function(query) returning a result (or nil, err), or \"live\"")
    }
    let box = UncheckedSendable(stub)
    let client = RepositorySearchClient { [host] query in
      do {
        let results = try host.lua.call(box.value, host.lua.value(query.value))
        // A third value is a delay in seconds on the store's clock (a slow response, for tests).
        if results.count > 2, !results[2].isNil {
          guard let delay = results[2].doubleValue.flatMap(Duration.luaSeconds) else {
            throw ReluaError.usage("its third value (a delay) must be \(Duration.luaSecondsRule)")
          }
          if delay > .zero { try await DependencyValues.current.clock.sleep(for: delay, isolation: #isolation) }
        }
        let result = try results.first.map { try host.value(from: $0) } ?? .null
        if result.isNull {
          let error = try results.dropFirst().first.map { try host.value(from: $0) } ?? .null
          return .failure(.init(error.isNull ? .record(ValueRecord([("kind", .string("transport")), ("message", .string("the stub returned nothing"))])) : error))
        }
        return .success(result)
      } catch is CancellationError {
        return .failure(.init(kind: "cancelled", message: "The search was cancelled."))
      } catch {
        // The search fails as a transport error, and the test fails with the stub's message.
        let message = LuaCoroutineDriver.message(of: error)
        host.dependencyFailures.append("the deps.github stub raised: \(message)")
        return .failure(.init(kind: "transport", message: "the github stub raised: \(message)"))
      }
    }
    return { $0.github = client }
  }

  func prepare(_ values: inout DependencyValues) {
    for step in apply { step(&values) }
  }
}
