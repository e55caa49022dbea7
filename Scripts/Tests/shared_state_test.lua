-- Shared state (TCA's @Shared): holders in several places of the tree, keys, errors, test isolation.
local relua = require "relua"
local feature, on, Effect = relua.feature, relua.on, relua.Effect

local Count = relua.inMemory("count")

local Child = feature "Child" {
  state = { count = 0 },
  shared = { count = Count },
  actions = { increment = {} },
  reduce = on { increment = function(s) s.count = s.count + 1 end },
}

local Parent = feature "Parent" {
  state = { count = 0, seen = -1, child = { count = 0 } },
  shared = { count = Count },
  actions = { reset = {} },
  compose = { relua.scope("child", Child) },
  reduce = on {
    reset = function(s) s.count = 0 end,
    -- runs after the child in the same send: sees the child's write at once
    ["child.increment"] = function(s) s.seen = s.count end,
  },
}

test("a write through one holder is seen by every holder, in the same step", function()
  local store = relua.TestStore(Parent)
  store:send("child.increment", function(s) s.child.count = 1; s.count = 1; s.seen = 1 end)
  store:send("child.increment", function(s) s.child.count = 2; s.count = 2; s.seen = 2 end)
  store:send("reset", function(s) s.child.count = 0; s.count = 0 end)
  expect(store:shared(Count)).to_be(0)
end)

test("each test store starts from fresh shares", function()
  local a = relua.TestStore(Parent)
  a:send("child.increment", function(s) s.child.count = 1; s.count = 1; s.seen = 1 end)
  local b = relua.TestStore(Parent)
  expect(b:state("count")).to_be(0)
  expect(b:shared(Count)).to_be(0)
end)

test("a test sets a shared value directly; every holder takes it", function()
  local store = relua.TestStore(Parent)
  store:setShared(Count, 41)
  expect(store:state("child.count")).to_be(41)
  store:send("child.increment", function(s) s.child.count = 42; s.count = 42; s.seen = 42 end)
end)

test("a failed send gives the share back", function()
  local Failing = feature "Failing" {
    state = { count = 0 },
    shared = { count = Count },
    actions = { bump = {} },
    reduce = on { bump = function(s) s.count = 99; error("no") end },
  }
  local store = relua.TestStore(Failing)
  local ok, message = pcall(function() store:send("bump") end)
  expect(ok).to_be(false)
  expect(message).to_contain("no")
  expect(store:shared(Count)).to_be(0)
  expect(store:state("count")).to_be(0)
end)

-- A list shared by a list screen and the detail screens pushed on a stack (TCA's $items[id:]).
local Items = relua.inMemory("items")

local Detail = feature "Detail" {
  state = { item = { id = 0, title = "" } },
  shared = { item = Items:element(), items = Items },
  actions = { rename = "string", delete = {} },
  reduce = on {
    rename = function(s, title) s.item.title = title end,
    delete = function(s)
      for i, item in ipairs(s.items) do
        if item.id == s.item.id then table.remove(s.items, i) break end
      end
    end,
  },
}

local List = feature "List" {
  state = { items = relua.identified {}, path = {} },
  shared = { items = Items },
  actions = { add = "string", open = "integer" },
  compose = { relua.stack("path", { detail = Detail }) },
  reduce = on {
    add = function(s, title) s.items[#s.items + 1] = { id = #s.items + 1, title = title } end,
    open = function(s, id) relua.push(s.path, { detail = { item = copy(s.items[id]), items = copy(s.items) } }) end,
  },
}

test("a detail holds one element of the shared list; the list sees its edits", function()
  local store = relua.TestStore(List)
  store:send("add", "milk", function(s) s.items[1] = { id = 1, title = "milk" } end)
  store:send("open", 1, function(s)
    s.path[1] = { id = 0, detail = { item = { id = 1, title = "milk" }, items = { { id = 1, title = "milk" } } } }
  end)
  store:send("path[id=0].detail.rename", "oat milk", function(s)
    s.items[1].title = "oat milk"
    s.path[1].detail.item.title = "oat milk"
    s.path[1].detail.items[1].title = "oat milk"
  end)
end)

test("a screen tested alone can delete from the shared list", function()
  local store = relua.TestStore(Detail, { state = { item = { id = 2, title = "" } } })
  store:setShared(Items, { { id = 1, title = "milk" }, { id = 2, title = "eggs" } })
  expect(store:state("item.title")).to_be("eggs")
  store:setShared(Items:element(), { id = 2, title = "brown eggs" })
  expect(store:state("item.title")).to_be("brown eggs")
  store:send("delete", function(s) table.remove(s.items, 2) end)
  expect(#store:shared(Items)).to_be(1)
end)

test("a read-only share cannot be written", function()
  local Reader = feature "Reader" {
    state = { count = 0 },
    shared = { count = Count:readOnly() },
    actions = { bump = {} },
    reduce = on { bump = function(s) s.count = 1 end },
  }
  local store = relua.TestStore(Reader)
  local ok, message = pcall(function() store:send("bump") end)
  expect(ok).to_be(false)
  expect(message).to_contain("read-only share")
  expect(store:shared(Count)).to_be(0)
end)

test("a field of a shared record", function()
  local Settings = relua.inMemory("settings")
  local Theme = feature "Theme" {
    state = { theme = "light" },
    shared = { theme = Settings:field("theme") },
    actions = { dark = {} },
    reduce = on { dark = function(s) s.theme = "dark" end },
  }
  local store = relua.TestStore(Theme)
  store:setShared(Settings, { theme = "light", size = 12 })
  store:send("dark", function(s) s.theme = "dark" end)
  expect(store:shared(Settings).size).to_be(12)
  expect(store:shared(Settings).theme).to_be("dark")
end)

-- fileStorage in a test: files in memory, given by the test.
local Saved = relua.fileStorage("saved.json")
local Notes = feature "Notes" {
  state = { notes = {} },
  shared = { notes = Saved },
  actions = { add = "string" },
  reduce = on { add = function(s, text) s.notes[#s.notes + 1] = text end },
}

test("fileStorage reads the test's files and writes them back", function()
  local store = relua.TestStore(Notes, { files = { ["saved.json"] = '["a"]' } })
  expect(store:state("notes")[1]).to_be("a")
  store:send("add", "b", function(s) s.notes[2] = "b" end)
  expect(relua.fromJSON(store:files()["saved.json"])[2]).to_be("b")
end)

test("a missing file gives the default", function()
  local store = relua.TestStore(Notes)
  expect(#store:state("notes")).to_be(0)
  expect(store:sharedError(Saved)).to_be(nil)
end)

test("a corrupt file is a load error, kept aside before the next save", function()
  local store = relua.TestStore(Notes, { files = { ["saved.json"] = '["a", oops' } })
  expect(#store:state("notes")).to_be(0)
  expect(store:sharedError(Saved)).to_contain("not valid JSON")
  store:send("add", "b", function(s) s.notes[1] = "b" end)
  local files = store:files()
  local aside
  for name, contents in pairs(files) do
    if name:match("^saved%.json%.corrupt%-") then aside = contents end
  end
  expect(aside).to_be('["a", oops')
  expect(files["saved.json"]).to_contain('"b"')
end)

test("a file of the wrong shape is a load error too", function()
  local store = relua.TestStore(Notes, { files = { ["saved.json"] = '"just text"' } })
  expect(store:sharedError(Saved)).to_contain("holds")
  expect(#store:state("notes")).to_be(0)
end)

test("appStorage keeps small values in the app's file", function()
  local Flag = relua.appStorage("onboarded")
  local Onboarding = feature "Onboarding" {
    state = { onboarded = false },
    shared = { onboarded = Flag },
    actions = { finish = {} },
    reduce = on { finish = function(s) s.onboarded = true end },
  }
  local store = relua.TestStore(Onboarding, { files = { appStorage = '{"other": 3}' } })
  store:send("finish", function(s) s.onboarded = true end)
  local saved = relua.fromJSON(store:files().appStorage)
  expect(saved.onboarded).to_be(true)
  expect(saved.other).to_be(3)
end)

test("an effect writes a share with withLock; the change is asserted at the next step", function()
  local Ticker = feature "Ticker" {
    state = { count = 0, done = false },
    shared = { count = Count },
    actions = { start = {}, finished = {} },
    reduce = on {
      start = function() return Effect.run(function(send)
        Count:withLock(function(n) return n + 10 end)
        send("finished")
      end) end,
      finished = function(s) s.done = true end,
    },
  }
  local store = relua.TestStore(Ticker)
  store:send("start")
  store:receive("finished", function(s) s.count = 10; s.done = true end)
end)

test("an unknown kind of key is an error naming the known ones", function()
  local Odd = feature "Odd" { state = { x = 0 }, shared = { x = relua.sharedKey("nope", 1) } }
  local ok, message = pcall(relua.TestStore, Odd)
  expect(ok).to_be(false)
  expect(tostring(message)).to_contain("no kind of shared key is called 'nope'")
end)

test("keys print as a script writes them", function()
  expect(tostring(Count)).to_be('inMemory("count")')
  expect(tostring(Items:element())).to_be('inMemory("items"):element()')
  expect(tostring(Count:readOnly())).to_be('inMemory("count"):readOnly()')
  expect(tostring(relua.fileStorage("a.json"):field("settings.theme"))).to_be('fileStorage("a.json"):field("settings.theme")')
end)

test("a field path deeper than state nests is refused", function()
  local Deep = feature "Deep" {
    state = { x = 0 },
    shared = { x = relua.inMemory("deep"):field(("a."):rep(300000) .. "b") },
  }
  local ok, message = pcall(relua.TestStore, Deep)
  expect(ok).to_be(false)
  expect(tostring(message)).to_contain("key:field: a path of 300001 fields; state nests at most 200 tables deep")
end)

test("declarations are checked", function()
  local ok, message = pcall(feature "Bad", { shared = { x = 1 } })
  expect(ok).to_be(false)
  expect(message).to_contain("shared.x must be a shared key")
end)

test("a shared change asserted at one of its places is expected at all of them", function()
  local store = relua.TestStore(Parent)
  -- Only the child's copy is written here; the parent's copy (and `seen`) follow from the share.
  store:send("child.increment", function(s) s.child.count = 1; s.seen = 1 end)
  store:send("child.increment", function(s) s.count = 2; s.seen = 2 end)
end)

describe("shared keys' writes from Lua: each refusal says why and changes nothing", function()
  local Writer = feature "Writer" {
    state = { count = 0, outcome = "" },
    shared = { count = Count },
    actions = { inReducer = {}, readOnly = {}, awaits = {}, done = "string" },
    reduce = on {
      inReducer = function() Count:set(5) end,
      readOnly = function() return Effect.run(function(send)
        local ok, message = pcall(function() Count:readOnly():withLock(function(n) return n + 1 end) end)
        send("done", ok and "written" or tostring(message))
      end) end,
      awaits = function(_, _, deps) return Effect.run(function(send)
        local ok, message = pcall(function() Count:withLock(function(n) deps.clock.sleep(1); return n + 1 end) end)
        send("done", ok and "written" or tostring(message))
      end) end,
      done = function(s, outcome) s.outcome = outcome end,
    },
  }

  it("set in a reducer is a write of its send (TCA's withLock in a reducer), not a refusal", function()
    local store = relua.TestStore(Writer)
    store:send("inReducer", function(s) s.count = 5 end)
    expect(store:shared(Count)).to_be(5)
  end)

  it("a reducer's withLock is given back with the rest of a failed send", function()
    local Failing = feature "FailingWriter" {
      state = { count = 0 },
      shared = { count = Count },
      actions = { bump = {} },
      reduce = on { bump = function() Count:withLock(function(n) return n + 7 end); error("no") end },
    }
    local store = relua.TestStore(Failing)
    local ok, message = pcall(function() store:send("bump") end)
    expect(ok).to_be(false)
    expect(message).to_contain("no")
    expect(store:shared(Count)).to_be(0)
    expect(store:state("count")).to_be(0)
  end)

  it("a reducer writes a share its feature does not hold; the holders elsewhere take it", function()
    local Remover = feature "Remover" {
      state = {},
      actions = { clear = {} },
      reduce = on { clear = function() Count:withLock(function() return 0 end) end },
    }
    local Both = feature "Both" {
      state = { count = 0, remover = {} },
      shared = { count = Count },
      actions = { set = "integer" },
      compose = { relua.scope("remover", Remover) },
      reduce = on { set = function(s, n) s.count = n end },
    }
    local store = relua.TestStore(Both)
    store:send("set", 3, function(s) s.count = 3 end)
    store:send("remover.clear", function(s) s.count = 0 end)
  end)

  it("withLock on a read-only key", function()
    local store = relua.TestStore(Writer)
    store:exhaustive(false)
    store:send("readOnly")
    store:receive("done")
    expect(store:state("outcome")).to_contain('inMemory("count"):readOnly():withLock: inMemory("count"):readOnly() is read-only')
    expect(store:shared(Count)).to_be(0)
    expect(store:state("count")).to_be(0)
  end)

  it("withLock whose function awaits", function()
    local store = relua.TestStore(Writer, { deps = { clock = "test" } })
    store:exhaustive(false)
    store:send("awaits")
    store:receive("done")
    -- (withLock runs the function in a coroutine of its own, where an await is refused.)
    expect(store:state("outcome")).to_contain("'deps.clock.sleep' is asynchronous and cannot wait inside a coroutine of the script's own")
    expect(store:shared(Count)).to_be(0)
    expect(store:state("count")).to_be(0)
  end)

  it("withLock whose function yields", function()
    local store = relua.TestStore(Writer)
    local ok, message = pcall(function() Count:withLock(function() coroutine.yield() end) end)
    expect(ok).to_be(false)  -- outside a store, the runtime's share: refused before anything is written
    expect(tostring(message)).to_contain('inMemory("count"):withLock: the function awaited; a locked change cannot wait')
    expect(store:shared(Count)).to_be(0)
  end)

  it("a test setting an element the share does not have", function()
    local store = relua.TestStore(List)
    local ok, message = pcall(function() store:setShared(Items:element(), { id = 9, title = "x" }) end)
    expect(ok).to_be(false)
    expect(message).to_contain('inMemory("items"):element() has no element with id 9')
    expect(#store:shared(Items)).to_be(0)
  end)
end)

test("a test given the real files (files = \"disk\") stays inside the sandbox's roots", function()
  local Outside = feature "Outside" {
    state = { notes = {} },
    shared = { notes = relua.fileStorage("../../outside-the-sandbox.json") },
  }
  expect(function() relua.TestStore(Outside, { files = "disk" }) end).to_error("outside the directories this script may use")
  -- In memory, a test may name any file: nothing leaves the process.
  expect(#relua.TestStore(Outside):state("notes")).to_be(0)
end)
