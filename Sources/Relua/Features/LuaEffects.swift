import Composable
import Lua

/// Turns the effect tables Lua reducers return (`relua.Effect.*`) into engine effects.
/// `Effect.run` bodies run as coroutines driven on the main actor: awaiting a dependency
/// (`deps.clock.sleep`) suspends the coroutine, and cancelling the effect closes it.
@MainActor
enum LuaEffects {
  static func effect(from value: LuaValue, feature: FeatureDefinition, host: ReluaHost) throws -> Effect<FeatureAction> {
    guard let table = value.tableValue, try host.tags.isEffect(table) else {
      throw ReluaError.usage(
        "\(feature.name)'s reducer returned a \(value.type); a reducer returns nothing or a relua.Effect")
    }
    let kind = try table.rawGet("kind").stringValue ?? ""
    func inner() throws -> Effect<FeatureAction> {
      try effect(from: table.rawGet("effect"), feature: feature, host: host)
    }
    func id() throws -> Value { try host.value(from: table.rawGet("id")) }
    func seconds() throws -> Duration { .luaSeconds(try table.rawGet("seconds").doubleValue ?? 0) }
    switch kind {
    case "none":
      return .none
    case "send":
      let name = try table.rawGet("action").stringValue ?? ""
      let payload = try host.value(from: table.rawGet("payload"))
      return .send(try host.resolver(for: feature).resolve(name, payload: payload))
    case "run":
      return run(
        try table.rawGet("fn").functionValue!, catch: try table.rawGet("catch").functionValue,
        definedAt: try table.rawGet("definedAt").stringValue ?? feature.name, feature: feature, host: host)
    case "merge", "concatenate":
      let effects = try (table.rawGet("effects").tableValue?.array() ?? []).map {
        try effect(from: $0, feature: feature, host: host)
      }
      return kind == "merge" ? .merge(effects) : .concatenate(effects)
    case "cancellable":
      return try inner().cancellable(id: id(), cancelInFlight: table.rawGet("cancelInFlight").boolValue ?? false)
    case "cancel":
      return .cancel(id: try id())
    case "debounce":
      return try inner().debounce(id: id(), for: seconds(), clock: DependencyValues.current.clock)
    case "throttle":
      return try inner().throttle(
        id: id(), for: seconds(), clock: DependencyValues.current.clock,
        latest: table.rawGet("latest").boolValue ?? false)
    default:
      throw ReluaError.usage("unknown effect '\(kind)'")
    }
  }

  private static func run(
    _ body: LuaFunction, catch handler: LuaFunction?, definedAt: String, feature: FeatureDefinition, host: ReluaHost
  ) -> Effect<FeatureAction> {
    let body = UncheckedSendable(body)
    let handler = handler.map(UncheckedSendable.init)
    let feature = UncheckedSendable(feature)
    let operation: @MainActor @Sendable (Send<FeatureAction>) async throws -> Void = { send in
      try await host.runEffectBody(body.value, arguments: [], feature: feature.value, send: send)
    }
    var catchHandler: (@MainActor @Sendable (any Error, Send<FeatureAction>) async -> Void)?
    if let handler {
      catchHandler = { error, send in
        await host.runEffectCatch(handler.value, error: error, feature: feature.value, send: send, definedAt: definedAt)
      }
    }
    return .runOnMainActor(operation: operation, catch: catchHandler)
  }
}

extension ReluaHost {
  /// Runs an effect body as a driven coroutine: `body(send, ...)`.
  func runEffectBody(
    _ body: LuaFunction, arguments: [LuaValue], feature: FeatureDefinition, send: Send<FeatureAction>
  ) async throws {
    let sendFunction = try makeSendFunction(feature: feature, send: send)
    _ = try await driver.run(body, arguments: [.function(sendFunction)] + arguments)
  }

  /// Runs an effect's `catch(error, send)` (its own errors become store warnings).
  func runEffectCatch(
    _ handler: LuaFunction, error: any Error, feature: FeatureDefinition, send: Send<FeatureAction>, definedAt: String
  ) async {
    do {
      let sendFunction = try makeSendFunction(feature: feature, send: send)
      _ = try await driver.run(handler, arguments: [.text(LuaCoroutineDriver.message(of: error)), .function(sendFunction)])
    } catch is CancellationError {
    } catch {
      send.warn("The catch of an Effect.run at \(definedAt) raised: \(LuaCoroutineDriver.message(of: error))")
    }
  }

  /// `send(action, payload)` for an effect of `feature`: names are the feature's own (a child's
  /// effect sends the child's actions; the engine nests them). After cancellation it does nothing.
  private func makeSendFunction(feature: FeatureDefinition, send: Send<FeatureAction>) throws -> LuaFunction {
    try lua.rawFunction { [unowned self] stack in
      let name = try stack.string(at: 1)
      let payload = try self.value(from: stack.value(at: 2))
      let action = try self.resolver(for: feature).resolve(name, payload: payload)
      MainActor.assumeIsolated { send(action) }
      return .none
    }
  }
}

/// Carries a main-actor-only value through a `@Sendable` closure that only uses it on the main actor.
struct UncheckedSendable<Wrapped>: @unchecked Sendable {
  let value: Wrapped
  init(_ value: Wrapped) { self.value = value }
}
