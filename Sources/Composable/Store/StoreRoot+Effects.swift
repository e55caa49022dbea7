/// How a root store starts effects and keeps track of them until they end (see `EffectInFlight`).
extension StoreRoot {
  /// A task an effect runs in, and its id in `inFlight`.
  typealias EffectTask = (id: Int, task: Task<Void, Never>)

  /// Starts an effect; returns the tasks it created (for concatenation, whose effects all run in
  /// tasks: `tasksOnly`).
  @discardableResult
  func start(_ effect: Effect<Action>, ids: [CancelID], tasksOnly: Bool = false) -> [EffectTask] {
    switch effect.operation {
    case .none:
      return []
    case let .send(action):
      if isSending { buffer.append(action) } else { receive(action) }
      return []
    case let .run(run):
      if !tasksOnly, let driven = run.driven {
        startDriven(driven, dependencies: run.dependencies, ids: ids)
        return []
      }
      return [startRun(run, ids: ids)]
    case let .merge(effects):
      return effects.flatMap { start($0, ids: ids, tasksOnly: tasksOnly) }
    case let .concatenate(effects):
      return [startConcatenation(effects, ids: ids)]
    case let .cancellable(inner, id, cancelInFlight):
      if cancelInFlight { cancel(id) }
      return start(inner, ids: ids + [id], tasksOnly: tasksOnly)
    case let .cancel(id):
      cancel(id)
      return []
    case let .cancelSubtree(path):
      cancelSubtree(path)
      return []
    case let .failure(failure):
      warn("An effect reported a failure outside of a send: \(failure)")
      return []
    }
  }

  /// Registers an effect's task under its cancel ids — each at every prefix of the place of the
  /// feature that made it, as TCA does: `Effect.cancel(id)` in a feature then reaches the effects
  /// with that id in all of its descendants (through optional, forEach, presents and stack), while
  /// a child's cancel reaches neither its parent's effects nor a sibling's.
  private func register(
    _ runner: EffectRunner, id taskID: Int, ids: [CancelID], activity: EffectActivity? = nil
  ) {
    let cancelIDs = ids.isEmpty ? nil : self.cancelIDs(ids)
    inFlight[taskID] = EffectInFlight(runner: runner, cancelIDs: cancelIDs, activity: activity)
    settling?.registered(taskID, isConcatenation: activity == nil)
    for group in cancelIDs?.groups ?? [] { group.tasks.insert(taskID) }
  }

  /// The keys effects with cancel ids `ids` are registered under (see `register`): the last
  /// effect's when they are the same ids (a loop of sends of one action makes thousands of effects
  /// with one id: they share one copy, not an array each).
  private func cancelIDs(_ ids: [CancelID]) -> EffectCancelIDs {
    if let lastCancelIDs, lastCancelIDs.groups.allSatisfy(\.isRegistered), lastCancelIDs.declared == ids {
      return lastCancelIDs
    }
    // Ids of a feature at the root have no place to prefix: the keys are the ids (one array).
    let unplaced = ids.allSatisfy(\.path.isEmpty)
    var keys: [CancelID] = unplaced ? ids : []
    for id in ids where !unplaced {
      for length in 0...id.path.count {
        var key = id
        if length < id.path.count { key.path = Array(id.path.prefix(length)) }
        keys.append(key)
      }
    }
    let groups = keys.map { key in
      if let group = cancellables[key] { return group }
      let group = CancelGroup(key: key)
      cancellables[key] = group
      return group
    }
    let made = EffectCancelIDs(declared: ids, groups: groups)
    lastCancelIDs = made
    return made
  }

  private func makeTaskID() -> Int {
    defer { nextTaskID += 1 }
    startQueue.append(nextTaskID)
    liveTasks += 1
    return nextTaskID
  }

  /// An effect task has returned (a cancelled one may return well after its cancel: its
  /// coroutine's `<close>` handlers run, what it holds is let go then).
  func taskEnded() {
    liveTasks -= 1
    if liveTasks == 0 { signalActivity() }
  }

