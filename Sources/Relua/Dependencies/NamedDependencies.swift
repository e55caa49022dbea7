import Composable
import Lua

/// The dependencies of one host that scripts reach by name (`deps.weather`, `deps.github`):
/// declared by scripts (`relua.dependency`) or registered from Swift (`ReluaDependency`). The
/// built-in ones (`uuid`, `clock`, …) are not here: they are fields of the `deps` table itself.
///
/// How `deps.<name>` resolves, each time it is used (so a module-level `local w = deps.weather`
/// still reaches the store that calls it):
/// 1. what the store, test or feature subtree gave (`deps = { weather = … }`, `dependencies`);
/// 2. else in a live store the live value;
/// 3. else (a test store) the test value, or: the test fails ("Unimplemented dependency:
///    weather") and the call raises, naming how to give it.
@MainActor
final class NamedDependencies {
  /// A dependency as declared: by a script (Lua values) or by Swift.
  struct Declaration {
    var name: String
    var live: Implementation
    var test: Implementation?
    /// `file:line` of a script's `relua.dependency`; nil for Swift.
    var declaredAt: String?

    /// The names of the live value's members, sorted; nil when it is a function.
    func memberNames() throws -> [String]? {
      switch live {
      case .swift(.function), .lua(.function): return nil
      case .swift(.members(let members)): return members.keys.sorted()
      case .lua(.table(let table)): return try table.pairs().compactMap(\.key.stringValue).sorted()
      case .lua: return nil
      }
    }
  }

  /// An implementation: Lua values (a function, or a table of functions and values), or Swift.
  enum Implementation {
    case lua(LuaValue)
    case swift(ReluaDependency.Shape)
  }

  /// What a store, test or subtree gave, kept in `DependencyValues[named:]`.
  struct Given: @unchecked Sendable {
    /// Nil: the live value (`deps = { github = "live" }`).
    var implementation: Implementation?
  }

  /// Names `deps` keeps for its own fields.
  static let builtIn: Set<String> = ["uuid", "random", "date", "clock", "notifications", "websocket", "dismiss"]

  private unowned let host: ReluaHost
  private(set) var declarations: [String: Declaration] = [:]
  /// `deps.<name>` proxies, made once per name: a function, or a table resolving its members.
  private var proxies: [String: LuaValue] = [:]
  /// Lua functions for Swift members, once per (name, live/test/given, member).
  private var swiftFunctions: [String: LuaFunction] = [:]
  private let makeProxyFunction: LuaFunction
  /// `guard(f, report)`: `f` whose errors are also reported (a test's stub that raises fails the
  /// test, as a reducer's error does, rather than only ending the effect that called it).
  private let makeGuardedFunction: LuaFunction

  static let chunkName = "=[relua deps]"
  /// Sources/Relua/Lua/deps_proxy.lua and deps_guard.lua, read once per process (`ReluaLuaSource`).
  static let proxySource = ReluaLuaSource.text("deps_proxy.lua")
  static let guardSource = ReluaLuaSource.text("deps_guard.lua")

  init(host: ReluaHost) throws {
    self.host = host
    // A proxy resolves at call time and tail-calls what it found, so an error raised there (an
    // awaitable's, a stub's) names the script line that called `deps.<name>`.
    makeProxyFunction = try host.lua.load(Self.proxySource, name: Self.chunkName)
    makeGuardedFunction = try host.lua.load(Self.guardSource, name: Self.chunkName)
  }

  var names: [String] { declarations.keys.sorted() }

  func declaration(_ name: String) -> Declaration? { declarations[name] }

  /// Adds or replaces a dependency. A script may declare its own again (a reloaded script does);
  /// a name `deps` keeps, or one Swift registered, it may not take.
  func declare(_ declaration: Declaration) throws {
    let name = declaration.name
    guard !Self.builtIn.contains(name) else {
      throw ReluaError.usage("relua.dependency: '\(name)' is a built-in dependency (deps.\(name))")
    }
    if let existing = declarations[name], existing.declaredAt == nil, declaration.declaredAt != nil {
      throw ReluaError.usage("relua.dependency: '\(name)' is registered by the host program")
    }
    declarations[name] = declaration
    swiftFunctions = swiftFunctions.filter { !$0.key.hasPrefix(name + "/") }
  }

  /// What `deps = { <name> = value }` gives: `"live"`, or Lua values shaped like the live value —
  /// a function for a function; a table of its members (functions and values) for a table, or a
  /// function when it has a single one (`github = function(query) … end` for `search`).
  static func given(_ value: LuaValue, for declaration: Declaration) throws -> Given {
    let name = declaration.name
    if value.stringValue == "live" { return Given(implementation: nil) }
    let declared = try declaration.memberNames()
    let takesTable = declared != nil
    let members = declared ?? []
    switch value {
    case .function where !takesTable || members.count == 1:
      return Given(implementation: .lua(value))
    case .table(let table) where takesTable:
      for (key, _) in try table.pairs() {
        guard let member = key.stringValue, members.contains(member) else {
          throw ReluaError.usage("deps.\(name): '\(key.stringValue ?? "?")' is not one of its members (\(members.joined(separator: ", ")))")
        }
      }
      return Given(implementation: .lua(value))
    default:
      let shape = takesTable ? "a table of its members (\(members.joined(separator: ", ")))" : "a function"
      throw ReluaError.usage("deps.\(name): expected \(shape) or \"live\", got \(value.type)")
    }
  }

