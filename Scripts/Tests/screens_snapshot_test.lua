-- Screen snapshots of the example features (Scripts/Features): each screen as the REPL shows it
-- (the breadcrumb, then the top screen's view), stored in __snapshots__/screens_snapshot_test.lua/.
-- A view that changes fails here with a line diff; `relua test --update-snapshots` takes the new
-- screens (review the diff of the stored files before committing them).
local relua = require "relua"

-- A test store that checks screens only: its sends assert no state (TCA's non-exhaustive store).
local function screensOf(feature, options)
  local store = relua.TestStore(feature, options)
  store:exhaustive(false)
  return store
end

describe("Counter", function()
  it("counts", function()
    local store = screensOf(require "Features.Counter", { deps = { uuid = "incrementing", random = { 5 } } })
    assert.screen(store)
    store:send("increment")
    store:send("increment")
    assert.screen(store, "two")
  end)
end)

describe("Guessing game", function()
  local Game = require "Features.GuessingGame"
  local function newStore() return screensOf(Game, { deps = { uuid = "incrementing", random = { 5, -3, 7 } } }) end

  it("plays a round, then shows and edits the results", function()
    local store = newStore()
    assert.screen(store, "fresh")
    store:send("counter.setCount", 5)
    assert.screen(store, "at the secret")
    store:send("counter.playNext")
    store:send("counter.playNext")
    assert.screen(store, "two played")
    store:send("showResults")
    assert.screen(store, "results")
    store:send("destination.results.remove", { 1 })
    assert.screen(store, "one removed")
    store:send("destination.dismiss")
    assert.screen(store, "back")
  end)
end)

describe("Records", function()
  local Records = require "Features.Records"
  local function record(id, title, notes, favourite)
    return { id = id, title = title, notes = notes or "", favourite = favourite or false }
  end
  local function newStore(records)
    return screensOf(Records, { files = { ["records.json"] = relua.toJSON(records or {}) }, deps = { clock = "test" } })
  end

  it("lists, opens, edits and deletes", function()
    assert.screen(newStore(), "empty")
    local store = newStore { record(1, "Dune", "A desert planet.", true), record(2, "Piranesi") }
    assert.screen(store, "list")
    store:send("open", 1)
    assert.screen(store, "detail")
    store:send("add")
    assert.screen(store, "form")
    local deleting = newStore { record(1, "Dune") }
    deleting:send("delete", 1)
    assert.screen(deleting, "delete alert")
  end)
end)

describe("Repository search", function()
  local Search = require "Features.RepositorySearch"
  -- Two repositories for "tca", as GitHub's search answers (the stub the search's tests use).
  local function github(query)
    if query.q ~= "tca" then return nil, { kind = "http", status = 503, message = "Service Unavailable" } end
    local items = {}
    for id = 1, 2 do
      items[id] = {
        id = id, name = "repo" .. id, full_name = "owner/repo" .. id,
        owner = { login = "owner", avatar_url = "https://example.com/a.png" },
        html_url = "https://github.com/owner/repo" .. id, stargazers_count = 10 * id, forks_count = id,
        language = "Swift", description = id == 1 and "a repository" or nil,
      }
    end
    return { total_count = 2, incomplete_results = false, items = items }
  end

  it("searches, opens a repository, and shows a failure", function()
    local store = screensOf(Search, { deps = { clock = "test", github = github } })
    assert.screen(store, "idle")
    store:send("binding.query", "tca")
    assert.screen(store, "searching")
    store:advance(0.3)
    store:receive("searchResponse")
    assert.screen(store, "results")
    store:send("items[id=1].binding.liked", true)
    store:send("binding.showFavoritesOnly", true)
    assert.screen(store, "favourites only")
    store:send("items[id=1].tapped")
    assert.screen(store, "detail")
    store:send("path.popFrom", store:state("path")[1].id)
    store:send("binding.query", "down")
    store:advance(0.3)
    store:receive("searchResponse")
    assert.screen(store, "failure alert")
  end)
end)

describe("Case studies", function()
  local function case(name) return (require("Features.CaseStudies." .. name)) end

  it("Counter", function()
    local store = screensOf(case "Counter")
    store:send("increment")
    assert.screen(store)
  end)

  it("Alerts and confirmation dialogs", function()
    local store = screensOf(case "AlertsAndConfirmationDialogs")
    assert.screen(store, "root")
    store:send("alertButtonTapped")
    assert.screen(store, "alert")
    store:send("alert.dismiss")
    store:send("confirmationDialogButtonTapped")
    assert.screen(store, "confirmation dialog")
  end)

  it("Destinations", function()
    local store = screensOf(case "Destinations", { deps = { clock = "test" } })
    assert.screen(store, "root")
    store:send("showCounter")
    assert.screen(store, "counter")
    store:send("destination.dismiss")
    store:send("showAnimations")
    assert.screen(store, "animations")
    store:send("destination.dismiss")
    store:send("showAlert")
    assert.screen(store, "alert")
  end)

  it("Stack", function()
    local store = screensOf(case "Stack", { deps = { clock = "test" } })
    assert.screen(store, "root")
    store:send("pushDetail")
    store:send("pushDetail")
    assert.screen(store, "two deep")
  end)

  it("Optional state", function()
    local store = screensOf(case "OptionalState")
    assert.screen(store, "nil")
    store:send("toggleCounter")
    assert.screen(store, "counter")
  end)

  it("Load then navigate", function()
    local store = screensOf(case "LoadThenNavigate", { deps = { clock = "test" } })
    assert.screen(store, "root")
    store:send("setNavigation", true)
    assert.screen(store, "loading")
    store:advance(1)
    store:receive("setNavigationIsActiveDelayCompleted")
    assert.screen(store, "loaded")
  end)

  it("Navigate and load", function()
    local store = screensOf(case "NavigateAndLoad", { deps = { clock = "test" } })
    assert.screen(store, "root")
    store:send("setNavigation", true)
    assert.screen(store, "loading")
    store:advance(1)
    store:receive("setNavigationIsActiveDelayCompleted")
    assert.screen(store, "loaded")
  end)

  it("Recursion", function()
    local store = screensOf(case "Recursion", { deps = { uuid = "incrementing" } })
    store:send("addRow")
    store:send("addRow")
    assert.screen(store)
  end)

  it("Shared state", function()
    local store = screensOf(case "SharedState")
    assert.screen(store, "counter tab")
    store:send("counter.increment")
    store:send("counter.isPrimeButtonTapped")
    assert.screen(store, "prime alert")
    store:send("counter.alertDismissed")
    store:send("selectTab", "profile")
    assert.screen(store, "profile tab")
  end)

  it("Timers, long-living effects, concurrent effects and the web socket, as they open", function()
    assert.screen(screensOf(case "Timers", { deps = { clock = "test" } }), "timers")
    assert.screen(screensOf(case "LongLivingEffects"), "long-living effects")
    assert.screen(screensOf(case "ConcurrentEffects", { deps = { clock = "test" } }), "concurrent effects")
    assert.screen(screensOf(case "WebSocket"), "web socket")
  end)
end)

describe("What a snapshot refuses", function()
  local Counter = require "Features.CaseStudies.Counter"
  local fileName = "a snapshot's name is a file name (up to 100 bytes, no '/', '\\', leading '.' or control characters): got "

  it("a name that could leave the snapshots' folder, or is used twice", function()
    local store = relua.TestStore(Counter)
    expect(function() assert.screen(store, "../outside") end).to_error(fileName .. '"../outside"')
    expect(function() assert.screen(store, "a/b") end).to_error(fileName .. '"a/b"')
    expect(function() expect(store):to_match_screen(".hidden") end).to_error(fileName .. '".hidden"')
    expect(function() assert.screen(store, 42) end).to_error("a snapshot's name is text, got number")
    assert.screen(store, "once")
    expect(function() assert.screen(store, "once") end)
      .to_error("the snapshot 'once' was already taken in this test (names are unique per test)")
  end)

  it("what is not a store", function()
    expect(function() assert.screen({}) end)
      .to_error("a screen snapshot takes a store (relua.Store or relua.TestStore), got table")
  end)
end)

describe("SyncUps", function()
  local SyncUps = require "Features.SyncUps"
  local Models = SyncUps.Models

  it("the list, adding one, its detail, editing it, a past meeting, and deleting it", function()
    local store = screensOf(SyncUps, {
      files = { ["sync-ups.json"] = relua.toJSON { Models.mock() } }, deps = { uuid = "incrementing" },
    })
    assert.screen(store, "list")
    store:send("syncUpsList.addSyncUpButtonTapped")
    assert.screen(store, "add")
    store:send("syncUpsList.dismissAddSyncUpButtonTapped")
    store:send("syncUpTapped", 1)
    assert.screen(store, "detail")
    local id = store:state("path")[1].id
    store:send(("path[id=%d].detail.editButtonTapped"):format(id))
    assert.screen(store, "edit")
    store:send(("path[id=%d].detail.cancelEditButtonTapped"):format(id))
    store:send(("path[id=%d].detail.meetingTapped"):format(id), 1)
    assert.screen(store, "meeting")
    store:send("path.popFrom", store:state("path")[2].id)
    store:send(("path[id=%d].detail.deleteButtonTapped"):format(id))
    assert.screen(store, "delete alert")
  end)

  it("recording a meeting", function()
    local store = screensOf(SyncUps.Record, {
      state = SyncUps.Record.State(Models.mock()),
      deps = { clock = "test", speechClient = { requestAuthorization = function() return "denied" end } },
    })
    assert.screen(store, "starting")
  end)
end)

describe("Repository search paging", function()
  local Search = require "Features.RepositorySearch"
  -- 15 repositories for "tca", ten a page (GitHub's search as the stub answers it).
  local function github(query)
    local items = {}
    for id = (query.page - 1) * 10 + 1, math.min(query.page * 10, 15) do
      items[#items + 1] = {
        id = id, name = "repo" .. id, full_name = "owner/repo" .. id,
        owner = { login = "owner", avatar_url = "https://example.com/a.png" },
        html_url = "https://github.com/owner/repo" .. id, stargazers_count = id, forks_count = 0, language = "Lua",
      }
    end
    return { total_count = 15, incomplete_results = false, items = items }
  end

  it("loads the next page with Load more, until the last", function()
    local store = screensOf(Search, { deps = { clock = "test", github = github } })
    store:send("binding.query", "tca")
    store:advance(0.3)
    store:receive("searchResponse")
    assert.screen(store, "a page, more to load")
    store:send("items[id=10].onAppear")
    assert.screen(store, "loading more")
    store:receive("searchResponse")
    assert.screen(store, "all loaded")
  end)
end)

describe("More screens", function()
  it("Records: a new record without a title says why", function()
    local store = screensOf(require "Features.Records", { files = { ["records.json"] = "[]" }, deps = { clock = "test" } })
    store:send("add")
    store:send("destination.form.done")
    assert.screen(store, "form with a problem")
  end)

  it("SyncUps: ending a meeting asks whether to save it", function()
    local SyncUps = require "Features.SyncUps"
    local store = screensOf(SyncUps.Record, {
      state = SyncUps.Record.State(SyncUps.Models.mock()),
      deps = { clock = "test", speechClient = { requestAuthorization = function() return "denied" end } },
    })
    store:send("endMeetingButtonTapped")
    assert.screen(store, "end meeting alert")
  end)

  it("Destinations: the last answer an alert gave", function()
    local store = screensOf(require "Features.CaseStudies.Destinations", { deps = { clock = "test" } })
    store:send("showAlert")
    store:send("destination.alert.confirm")
    assert.screen(store, "answered")
  end)
end)

describe("Running effects", function()
  local function case(name) return (require("Features.CaseStudies." .. name)) end

  it("Timers: a second in", function()
    local store = screensOf(case "Timers", { deps = { clock = "test" } })
    store:send("toggleTimerButtonTapped")
    store:advance(1)
    store:receive("timerTicked")
    assert.screen(store, "running")
    store:send("toggleTimerButtonTapped")
  end)

  it("Concurrent effects: recording", function()
    local store = screensOf(case "ConcurrentEffects", { deps = { clock = "test" } })
    store:send("onTask")
    store:advance(1)
    store:receive("timerTick")
    assert.screen(store, "recording")
    store:send("endMeetingTapped")
  end)
end)
