import Composable
import Foundation
import Lua

/// relua inside a Swift program: a Lua state with `require "relua"`, the program's dependencies,
/// the features its scripts define, and stores of them.
///
///     let relua = try ReluaRuntime(scriptRoots: ["Scripts"])
///     try relua.register(ReluaDependency("storage", live: …))
///     let todo = try relua.loadFeature(file: "Scripts/Todo.lua")
///     let store = try relua.makeStore(todo)
///     try store.send("add", "milk")
///     for await state in store.states { print(state) }
///
/// Sandboxed by default, with `relua run`'s limits (256 MiB, 100 million instructions between
/// awaits): a script cannot reach files, processes or the network except through the
/// dependencies the program registers. Everything here runs on the main actor, with the state.
@MainActor
public final class ReluaRuntime {
  package let lua: LuaState
  package let host: ReluaHost

  /// `relua run`'s limits: 256 MiB of Lua memory, 100 million VM instructions per run between awaits.
  public static let defaultMemoryLimit = 256 << 20
  /// `relua run`'s instruction limit: 100 million VM instructions per run between awaits.
  public static let defaultInstructionLimit = 100_000_000

  /// A sandboxed state whose `require` finds modules under `scriptRoots`.
  public convenience init(scriptRoots: [String] = [FileManager.default.currentDirectoryPath], trusted: Bool = false) throws {
    try self.init(options: LuaOptions(
      trusted: trusted, memoryLimit: Self.defaultMemoryLimit, instructionLimit: Self.defaultInstructionLimit,
      scriptRoots: scriptRoots))
  }

  /// A state made with `options` as they are (limits included: none unless given).
  public init(options: LuaOptions) throws {
    lua = try LuaState(options: options)
    host = try ReluaHost.install(in: lua)
  }

  /// Makes `dependency` reachable as `deps.<name>` in this runtime's scripts.
  public func register(_ dependency: ReluaDependency) throws { try host.register(dependency) }

  /// Runs a feature script and returns the feature it returns (`return relua.feature "X" { … }`).
  public func loadFeature(file: String) throws -> FeatureDefinition {
    try feature(from: lua.call(lua.load(file: file)), what: file)
  }

  /// `loadFeature(file:)` for a script in a string; `name` is how errors name it.
  public func loadFeature(source: String, name: String) throws -> FeatureDefinition {
    try feature(from: lua.call(lua.load(source, name: "@" + name)), what: name)
  }

  private func feature(from results: [LuaValue], what: String) throws -> FeatureDefinition {
    guard let value = results.first else { throw ReluaError.usage("\(what) returned nothing; a feature script returns its feature") }
    return try host.feature(value, what: what)
  }

  /// A store of `feature`, at its initial state (or `state`), with the live dependencies changed
  /// by `prepare` (`$0.setReluaDependency("storage", to: …)` for one store).
  public func makeStore(
    _ feature: FeatureDefinition, state: Value? = nil, prepare: (inout DependencyValues) -> Void = { _ in }
  ) throws -> ReluaStore {
    var dependencies = DependencyValues.fallback
    prepare(&dependencies)
    return ReluaStore(try LuaStoreObject(host: host, feature: feature, state: state, dependencies: dependencies))
  }
}
