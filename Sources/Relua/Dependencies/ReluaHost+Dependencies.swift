import Composable
import Lua

extension ReluaHost {
  /// Dependencies every host gets as it is made (`registerForEveryState`): a program that runs
  /// many Lua states (`relua test` makes one per test) registers its plug-ins once.
  static var everyStateDependencies: [ReluaDependency] = []

  /// Makes `dependency` part of every host made from now on (`deps.<name>` in each new state).
  public static func registerForEveryState(_ dependency: ReluaDependency) {
    everyStateDependencies.removeAll { $0.name == dependency.name }
    everyStateDependencies.append(dependency)
  }

  /// Makes `dependency` reachable as `deps.<name>` in this host's scripts. Registering a name
  /// again replaces it; a built-in name (`uuid`, `clock`, …) is refused.
  package func register(_ dependency: ReluaDependency) throws {
    try named.declare(.init(
      name: dependency.name, live: .swift(dependency.live), test: dependency.test.map { .swift($0) }, declaredAt: nil))
  }

  /// The names of the dependencies scripts reach by name, declared or registered.
  package var dependencyNames: [String] { named.names }

  /// `relua.dependency "name" { live = …, test = … }`.
  func declareDependency(_ stack: LuaStack) throws -> LuaValue {
    let name = try stack.string(at: 1)
    guard name.range(of: #"^[A-Za-z_][A-Za-z0-9_]*$"#, options: .regularExpression) != nil else {
      throw LuaError.argument(position: 1, message: "relua.dependency: a dependency name is an identifier, got '\(name)'")
    }
    let declaredAt = stack.raw.location(ofLevel: 1) ?? "?"
    return .function(try lua.function { [unowned self] stack in
      do {
        let spec = try stack.table(at: 1)
        let live = try spec.rawGet("live")
        let test = try spec.rawGet("test")
        func check(_ value: LuaValue, _ key: String) throws {
          switch value {
          case .function, .table: return
          default:
            throw ReluaError.usage(
              "relua.dependency \"\(name)\": '\(key)' must be a function or a table of functions and values, got \(value.type)")
          }
        }
        try check(live, "live")
        if !test.isNil { try check(test, "test") }
        for (key, _) in try spec.pairs() where key.stringValue != "live" && key.stringValue != "test" {
          throw ReluaError.usage("relua.dependency \"\(name)\": unknown field '\(key.stringValue ?? "?")' (known: live, test)")
        }
        try named.declare(.init(name: name, live: .lua(live), test: test.isNil ? nil : .lua(test), declaredAt: declaredAt))
        return []
      }
    })
  }
}

extension DependencyValues {
  /// Gives the dependency scripts reach as `deps.<name>` for a store, a test or a subtree, from
  /// Swift (as `deps = { <name> = … }` does from Lua).
  public mutating func setReluaDependency(_ name: String, to shape: ReluaDependency.Shape) {
    self[named: name] = NamedDependencies.Given(implementation: .swift(shape))
  }
}