  func finished(_ taskID: Int) {
    guard let entry = inFlight.removeValue(forKey: taskID) else { return }
    if entry.started { entry.activity?.ended() }
    settling?.finished(taskID, started: entry.started, isConcatenation: entry.activity == nil)
    // No hash of a cancel id (a user's id hashes through `AnyHashable`) but when its last effect ends.
    for group in entry.cancelIDs?.groups ?? [] {
      group.tasks.remove(taskID)
      if group.tasks.isEmpty && group.isRegistered { unregister(group) }
    }
    signalActivity()
  }

  private func startRun(_ run: RunOperation<Action>, ids: [CancelID]) -> EffectTask {
    let taskID = makeTaskID()
    tasksToBegin.insert(taskID)
    let link = self.link
    let send = Send<Action>(
      deliver: { action in EffectDelivery.from(taskID) { link.root?.receive(action) } },
      warning: { link.root?.warn($0) })
    let body = run.body
    let activity = makeActivity()
    // Starts on the main actor (see `RunOperation`). Its task-locals are bound here and copied
    // into the task as it is made (see `RunOperation.dependencies`).
    let task = DependencyValues.$task.withValue(run.dependencies) {
      EffectActivity.$current.withValue(activity) {
        Task(priority: run.priority) { @MainActor in
          await link.root?.beginInOrder(taskID)
          // Cancelled before its first turn: it never runs (a Lua effect would run up to its
          // first await first).
          if !Task.isCancelled { await body(send) }
          link.root?.finished(taskID)
          link.root?.taskEnded()
        }
      }
    }
    register(.task(task), id: taskID, ids: ids, activity: activity)
    return (taskID, task)
  }

  /// A run effect's count of sleeps (see `EffectActivity`).
  private func makeActivity() -> EffectActivity {
    let link = self.link
    return EffectActivity(awake: settling?.awakeEffects) { report, onMainActor in
      if onMainActor {
        MainActor.assumeIsolated { link.root?.take(report) }
      } else {
        Task { @MainActor in link.root?.take(report) }
      }
    }
  }

  /// Registers a driven effect (`Effect.driven`): it starts in `startDrivenEffects`, when its turn
  /// comes, and ends when it finishes or is cancelled.
  private func startDriven(_ driven: DrivenStart<Action>, dependencies: DependencyValues?, ids: [CancelID]) {
    let taskID = makeTaskID()
    let link = self.link
    let activity = makeActivity()
    let core = DrivenEffectCore(dependencies: dependencies, activity: activity)
    core.observe(link, id: taskID)
    let effect = DrivenEffect(core: core, unchecked: drivenSend, place: driven.place)
    let start = driven.start
    drivenStarts[taskID] = { effect.step { start(effect) } }
    register(.driven(core), id: taskID, ids: ids, activity: activity)
    if let name = driven.name {
      inFlight[taskID]?.name = name
      inFlight[taskID]?.place = driven.place
    }
    scheduleDrivenStarts()
  }

  private func startConcatenation(_ effects: [Effect<Action>], ids: [CancelID]) -> EffectTask {
    let taskID = makeTaskID()
    tasksToBegin.insert(taskID)
    nonisolated(unsafe) let effects = effects
    let link = self.link
    let task = Task { @MainActor in
      await link.root?.beginInOrder(taskID)
      defer { link.root?.taskEnded() }
      for effect in effects {
        guard let root = link.root, !Task.isCancelled else { break }
        let children = root.start(effect, ids: [], tasksOnly: true)
        if root.inFlight[taskID] != nil { root.settling?.concatenationSteps[taskID] = children.map(\.id) }
        await withTaskCancellationHandler {
          for child in children { await child.task.value }
        } onCancel: {
          for child in children { child.task.cancel() }
        }
      }
      link.root?.finished(taskID)
    }
    register(.task(task), id: taskID, ids: ids)
    return (taskID, task)
  }

  func began(_ taskID: Int) {
    if let entry = inFlight[taskID], !entry.started {
      inFlight[taskID]!.started = true
      settling?.unstartedEffects -= 1
      entry.activity?.started()
    }
    signalActivity()
  }
}