  // MARK: Resolving

  /// `deps.<name>`: the proxy (a function, or a table of members), or a value dependency's value.
  func index(_ name: String) throws -> LuaValue {
    guard let declaration = declarations[name] else {
      let known = (Self.builtIn.sorted() + names).joined(separator: ", ")
      throw ReluaError.usage("deps.\(name): no such dependency (declare it with relua.dependency \"\(name)\" { live = … }; known: \(known))")
    }
    switch declaration.live {
    case .swift(.function(.value)):
      return try memberValue(name: name, member: nil)
    case .swift(.function), .lua(.function):
      return try proxy(name) { try makeProxyFunction.call(.function(resolver), .text(name), .nil)[0] }
    default:
      return try proxy(name) {
        let table = try host.lua.table()
        let metatable = try host.lua.table()
        try metatable.rawSet("__index", .function(host.lua.function { [unowned self] stack in
          guard let member = stack.values.dropFirst().first?.stringValue else { return [.nil] }
          return [try self.memberValue(name: name, member: member)]
        }))
        try metatable.rawSet("__newindex", .function(host.lua.function { _ in
          throw ReluaError.usage("deps.\(name) cannot be changed (give another value with deps = { \(name) = … })")
        }))
        try metatable.rawSet("__name", .text("deps.\(name)"))
        try table.setMetatable(metatable)
        return .table(table)
      }
    }
  }

  private func proxy(_ name: String, make: () throws -> LuaValue) throws -> LuaValue {
    if let proxy = proxies[name] { return proxy }
    let proxy = try make()
    proxies[name] = proxy
    return proxy
  }

  /// `deps.<name>.<member>`: a value member's value, else a proxy calling the member.
  private func memberValue(name: String, member: String?) throws -> LuaValue {
    if let member, case .lua(.table(let live))? = declarations[name]?.live, try live.rawGet(.text(member)).isNil {
      let members = try declarations[name]?.memberNames() ?? []
      throw ReluaError.usage("deps.\(name) has no member '\(member)' (it has: \(members.joined(separator: ", ")))")
    }
    let (implementation, _) = try current(name, member: member)
    switch implementation {
    case .swift(let shape):
      guard let found = try swiftMember(shape, name: name, member: member) else { return .nil }
      if case .value(let value) = found { return try host.lua.value(value) }
    case .lua(let value):
      let field = try Self.luaMember(value, member)
      if case .function = field {} else { return field }
    }
    // A callable member: a proxy resolving it at each call.
    let key = "\(name).\(member ?? "")"
    return try proxy(key) { try makeProxyFunction.call(.function(resolver), .text(name), member.map { .text($0) } ?? .nil)[0] }
  }

  /// Called by a proxy: the function implementing `name` (`member`) for the store running now.
  private lazy var resolver: LuaFunction = try! host.lua.function { [unowned self] stack in
    let values = stack.values
    guard let name = values.first?.stringValue else { return [.nil] }
    let member = values.dropFirst().first?.stringValue
    return [try self.callable(name: name, member: member)]
  }

  private func callable(name: String, member: String?) throws -> LuaValue {
    let (implementation, source) = try current(name, member: member)
    let shown = "deps.\(name)" + (member.map { ".\($0)" } ?? "")
    switch implementation {
    case .lua(let value):
      let found = try Self.luaMember(value, member)
      guard case .function = found else {
        throw ReluaError.usage("\(shown) is not a function in \(source)")
      }
      guard source != "live", source != "test", DependencyValues.current.context == .test else { return found }
      let report = try host.lua.function { [unowned host] stack in
        let message = stack.values.first.map { $0.stringValue ?? "(a \($0.type) error)" } ?? "?"
        host.testState.dependencyFailures.append("the \(shown) stub raised: \(message)")
        return []
      }
      return try makeGuardedFunction.call(found, .function(report))[0]
    case .swift(let shape):
      guard let found = try swiftMember(shape, name: name, member: member) else {
        throw ReluaError.usage("\(shown): no such member")
      }
      let key = "\(name)/\(source)/\(member ?? "")"
      if let function = swiftFunctions[key] { return .function(function) }
      let function = try luaFunction(for: found, named: shown)
      swiftFunctions[key] = function
      return .function(function)
    }
  }

  /// A Lua implementation's `member` (the whole value for none). A one-member table stands for
  /// its member and a function for the single member of a dependency that has one
  /// (`deps = { github = function(query) … end }` gives `deps.github.search`).
  private static func luaMember(_ value: LuaValue, _ member: String?) throws -> LuaValue {
    switch (value, member) {
    case (.table(let table), let member?): return try table.rawGet(.text(member))
    case (.table(let table), nil):
      let pairs = try table.pairs()
      return pairs.count == 1 ? pairs[0].value : value
    default: return value
    }
  }

