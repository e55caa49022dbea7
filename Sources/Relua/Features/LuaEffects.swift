import Composable
import Lua

/// Turns the effect tables Lua reducers return (`relua.Effect.*`) into engine effects.
/// `Effect.run` bodies run as coroutines driven on the main actor: awaiting a dependency
/// (`deps.clock.sleep`) suspends the coroutine, and cancelling the effect closes it.
@MainActor
enum LuaEffects {
  /// How deep effects may nest (`e:cancellable(…):debounce(…)`, merges of merges): far more
  /// than a reducer writes, and a bound on the walk when a script made an effect its own child.
  static let maxNesting = 100
  /// How many effects one reducer may return in all: effect tables can share children, so a
  /// 100-deep chain of `Effect.merge(e, e)` would otherwise expand to 2¹⁰⁰ effects.
  static let maxCount = 100_000

  /// The engine effect for an effect table. Effect tables are plain Lua tables a script can
  /// still change after `relua.Effect` made them (`e.fn = nil`, `e.effect = e`), so every field
  /// is checked here, before use: a changed effect is an error, never a trap or an endless walk.
  static func effect(from value: LuaValue, feature: FeatureDefinition, host: ReluaHost) throws -> Effect<FeatureAction> {
    var count = 0
    return try effect(from: value, feature: feature, host: host, depth: 0, count: &count)
  }

  private static func effect(
    from value: LuaValue, feature: FeatureDefinition, host: ReluaHost, depth: Int, count: inout Int
  ) throws -> Effect<FeatureAction> {
    count += 1
    guard count <= maxCount else {
      throw ReluaError.usage("\(feature.name)'s reducer returned more than \(maxCount) effects")
    }
    guard let table = value.tableValue, try host.tags.isEffect(table) else {
      throw ReluaError.usage(
        "\(feature.name)'s reducer returned a \(value.type); a reducer returns nothing or a relua.Effect")
    }
    guard depth < maxNesting else {
      throw ReluaError.usage("\(feature.name)'s reducer returned effects nested more than \(maxNesting) deep (was an Effect made its own child?)")
    }
    let kind = try table.rawGet("kind").stringValue ?? ""
    func changed(_ what: String) -> ReluaError {
      ReluaError.usage("\(feature.name)'s reducer returned an Effect.\(kind) whose \(what) (an Effect was changed after it was made)")
    }
    func inner() throws -> Effect<FeatureAction> {
      let child = try table.rawGet("effect")
      guard let childTable = child.tableValue, try host.tags.isEffect(childTable) else { throw changed("inner effect is a \(child.type)") }
      return try effect(from: child, feature: feature, host: host, depth: depth + 1, count: &count)
    }
    func id() throws -> Value {
      let id = try table.rawGet("id")
      guard !id.isNil else { throw changed("id is nil") }
      return try host.value(from: id)
    }
    func seconds() throws -> Duration {
      guard let duration = try table.rawGet("seconds").doubleValue.flatMap(Duration.luaSeconds) else {
        throw changed("seconds are not \(Duration.luaSecondsRule)")
      }
      return duration
    }
    switch kind {
    case "none":
      return .none
    case "send":
      guard let name = try table.rawGet("action").stringValue else { throw changed("action is not a name") }
      let payload = try host.value(from: table.rawGet("payload"))
      // Each send's payload is a value of its own until it is reduced (a merge of many sends of
      // one big table holds it many times).
      try host.stateMemory.willHold(payload.estimatedBytes)
      return .send(try host.resolver(for: feature).resolve(name, payload: payload))
    case "run":
      guard let body = try table.rawGet("fn").functionValue else { throw changed("function is missing") }
      let handler = try table.rawGet("catch")
      guard handler.isNil || handler.functionValue != nil else { throw changed("catch is not a function") }
      let name = try table.rawGet("name")
      guard name.isNil || name.stringValue != nil else { throw changed("name is not a string") }
      return run(
        body, catch: handler.functionValue, name: name.stringValue,
        definedAt: try table.rawGet("definedAt").stringValue ?? feature.name, feature: feature, host: host)
    case "merge", "concatenate":
      guard let list = try table.rawGet("effects").tableValue else { throw changed("effects are not a list") }
      var effects: [Effect<FeatureAction>] = []
      for element in try list.array() {
        effects.append(try effect(from: element, feature: feature, host: host, depth: depth + 1, count: &count))
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
      throw ReluaError.usage("\(feature.name)'s reducer returned an unknown effect '\(kind)' (an Effect was changed after it was made)")
    }
  }

  /// An `Effect.run`: a driven effect (no Swift task of its own) whose body runs as a coroutine
  /// the driver steps by callbacks.
  private static func run(
    _ body: LuaFunction, catch handler: LuaFunction?, name: String?, definedAt: String, feature: FeatureDefinition,
    host: ReluaHost
  ) -> Effect<FeatureAction> {
    let body = UncheckedSendable(body)
    let handler = handler.map(UncheckedSendable.init)
    let feature = UncheckedSendable(feature)
    return .driven(place: definedAt, name: name) { effect in
      host.startEffect(
        body.value, catch: handler?.value, feature: feature.value, effect: effect, definedAt: definedAt, name: name)
    }
  }
}

extension ReluaHost {
  /// Starts an effect body as a coroutine, `body(send)`, stepped in the effect's context (see
  /// `LuaEffectRun`).
  func startEffect(
    _ body: LuaFunction, catch handler: LuaFunction?, feature: FeatureDefinition,
    effect: DrivenEffect<FeatureAction>, definedAt: String, name: String? = nil
  ) {
    LuaEffectRun(effect: effect, catch: handler, feature: feature, host: self, definedAt: definedAt, name: name).start(body)
  }
}

/// Carries a main-actor-only value through a `@Sendable` closure that only uses it on the main actor.
struct UncheckedSendable<Wrapped>: @unchecked Sendable {
  let value: Wrapped
  init(_ value: Wrapped) { self.value = value }
}

/// One Lua `Effect.run` in flight, as one object: its coroutine (the body's, then, when the body
/// raises, its `catch(error, send)`'s), stepped in the effect's context and cancelled with it, and
/// the context of the `send` function the body gets. An error of the catch becomes a store
/// warning; without a catch, the body's error does.
@MainActor
private final class LuaEffectRun: LuaEffectCoroutine, DrivenEffectCancellable {
  let effect: DrivenEffect<FeatureAction>
  private var handler: LuaFunction?
  private let feature: FeatureDefinition
  private let definedAt: String
  /// Its name (`Effect.run(fn, { name = "timer" })`), in its warnings.
  private let name: String?
  private var recovering = false

