import XCTest

@testable import Relua

/// A screen's lifecycle for a Swift program's views (issue #34, gap 7; TCA's
/// `.task { await store.send(.onTask).finish() }`): `ReluaScreen.taskActions` and
/// `ReluaStore.runTask(of:)`, and `ScreenTasks`, what the REPL keeps to send them.
@MainActor
final class ReluaStoreScreenTaskTests: XCTestCase {
  static let meetings = """
    local relua = require "relua"
    local Effect = relua.Effect
    local Timer = relua.feature "Timer" {
      state = { started = 0 },
      actions = { start = {} },
      task = "start",
      reduce = relua.on { start = function(s) s.started = s.started + 1 end },
    }
    local Record = relua.feature "Record" {
      state = { heard = 0, timer = { started = 0 } },
      actions = { onTask = {}, heard = {} },
      task = "onTask",
      compose = { relua.scope("timer", Timer) },
      reduce = relua.on {
        onTask = function(_, _, deps)
          return Effect.run(function(send) for _ in deps.notifications("speech") do send("heard") end end)
        end,
        heard = function(s) s.heard = s.heard + 1 end,
      },
    }
    return relua.feature "Meetings" {
      state = { path = {} },
      actions = { start = {} },
      compose = { relua.stack("path", { record = Record }) },
      reduce = relua.on { start = function(s) relua.push(s.path, { record = { heard = 0, timer = { started = 0 } } }) end },
    }
    """

  func testAScreensTaskActionsAreItsFeaturesThenThoseOfTheFeaturesItScopes() async throws {
    let relua = try ReluaRuntime()
    let store = try relua.makeStore(try relua.loadFeature(source: Self.meetings, name: "Meetings.lua"))
    XCTAssertEqual(store.screens.map(\.taskActions), [[]])
    try store.send("start")
    XCTAssertEqual(store.screens.map(\.taskActions), [[], ["path[id=0].record.onTask", "path[id=0].record.timer.start"]])
  }

  func testRunTaskSendsTheTaskAndCancelsItsEffectsWhenTheCallingTaskIsCancelled() async throws {
    let relua = try ReluaRuntime()
    let store = try relua.makeStore(try relua.loadFeature(source: Self.meetings, name: "Meetings.lua"))
    try store.send("start")
    let screen = try XCTUnwrap(store.screens.last)
    let task = Task { try await store.runTask(of: screen) }
    while store.state[key: "path"][0][key: "record"][key: "timer"][key: "started"] != .integer(1) { await Task.yield() }
    while store.post("speech") == 0 { await Task.yield() }  // the loop listens once the effect has run
    while store.state[key: "path"][0][key: "record"][key: "heard"] != .integer(1) { await Task.yield() }
    task.cancel()  // the view disappeared
    try await task.value
    XCTAssertEqual(store.post("speech"), 0, "the screen's effect was cancelled")
  }

  func testRunTaskOfAScreenWithoutATaskReturnsAtOnce() async throws {
    let relua = try ReluaRuntime()
    let store = try relua.makeStore(try relua.loadFeature(source: Self.meetings, name: "Meetings.lua"))
    try await store.runTask(of: try XCTUnwrap(store.screens.first))
    XCTAssertEqual(store.state, try relua.makeStore(try relua.loadFeature(source: Self.meetings, name: "M.lua")).state)
  }

  static let identified = """
    local relua = require "relua"
    local Sheet = relua.feature "Sheet" {
      state = { id = 0 },
      actions = { onTask = {}, renumber = {} },
      task = "onTask",
      reduce = relua.on { renumber = function(s) s.id = s.id + 10 end },
    }
    return relua.feature "Root" {
      state = { id = 1, sheet = nil },
      actions = { onTask = {}, renumber = {}, present = "integer" },
      task = "onTask",
      compose = { relua.presents("sheet", Sheet) },
      reduce = relua.on {
        renumber = function(s) s.id = s.id + 1 end,
        present = function(s, id) s.sheet = { id = id } end,
      },
    }
    """

  func testAPresentedScreenWithAnotherIdIsANewScreenButTheRootWithAnotherIdIsNot() async throws {
    let relua = try ReluaRuntime()
    let store = try relua.makeStore(try relua.loadFeature(source: Self.identified, name: "Root.lua"))
    let tasks = ScreenTasks()
    func look() -> [String] { tasks.update(feature: store.feature, state: store.state).map(\.action) }
    XCTAssertEqual(look(), ["onTask"])
    try store.send("renumber")
    XCTAssertEqual(look(), [], "the root is the same screen whatever its id")
    try store.send("present", 1)
    XCTAssertEqual(look(), ["sheet.onTask"])
    try store.send("present", 2)
    XCTAssertEqual(look(), ["sheet.onTask"], "a destination replaced by one with another id")
    try store.send("sheet.renumber")
    XCTAssertEqual(look(), ["sheet.onTask"], "as the store sees it: its effects were cancelled")
  }

  func testScreenTasksSendsEachAppearingScreensTaskOnceAndCancelsItWhenTheScreenGoes() async throws {
    let relua = try ReluaRuntime()
    let store = try relua.makeStore(try relua.loadFeature(source: Self.meetings, name: "Meetings.lua"))
    let tasks = ScreenTasks()
    func look() throws -> [String] {
      let appeared = tasks.update(feature: store.feature, state: store.state)
      for appearance in appeared { tasks.started(try store.send(appearance.action), for: appearance) }
      return appeared.map(\.action)
    }
    XCTAssertEqual(try look(), [])
    try store.send("start")
    XCTAssertEqual(try look(), ["path[id=0].record.onTask", "path[id=0].record.timer.start"])
    XCTAssertEqual(try look(), [], "a screen still shown is not sent its task again")
    try store.send("start")
    XCTAssertEqual(try look(), ["path[id=1].record.onTask", "path[id=1].record.timer.start"], "one covered stays shown")
    let running = store.object.store.effectsInFlight
    XCTAssertEqual(running, 2)
    // A state put back without an action (an undo): the screens that went have their tasks cancelled.
    store.object.restore(FeatureStateShape.conform(try Value(json: #"{"path": []}"#), to: store.feature))
    XCTAssertEqual(try look(), [])
    XCTAssertEqual(store.object.store.effectsInFlight, 0)
  }
}