  private func swiftMember(_ shape: ReluaDependency.Shape, name: String, member: String?) throws -> ReluaDependency.Member? {
    switch (shape, member) {
    case (.function(let found), nil): return found
    case (.function, let member?): throw ReluaError.usage("deps.\(name) is a function, it has no member '\(member)'")
    case (.members(let members), let member?):
      guard let found = members[member] else {
        throw ReluaError.usage("deps.\(name) has no member '\(member)' (it has: \(members.keys.sorted().joined(separator: ", ")))")
      }
      return found
    case (.members(let members), nil):
      return members.count == 1 ? members.first!.value : nil
    }
  }

  /// The implementation for the store running now, and where it came from (for messages and the
  /// cache of Swift functions).
  private func current(_ name: String, member: String? = nil) throws -> (Implementation, String) {
    guard let declaration = declarations[name] else { throw ReluaError.usage("deps.\(name): no such dependency") }
    let values = DependencyValues.current
    if let given = values[named: name] as? Given {
      guard let implementation = given.implementation else { return (declaration.live, "live") }
      // A table given for some members: the others resolve as if it had not been given.
      if let member, case .lua(.table(let table)) = implementation, try table.rawGet(.text(member)).isNil {
        return try fallback(declaration, values, member: member)
      }
      return (implementation, "the given deps.\(name)")
    }
    return try fallback(declaration, values, member: member)
  }

  /// What a store has that was not given: the live value, or in a test the test value — else
  /// the test fails naming the dependency.
  private func fallback(_ declaration: Declaration, _ values: DependencyValues, member: String?) throws -> (Implementation, String) {
    let name = declaration.name
    let shown = "deps.\(name)" + (member.map { ".\($0)" } ?? "")
    if values.context == .live { return (declaration.live, "live") }
    if let test = declaration.test { return (test, "test") }
    values.reportUnimplemented(name)
    throw ReluaError.usage(
      "\(shown) is not given in this test (Unimplemented dependency: \(name)): give it with deps = { \(name) = … }")
  }


  // MARK: Swift members as Lua functions

  private func luaFunction(for member: ReluaDependency.Member, named name: String) throws -> LuaFunction {
    let host = self.host
    switch member {
    case .value(let value):
      return try host.lua.function { _ in [try host.lua.value(value)] }
    case .function(let body):
      return try host.lua.function { stack in
        let arguments = try Self.arguments(stack.values, host: host, name: name)
        return try Self.answer(host: host, name: name) { try body(arguments) }
      }
    case .async(let body):
      return try host.driver.awaitable(name: name, in: host.lua) { values in
        let arguments = try Self.arguments(values, host: host, name: name)
        do {
          return try await Self.luaValues(body(arguments), host: host)
        } catch let error as ReluaDependency.ArgumentError {
          throw LuaError.argument(position: error.position, message: error.message)
        } catch is CancellationError {
          throw CancellationError()
        } catch {
          return [.nil, try host.lua.value(ReluaDependency.Failure.from(error).record)]
        }
      }
    case .stream(let body):
      return try host.lua.function { stack in
        do {
          let arguments = try Self.arguments(stack.values, host: host, name: name)
          let stream: AsyncThrowingStream<Value, any Error>
          do {
            stream = try body(arguments)
          } catch let error as ReluaDependency.ArgumentError {
            throw LuaError.argument(position: error.position, message: error.message)
          }
          let source = StreamSource(stream)
          return try LuaStream.iterate(name, host: host, next: {
            guard let value = try await source.next() else { return nil }
            return [try host.lua.value(value)]
          }, cancel: { source.cancel() })
        }
      }
    }
  }

  private static func arguments(_ values: [LuaValue], host: ReluaHost, name: String) throws -> [Value] {
    try values.enumerated().map { index, value in
      do {
        return try host.value(from: value)
      } catch {
        throw LuaError.argument(position: index + 1, message: "\(name) takes values a feature's state can hold (\(LuaCoroutineDriver.message(of: error)))")
      }
    }
  }

  private static func answer(host: ReluaHost, name: String, _ body: () throws -> [Value]) throws -> [LuaValue] {
    do {
      return try luaValues(body(), host: host)
    } catch let error as ReluaDependency.ArgumentError {
      throw LuaError.argument(position: error.position, message: error.message)
    } catch {
      return [.nil, try host.lua.value(ReluaDependency.Failure.from(error).record)]
    }
  }

  private static func luaValues(_ values: [Value], host: ReluaHost) throws -> [LuaValue] {
    try values.map { try host.lua.value($0) }
  }
}

/// A Swift sequence as a Lua loop pulls it, one element per turn, until the loop lets it go.
@MainActor
private final class StreamSource {
  private var iterator: AsyncThrowingStream<Value, any Error>.AsyncIterator?

  init(_ stream: AsyncThrowingStream<Value, any Error>) { iterator = stream.makeAsyncIterator() }

  func next() async throws -> Value? {
    guard var current = iterator else { return nil }
    defer { if iterator != nil { iterator = current } }
    return try await current.next(isolation: #isolation)
  }

  func cancel() { iterator = nil }
}
