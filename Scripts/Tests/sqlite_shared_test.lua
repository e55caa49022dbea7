-- The sqlite shared key (ReluaSQLite): a shared list that is the rows of a table. In a test store
-- the database is in memory, fresh for each store, whatever `path` says; the tests against a real
-- file are Tests/ReluaSQLiteTests.
local relua = require "relua"
local feature, on = relua.feature, relua.on

local Records = relua.sharedKey("sqlite", { path = "records.db", table = "records" })

local Detail = feature "RecordDetail" {
  state = { record = { id = 0, title = "" } },
  shared = { record = Records:element() },
  actions = { rename = "string" },
  reduce = on { rename = function(s, title) s.record.title = title end },
}

local List = feature "RecordList" {
  state = { records = relua.identified {}, path = {} },
  shared = { records = Records },
  actions = { add = "string", toggle = "integer", remove = "integer", open = "integer", tag = "integer" },
  compose = { relua.stack("path", { detail = Detail }) },
  reduce = on {
    add = function(s, title) s.records[#s.records + 1] = { id = #s.records + 1, title = title, done = false } end,
    toggle = function(s, id) s.records[id].done = not s.records[id].done end,
    remove = function(s, position) table.remove(s.records, position) end,
    open = function(s, position) relua.push(s.path, { detail = { record = copy(s.records[position]) } }) end,
    tag = function(s, position) s.records[position].tags = { "a", "b" } end,
  },
}

test("a list kept in a table: added, changed and removed rows, asserted at each step", function()
  local store = relua.TestStore(List)
  expect(store:sharedError(Records)).to_be(nil)
  store:send("add", "milk", function(s) s.records[1] = { id = 1, title = "milk", done = false } end)
  store:send("add", "eggs", function(s) s.records[2] = { id = 2, title = "eggs", done = false } end)
  store:send("toggle", 1, function(s) s.records[1].done = true end)
  store:send("remove", 2, function(s) table.remove(s.records, 2) end)
  expect(#store:shared(Records)).to_be(1)
  expect(store:shared(Records)[1].done).to_be(true)
  expect(store:sharedError(Records, "save")).to_be(nil)
end)

test("each test store starts from an empty database of its own", function()
  local a = relua.TestStore(List)
  a:send("add", "milk", function(s) s.records[1] = { id = 1, title = "milk", done = false } end)
  local b = relua.TestStore(List)
  expect(#b:state("records")).to_be(0)
  expect(#b:shared(Records)).to_be(0)
end)

test("a detail pushed on the stack edits its row; the list sees it", function()
  local store = relua.TestStore(List)
  store:setShared(Records, { { id = 1, title = "milk", done = false }, { id = 2, title = "eggs", done = true } })
  store:send("open", 2, function(s) s.path[1] = { id = 0, detail = { record = { id = 2, title = "eggs", done = true } } } end)
  store:send("path[id=0].detail.rename", "brown eggs", function(s)
    s.records[2].title = "brown eggs"
    s.path[1].detail.record.title = "brown eggs"
  end)
  expect(store:shared(Records)[2].title).to_be("brown eggs")
end)

test("a field a row cannot hold is a save error, not a crash", function()
  local store = relua.TestStore(List)
  store:send("add", "milk", function(s) s.records[1] = { id = 1, title = "milk", done = false } end)
  store:send("tag", 1, function(s) s.records[1].tags = { "a", "b" } end)
  expect(store:sharedError(Records, "save")).to_contain("records[id=1].tags is a table")
end)

test("a test store needs no path: the database is in memory anyway", function()
  local Scratch = relua.sharedKey("sqlite", { table = "scratch" })
  local Notes = feature "ScratchNotes" {
    state = { notes = relua.identified {} },
    shared = { notes = Scratch },
    actions = { add = "string" },
    reduce = on { add = function(s, text) s.notes[#s.notes + 1] = { id = text, text = text } end },
  }
  local store = relua.TestStore(Notes)
  store:send("add", "x", function(s) s.notes[1] = { id = "x", text = "x" } end)
  expect(store:shared(Scratch)[1].id).to_be("x")
end)

test("the key's argument is checked", function()
  local function storeFor(argument)
    local Bad = feature "BadSQLite" { state = { rows = {} }, shared = { rows = relua.sharedKey("sqlite", argument) } }
    local ok, message = pcall(relua.TestStore, Bad)
    expect(ok).to_be(false)
    return tostring(message)
  end
  expect(storeFor({ path = "x.db" })).to_contain("'table' must be a table name")
  expect(storeFor({ path = "x.db", table = "rows; drop table x" })).to_contain("'table' must be a table name")
  expect(storeFor({ table = "rows", colour = "red" })).to_contain("unknown option 'colour'")
  expect(storeFor({ table = "rows", columns = { title = "varchar" } })).to_contain("columns.title must be")
  expect(storeFor("records.db")).to_contain("expects a table")
end)
