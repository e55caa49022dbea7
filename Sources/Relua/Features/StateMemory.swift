import Lua

/// Charges the state a host holds for its scripts — stores' states are Swift values, outside
/// Lua's allocator — against the Lua state's memory limit, so `--memory-limit` holds for a script
/// that grows its state rather than its Lua tables (an action storing a payload of a megabyte, a
/// million times).
///
/// Exact measurement walks every store's state, so it is done seldom: writes that may grow the
/// state (the views' general path: tables, strings, new fields; a number written over a number
/// grows nothing) add what they write, and the state is measured again only when the growth
/// since the last measurement passes half of it (amortized: each byte written is walked a bounded
/// number of times) or the sum would pass the limit. Shrinking is seen at the next measurement.
/// Nothing is counted without a limit.
@MainActor
final class StateMemory {
  private unowned let lua: LuaState
  /// Every state the host holds now, by owner: a store's state, the open reducer session's. nil
  /// for a store in the middle of a send (its state is lent to the reducer, partly moved out): it
  /// counts what it held when last measured.
  private let states: () -> [(owner: ObjectIdentifier?, state: Value?)]
  private unowned let views: StateViews
  private var measured = 0
  private var grown = 0
  private var lastKnown: [ObjectIdentifier: Int] = [:]

  init(lua: LuaState, views: StateViews, states: @escaping () -> [(owner: ObjectIdentifier?, state: Value?)]) {
    self.lua = lua
    self.views = views
    self.states = states
  }

  /// Bytes the host holds for the scripts now, as last charged (tests read it).
  var charged: Int { measured + grown + views.heldBytes }

  /// About to add `bytes` to a state: throws a memory error when that would pass the limit.
  func willGrow(by bytes: Int) throws {
    guard bytes > 0, let limit = lua.memoryLimit else { return }
    grown += bytes
    if lua.memoryUsed + charged > limit || grown > max(1 << 20, measured / 2) {
      measure()
      grown = bytes
    }
    try check(limit, undo: { self.grown -= bytes })
  }

  /// About to hold `bytes` outside the state until the send ends (a follow-up action's payload).
  func willHold(_ bytes: Int) throws {
    guard bytes > 0, let limit = lua.memoryLimit else { return }
    views.heldBytes += bytes
    try check(limit, undo: { self.views.heldBytes -= bytes })
  }

  private func check(_ limit: Int, undo: () -> Void) throws {
    if lua.memoryUsed + charged > limit {
      let wanted = charged
      undo()
      lua.externalMemory = charged
      throw LuaError.memory(
        message: "memory limit of \(limit) bytes exceeded: relua would hold ≈ \(wanted) bytes for the script's state and actions, and Lua \(lua.memoryUsed)")
    }
    lua.externalMemory = charged
  }

  /// Measures every state exactly (O(all state)).
  func measure() {
    var known: [ObjectIdentifier: Int] = [:]
    measured = 0
    for (owner, state) in states() {
      let bytes = state.map(\.estimatedBytes) ?? owner.flatMap { lastKnown[$0] } ?? 0
      if let owner { known[owner] = bytes }
      measured += bytes
    }
    lastKnown = known
    grown = 0
    lua.externalMemory = charged
  }
}
