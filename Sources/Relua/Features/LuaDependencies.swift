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
      guard let seconds = arguments.first?.doubleValue, seconds >= 0 else {
        throw LuaError.argument(position: 1, message: "deps.clock.sleep(seconds): seconds must be a number >= 0")
      }
      try await DependencyValues.current.clock.sleep(for: .seconds(seconds))
      return []
    }))
    try deps.rawSet("clock", .table(clock))
    try deps.rawSet("dismiss", .function(lua.function { _ in
      MainActor.assumeIsolated { DependencyValues.current.dismiss() }
      return []
    }))
    return deps
  }
}

/// The dependency settings a store or test store is made with (`deps = { … }` in Lua):
/// `uuid = "incrementing" | "live" | "<uuid>"`, `random = { seed = n } | { v1, v2, … } | "live"`,
/// `clock = "test" | "immediate" | "live"`, `date = seconds | "live"`.
@MainActor
struct DependencyOptions {
  var testClock: TestClock<Duration>?
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
        case nil: throw ReluaError.usage("deps.uuid: expected \"incrementing\", \"live\" or a UUID")
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
      case "clock":
        switch value.stringValue {
        case "test"?:
          let clock = TestClock<Duration>()
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
      default:
        throw ReluaError.usage("deps: unknown dependency '\(name)' (known: clock, date, random, uuid)")
      }
    }
  }

  func prepare(_ values: inout DependencyValues) {
    for step in apply { step(&values) }
  }
}
