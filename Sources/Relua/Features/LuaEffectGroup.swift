import Composable
import Lua

/// `relua.taskGroup(function(group) group:spawn(fn) … end)` inside an `Effect.run`: TCA's
/// `withTaskGroup` in `.run`. Its children run concurrently as parts of the effect (each awaits,
/// sleeps on the clock, sends, reads a stream); the group's call returns when the function and all
/// the children are done. A child's error cancels its siblings and is raised by the group's call
/// (with the child's `file:line`); cancelling the effect cancels the children.
///
/// A child spawned starts when the coroutine that spawned it next suspends or ends (the group's
/// own wait is a suspension), in the order spawned, each to its first await.
@MainActor
final class LuaEffectGroup {
  let id: Int
  private unowned let owner: LuaEffectCoroutine
  private unowned let groups: LuaEffectGroups
  private var pending: [(body: LuaFunction, spawnedAt: String)] = []
  private var children: [LuaEffectChild] = []
  /// The first child's error message: the group's outcome.
  private var failure: String?
  /// The owner waiting for the group to end, parked (its children are what can run).
  private var waiter: (resume: @MainActor (Result<[LuaValue], any Error>) -> Void, parked: ParkedEffect)?
  private(set) var isClosed = false

  init(id: Int, owner: LuaEffectCoroutine, groups: LuaEffectGroups) {
    self.id = id
    self.owner = owner
    self.groups = groups
  }

  /// `group:spawn(fn)`: a child to start when the spawning coroutine suspends.
  func spawn(_ body: LuaFunction, at place: String) {
    guard failure == nil else { return }  // a failed group starts nothing more
    if pending.isEmpty { groups.hasPending(self) }
    pending.append((body, place))
  }

  /// Starts the children spawned and not started, oldest first.
  func startPending() {
    while !pending.isEmpty, !isClosed {
      let (body, place) = pending.removeFirst()
      let part: DrivenEffectPart<FeatureAction>
      do {
        part = try owner.stepping.startPart()
      } catch {
        fail("\(place): relua.taskGroup: \(error)")
        break
      }
      let child = LuaEffectChild(group: self, part: part, host: owner.host)
      children.append(child)
      child.start(body, arguments: [])
    }
    resumeWaiterIfDone()
  }

  /// A child returned or raised.
  func childEnded(_ child: LuaEffectChild, with result: Result<[LuaValue], any Error>) {
    children.removeAll { $0 === child }
    if case .failure(let error) = result { fail(LuaCoroutineDriver.message(of: error)) }
    resumeWaiterIfDone()
  }

  /// The first error wins; the siblings still running are cancelled, those not started never start.
  private func fail(_ message: String) {
    guard failure == nil else { return }
    failure = message
    pending.removeAll()
    cancelChildren()
  }

  private func cancelChildren() {
    let running = children
    children.removeAll()
    for child in running { child.cancel() }
  }

  /// The owner waits (in its step: the park counts as its own). Returns what cancels the wait.
  func wait(resume: @escaping @MainActor (Result<[LuaValue], any Error>) -> Void) -> @MainActor () -> Void {
    if pending.isEmpty && children.isEmpty {
      resume(.success(outcome))
      return {}
    }
    let parked = ParkedEffect.current
    parked.park()
    waiter = (resume, parked)
    return { [weak self] in
      guard let self, let waiter = self.waiter else { return }
      self.waiter = nil
      waiter.parked.unpark()
    }
  }

  /// `true`, or `false, message` of the child that failed.
  private var outcome: [LuaValue] { failure.map { [false, .text($0)] } ?? [true] }

  private func resumeWaiterIfDone() {
    guard let waiter, pending.isEmpty, children.isEmpty else { return }
    self.waiter = nil
    waiter.parked.unpark()
    waiter.resume(.success(outcome))
  }

  /// The group's call is over (or its owner went): whatever still runs is cancelled.
  func close() {
    guard !isClosed else { return }
    isClosed = true
    pending.removeAll()
    cancelChildren()
    if let waiter {
      self.waiter = nil
      waiter.parked.unpark()
    }
    owner.openGroups.removeAll { $0 === self }
    groups.remove(self)
  }
}

/// One child of a `relua.taskGroup`: a coroutine of the effect, counted as a part of it.
@MainActor
final class LuaEffectChild: LuaEffectCoroutine {
  private unowned let group: LuaEffectGroup
  private let part: DrivenEffectPart<FeatureAction>

  init(group: LuaEffectGroup, part: DrivenEffectPart<FeatureAction>, host: ReluaHost) {
    self.group = group
    self.part = part
    super.init(stepping: part.effect, host: host)
  }

  override func cancel() {
    super.cancel()
    part.end()
  }

  override func ended(with result: Result<[LuaValue], any Error>) {
    closeGroups()
    part.end()
    group.childEnded(self, with: result)
    host.effectGroups.startPending()
  }
}

/// A host's open groups, by the id Lua holds, and those with children waiting to start.
@MainActor
final class LuaEffectGroups {
  private var open: [Int: LuaEffectGroup] = [:]
  private var withPending: [LuaEffectGroup] = []
  private var nextID = 0

  /// A group opened by `owner` (the coroutine running `relua.taskGroup`).
  func open(by owner: LuaEffectCoroutine) -> LuaEffectGroup {
    nextID += 1
    let group = LuaEffectGroup(id: nextID, owner: owner, groups: self)
    open[nextID] = group
    owner.openGroups.append(group)
    return group
  }

  func group(_ id: Int) -> LuaEffectGroup? { open[id] }

  func hasPending(_ group: LuaEffectGroup) { withPending.append(group) }

  func remove(_ group: LuaEffectGroup) { open.removeValue(forKey: group.id) }

  /// Starts every child spawned and not started (a coroutine suspended or ended).
  func startPending() {
    while !withPending.isEmpty {
      let group = withPending.removeFirst()
      group.startPending()
    }
  }
}

extension ReluaHost {
  /// `host.groupOpen()`, `host.groupSpawn(id, fn, where)`, `host.groupWait(id)` (awaitable:
  /// `true` or `false, message`) and `host.groupClose(id)`, for the prelude's `relua.taskGroup`.
  func installGroupPrimitives(into primitives: LuaTable) throws {
    try primitives.rawSet("groupOpen", .function(lua.function { [unowned self] _ in
      guard let owner = LuaEffectCoroutine.current else {
        return [.nil, .text("relua.taskGroup: call it inside an Effect.run (its children are parts of the effect)")]
      }
      return [.integer(Int64(self.effectGroups.open(by: owner).id))]
    }))
    try primitives.rawSet("groupSpawn", .function(lua.function { [unowned self] stack in
      guard let group = self.effectGroups.group(try stack.int(at: 1)), !group.isClosed else {
        return [.text("relua.taskGroup: this group has ended: spawn its children inside relua.taskGroup's function or its children")]
      }
      group.spawn(try stack.function(at: 2), at: (try? stack.string(at: 3)) ?? "?")
      return []
    }))
    try primitives.rawSet("groupWait", .function(driver.awaitable(name: "relua.taskGroup", in: lua, suspending: { [unowned self] arguments in
      guard let id = arguments.first?.integerValue, let group = self.effectGroups.group(Int(id)) else {
        throw ReluaError.usage("relua.taskGroup: no such group")
      }
      return .callback { resume in group.wait(resume: resume) }
    })))
    try primitives.rawSet("groupClose", .function(lua.function { [unowned self] stack in
      self.effectGroups.group(try stack.int(at: 1))?.close()
      return []
    }))
  }
}