  init(
    effect: DrivenEffect<FeatureAction>, catch handler: LuaFunction?, feature: FeatureDefinition, host: ReluaHost,
    definedAt: String, name: String?
  ) {
    self.effect = effect
    self.handler = handler
    self.feature = feature
    self.definedAt = definedAt
    self.name = name
    super.init(stepping: effect, host: host)
  }

  /// How its warnings name it: `an Effect.run named "timer" at Feature.lua:12`.
  private var described: String { "an Effect.run" + (name.map { " named \"\($0)\"" } ?? "") + " at \(definedAt)" }

  func drivenEffectCancelled() { cancel() }

  /// Runs `body(send)` (the effect's first step can send the action that cancels it).
  func start(_ body: LuaFunction) {
    effect.onCancel(telling: self)
    do {
      start(body, arguments: [.function(try makeSendFunction())])
    } catch {
      effect.finish(throwing: error)
    }
  }

  /// `send(action, payload)` for this effect: names are the feature's own (a child's effect sends
  /// the child's actions; the engine nests them). After cancellation it does nothing. A C function
  /// whose context is this object (Lua holds it while the function lives): no closure per effect.
  private func makeSendFunction() throws -> LuaFunction {
    try host.lua.cFunction({ L, context in
      Unmanaged<LuaEffectRun>.fromOpaque(context!)._withUnsafeGuaranteedRef { run in
        do {
          let stack = run.host.lua.stack(of: L!)
          let name = try stack.string(at: 1)
          let payload = try run.host.value(from: stack.value(at: 2))
          let action = try run.host.resolver(for: run.feature).resolve(name, payload: payload)
          run.effect.send(action)
          return LuaReturn.none.status
        } catch {
          return run.host.lua.raiseStatus(error, on: L!)
        }
      }
    }, context: self)
  }

  override func ended(with result: Result<[LuaValue], any Error>) {
    closeGroups()
    if recovering {
      if case .failure(let error) = result {
        effect.warn("The catch of \(described) raised: \(LuaCoroutineDriver.message(of: error))")
      }
      return effect.finish()
    }
    guard case .failure(let error) = result else { return effect.finish() }
    guard let handler else {
      guard let name, !(error is CancellationError), !effect.isCancelled else { return effect.finish(throwing: error) }
      effect.warn("An \"Effect.run\" named \"\(name)\" returned from \"\(definedAt)\" threw an unhandled error: \(error)")
      return effect.finish()
    }
    recovering = true
    self.handler = nil
    do {
      start(handler, arguments: [.text(LuaCoroutineDriver.message(of: error)), .function(try makeSendFunction())])
    } catch {
      effect.finish(throwing: error)
    }
  }
}
