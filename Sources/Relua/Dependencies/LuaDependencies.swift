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
    try clock.rawSet("sleep", .function(host.driver.awaitable(name: "deps.clock.sleep", in: lua, suspending: { arguments in
      guard let duration = arguments.first?.doubleValue.flatMap(Duration.luaSeconds) else {
        throw LuaError.argument(position: 1, message: "deps.clock.sleep(seconds): expected \(Duration.luaSecondsRule)")
      }
      return clockSleep(for: duration)
    })))
    // deps.clock.timer(seconds): `for tick in deps.clock.timer(1) do … end` (1, 2, 3… after each
    // interval on the store's clock; TCA's clock.timer).
    try clock.rawSet("timer", .function(lua.function { stack in
      guard let interval = stack.values.first?.doubleValue.flatMap(Duration.luaSeconds), interval > .zero else {
        throw LuaError.argument(position: 1, message: "deps.clock.timer(seconds): expected seconds more than 0 and at most 9e9")
      }
      var tick: Int64 = 0
      return try LuaStream.iterate("deps.clock.timer", host: host, waitingFor: {
        clockSleep(for: interval).map { _ in
          tick += 1
          return [.integer(tick)]
        }
      })
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
    try deps.rawSet("websocket", .table(LuaWebSocket.makeTable(host: host)))
    try deps.rawSet("dismiss", .function(lua.function { stack in
      let place = stack.raw.scriptLocation ?? "deps.dismiss"
      MainActor.assumeIsolated { DependencyValues.current.dismiss(calledFrom: place) }
      return []
    }))
    // Any other name is a dependency declared by a script or registered by the host program
    // (`NamedDependencies`).
    let metatable = try lua.table()
    try metatable.rawSet("__index", .function(lua.function { [unowned host] stack in
      guard let name = stack.values.dropFirst().first?.stringValue else { return [.nil] }
      return [try host.named.index(name)]
    }))
    try metatable.rawSet("__name", "deps")
    try deps.setMetatable(metatable)
    return deps
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
          if let start = try Self.incrementingStart(value) {
            let generator = UUIDGenerator.incrementing(startingAt: start)
            apply.append { $0.uuid = generator }
            continue
          }
          // A list of UUIDs, returned in turn (a recorded session replays what it produced).
          guard let list = try value.tableValue?.array(), !list.isEmpty else {
            throw ReluaError.usage("deps.uuid: expected \"incrementing\", { incrementing = n }, \"live\", a UUID or a list of UUIDs")
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
      case "websocket":
        // A live client of the test store's own (its sockets by id are its own).
        guard value.stringValue == "live" else { throw ReluaError.usage("deps.websocket: expected \"live\" (real connections)") }
        let client = WebSocketClient.live()
        apply.append { $0.websocket = client }
      default:
        guard let declaration = host.named.declaration(name) else {
          let known = (["clock", "date", "random", "stackElementID", "uuid", "websocket"] + host.dependencyNames).sorted()
          throw ReluaError.usage("deps: unknown dependency '\(name)' (known: \(known.joined(separator: ", ")))")
        }
        let given = try NamedDependencies.given(value, for: declaration)
        apply.append { $0[named: name] = given }
      }
    }
  }

  func prepare(_ values: inout DependencyValues) {
    for step in apply { step(&values) }
  }
}

/// A sleep on the current clock, as an await: a test store's clock wakes it by callback, so the
/// effect waits without a task; any other clock is awaited.
@MainActor
private func clockSleep(for duration: Duration) -> LuaSuspension {
  let clock = DependencyValues.current.clock
  if let clock = clock as? TestStoreClock {
    return .testClock(clock, until: clock.now.advanced(by: duration))
  }
  return .async {
    try await clock.sleep(for: duration, isolation: #isolation)
    return []
  }
}
