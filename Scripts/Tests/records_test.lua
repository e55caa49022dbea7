-- The records app (Scripts/Features/Records.lua): the list, the detail on the stack, the edit
-- sheet, the delete alert, the reading clock, and records.json (in memory, per test store).
local relua = require "relua"
local Records = require "Features.Records"

local function record(id, title, notes, favourite)
  return { id = id, title = title, notes = notes or "", favourite = favourite or false }
end
local function dune() return record(1, "Dune", "A desert planet.", true) end
local function piranesi() return record(2, "Piranesi") end

-- A store whose records.json holds `records`.
local function storeWith(records, deps)
  return relua.TestStore(Records, { files = { ["records.json"] = relua.toJSON(records) }, deps = deps })
end
-- What records.json holds now.
local function saved(store) return relua.fromJSON(store:files()["records.json"]) end

local function detail(rec, seconds) return { record = rec, secondsViewed = seconds or 0 } end
local function form(heading, title, notes, favourite, problem)
  return { heading = heading, title = title, notes = notes, favourite = favourite, problem = problem }
end

describe("Records: the list and records.json", function()
  it("starts empty, with no error, when records.json is missing", function()
    local store = relua.TestStore(Records)
    expect(#store:state("records")).to_be(0)
    expect(store:sharedError(Records.Records)).to_be(nil)
    expect(store:files()["records.json"]).to_be(nil)
    expect(store:view()).to_be("No records yet.\n[Add :add]")
  end)

  it("shows the records records.json holds", function()
    local store = storeWith { dune(), piranesi() }
    expect(store:state("records")).to_equal({ dune(), piranesi() })
    expect(store:shared(Records.Records)).to_equal({ dune(), piranesi() })
    expect(store:view()).to_be(table.concat({
      "Records: 2 (1 favourite)",
      "  ★   1  Dune [Open › :open 1] [Unfavourite :toggleFavourite 1] [Delete :delete 1]",
      "      2  Piranesi [Open › :open 2] [Favourite :toggleFavourite 2] [Delete :delete 2]",
      "[Add :add]",
    }, "\n"))
  end)

  it("toggleFavourite flips a record, and the file follows", function()
    local store = storeWith { dune(), piranesi() }
    store:send("toggleFavourite", 2, function(s) s.records[2].favourite = true end)
    expect(saved(store)[2].favourite).to_be(true)
    store:send("toggleFavourite", 1, function(s) s.records[1].favourite = false end)
    expect(saved(store)).to_equal({ record(1, "Dune", "A desert planet.", false), record(2, "Piranesi", "", true) })
    expect(store:view()).to_contain("Records: 2 (1 favourite)\n      1  Dune [Open › :open 1] [Favourite :toggleFavourite 1] [Delete :delete 1]\n  ★   2  Piranesi")
  end)

  it("an unknown id is refused, and nothing changes", function()
    local store = storeWith { dune() }
    expect(function() store:send("toggleFavourite", 7) end).to_error("no record has the id 7")
    expect(function() store:send("open", 7) end).to_error("no record has the id 7")
    expect(function() store:send("delete", 7) end).to_error("no record has the id 7")
    expect(store:state("records")).to_equal({ dune() })
    expect(#store:state("path")).to_be(0)
  end)

  it("what one store saved, the next launch reads", function()
    local first = relua.TestStore(Records)
    first:send("add", function(s) s.destination = { form = form("New record", "", "", false) } end)
    first:send("destination.form.binding.title", "Dune", function(s) s.destination.form.title = "Dune" end)
    first:send("destination.form.done", function(s)
      s.records[1] = record(1, "Dune")
      s.destination = nil
    end)
    local next = relua.TestStore(Records, { files = first:files() })
    expect(next:state("records")).to_equal({ record(1, "Dune") })
  end)
end)

describe("Records: the new-record sheet", function()
  it("add presents an empty draft; save appends it with the next id and writes the file", function()
    local store = storeWith { dune(), piranesi() }
    store:send("add", function(s) s.destination = { form = form("New record", "", "", false) } end)
    store:send("destination.form.binding.title", "  Piranesi II ", function(s) s.destination.form.title = "  Piranesi II " end)
    store:send("destination.form.binding.notes", "The House.", function(s) s.destination.form.notes = "The House." end)
    store:send("destination.form.binding.favourite", true, function(s) s.destination.form.favourite = true end)
    store:send("destination.form.done", function(s)
      s.records[3] = record(3, "Piranesi II", "The House.", true)
      s.destination = nil
    end)
    expect(saved(store)).to_equal({ dune(), piranesi(), record(3, "Piranesi II", "The House.", true) })
  end)

  it("a draft without a title stays open and says why", function()
    local store = relua.TestStore(Records)
    store:send("add", function(s) s.destination = { form = form("New record", "", "", false) } end)
    store:send("destination.form.binding.title", "   ", function(s) s.destination.form.title = "   " end)
    store:send("destination.form.done", function(s)
      s.destination.form.title = ""
      s.destination.form.problem = "A record needs a title."
    end)
    expect(store:view()).to_contain("  ! A record needs a title.")
    store:send("destination.form.binding.title", "Dune", function(s) s.destination.form.title = "Dune" end)
    store:send("destination.form.done", function(s)
      s.records[1] = record(1, "Dune")
      s.destination = nil
    end)
  end)

  it("discard drops the draft: nothing is added, nothing is written", function()
    local store = relua.TestStore(Records)
    store:send("add", function(s) s.destination = { form = form("New record", "", "", false) } end)
    store:send("destination.form.binding.title", "Dune", function(s) s.destination.form.title = "Dune" end)
    store:send("destination.form.discard", function(s) s.destination = nil end)
    expect(store:files()["records.json"]).to_be(nil)
  end)

  it("dismissing the sheet (the REPL's :back) drops it too", function()
    local store = relua.TestStore(Records)
    store:send("add", function(s) s.destination = { form = form("New record", "", "", false) } end)
    store:send("destination.dismiss", function(s) s.destination = nil end)
    expect(#store:state("records")).to_be(0)
  end)

  it("the sheet's view shows the draft and its commands", function()
    expect(relua.TestStore(Records.Form, { state = form("New record", "", "", false) }):view()).to_be(table.concat({
      "New record",
      '  Title: [] (:binding.title "…")',
      '  Notes: [] (:binding.notes "…")',
      "  [ ] Favourite (:binding.favourite true)",
      "[Done :done] [Discard :discard]",
    }, "\n"))
  end)
end)

describe("Records: delete, with an alert", function()
  local function deleteAlert(title, id)
    return {
      title = ("Delete “%s”?"):format(title),
      message = "It is removed from records.json; this cannot be undone.",
      buttons = { { label = "Delete", action = "confirmDelete" }, { label = "Cancel" } },
      recordID = id,
    }
  end

  it("delete asks first; Delete removes the record from the list and the file", function()
    local store = storeWith { dune(), piranesi() }
    store:send("delete", 1, function(s) s.destination = { alert = deleteAlert("Dune", 1) } end)
    expect(store:screens()).to_equal({ "", "destination.alert" })
    store:send("destination.alert.confirmDelete", function(s)
      table.remove(s.records, 1)
      s.destination = nil
    end)
    expect(saved(store)).to_equal({ piranesi() })
  end)

  it("Cancel (a button without an action) keeps the record", function()
    local store = storeWith { dune() }
    store:send("delete", 1, function(s) s.destination = { alert = deleteAlert("Dune", 1) } end)
    store:send("destination.dismiss", function(s) s.destination = nil end)
    expect(store:state("records")).to_equal({ dune() })
    expect(store:files()["records.json"]).to_be(relua.toJSON({ dune() }))
  end)

  it("the last record deleted leaves an empty list in the file, read back as empty", function()
    local store = storeWith { piranesi() }
    store:send("delete", 2, function(s) s.destination = { alert = deleteAlert("Piranesi", 2) } end)
    store:send("destination.alert.confirmDelete", function(s)
      s.records = {}
      s.destination = nil
    end)
    expect(#saved(store)).to_be(0)
    local next = relua.TestStore(Records, { files = store:files() })
    expect(#next:state("records")).to_be(0)
    next:send("add", function(s) s.destination = { form = form("New record", "", "", false) } end)
    next:send("destination.form.binding.title", "Dune", function(s) s.destination.form.title = "Dune" end)
    next:send("destination.form.done", function(s)
      s.records[1] = record(1, "Dune")
      s.destination = nil
    end)
  end)

  it("deleting a record pops its detail screen, whose clock stops", function()
    local store = storeWith({ dune(), piranesi() }, { clock = "test" })
    store:send("open", 2, function(s) s.path[1] = { id = 0, detail = detail(piranesi()) } end)
    store:receive("path[id=0].detail.onAppear")
    store:send("delete", 2, function(s) s.destination = { alert = deleteAlert("Piranesi", 2) } end)
    store:send("destination.alert.confirmDelete", function(s)
      table.remove(s.records, 2)
      s.path = {}
      s.destination = nil
    end)
    store:advance(3)   -- no tick arrives: the clock went with the screen
  end)
end)

describe("Records: the detail screen", function()
  it("open pushes a detail holding the record; its reading clock ticks until it is popped", function()
    local store = storeWith({ dune(), piranesi() }, { clock = "test" })
    store:send("open", 1, function(s) s.path[1] = { id = 0, detail = detail(dune()) } end)
    store:receive("path[id=0].detail.onAppear")
    store:advance(1)
    store:receive("path[id=0].detail.timerTicked", function(s) s.path[1].detail.secondsViewed = 1 end)
    store:advance(2)
    store:receive("path[id=0].detail.timerTicked", function(s) s.path[1].detail.secondsViewed = 2 end)
    store:receive("path[id=0].detail.timerTicked", function(s) s.path[1].detail.secondsViewed = 3 end)
    expect(store:view()).to_be(table.concat({
      "Dune  ★",
      "  A desert planet.",
      "  Viewed for 0:03",
      "[Unfavourite :toggleFavourite] [Edit › :edit]",
    }, "\n"))
    store:send("path.popFrom", 0, function(s) s.path = {} end)
    store:advance(5)
  end)

  it("a favourite toggled on the detail is the list's, and the file's", function()
    local store = storeWith({ dune(), piranesi() }, { clock = "test" })
    store:send("open", 2, function(s) s.path[1] = { id = 0, detail = detail(piranesi()) } end)
    store:receive("path[id=0].detail.onAppear")
    store:send("path[id=0].detail.toggleFavourite", function(s)
      s.path[1].detail.record.favourite = true
      s.records[2].favourite = true
    end)
    expect(saved(store)[2].favourite).to_be(true)
    store:send("path.popFrom", 0, function(s) s.path = {} end)
  end)

  it("a change in the list reaches a detail already open (two details of one record agree)", function()
    local store = storeWith({ dune() }, { clock = "test" })
    store:send("open", 1, function(s) s.path[1] = { id = 0, detail = detail(dune()) } end)
    store:receive("path[id=0].detail.onAppear")
    store:send("open", 1, function(s) s.path[2] = { id = 1, detail = detail(dune()) } end)
    store:receive("path[id=1].detail.onAppear")
    store:send("toggleFavourite", 1, function(s)
      s.records[1].favourite = false
      s.path[1].detail.record.favourite = false
      s.path[2].detail.record.favourite = false
    end)
    store:send("path.popFrom", 0, function(s) s.path = {} end)
  end)

  it("edit presents a draft; save writes the shared record: the detail, the list and the file", function()
    local store = storeWith({ dune(), piranesi() }, { clock = "test" })
    store:send("open", 1, function(s) s.path[1] = { id = 0, detail = detail(dune()) } end)
    store:receive("path[id=0].detail.onAppear")
    store:send("path[id=0].detail.edit", function(s)
      s.path[1].detail.form = form("Edit record", "Dune", "A desert planet.", true)
    end)
    store:send("path[id=0].detail.form.binding.title", "Dune Messiah", function(s)
      s.path[1].detail.form.title = "Dune Messiah"
    end)
    store:send("path[id=0].detail.form.binding.favourite", false, function(s)
      s.path[1].detail.form.favourite = false
    end)
    -- The draft is the sheet's own: the list and the file do not see it yet.
    expect(store:state("records[1].title")).to_be("Dune")
    expect(saved(store)).to_equal({ dune(), piranesi() })
    store:send("path[id=0].detail.form.done", function(s)
      local edited = record(1, "Dune Messiah", "A desert planet.", false)
      s.path[1].detail.record = edited
      s.path[1].detail.form = nil
      s.records[1] = record(1, "Dune Messiah", "A desert planet.", false)
    end)
    expect(saved(store)).to_equal({ record(1, "Dune Messiah", "A desert planet.", false), piranesi() })
    store:send("path.popFrom", 0, function(s) s.path = {} end)
  end)

  it("edit then discard changes nothing shared", function()
    local store = storeWith({ dune() }, { clock = "test" })
    store:send("open", 1, function(s) s.path[1] = { id = 0, detail = detail(dune()) } end)
    store:receive("path[id=0].detail.onAppear")
    store:send("path[id=0].detail.edit", function(s)
      s.path[1].detail.form = form("Edit record", "Dune", "A desert planet.", true)
    end)
    store:send("path[id=0].detail.form.binding.notes", "", function(s) s.path[1].detail.form.notes = "" end)
    store:send("path[id=0].detail.form.discard", function(s) s.path[1].detail.form = nil end)
    expect(store:state("records")).to_equal({ dune() })
    store:send("path.popFrom", 0, function(s) s.path = {} end)
  end)

  it("an edit without a title stays open and writes nothing", function()
    local store = storeWith({ dune() }, { clock = "test" })
    store:send("open", 1, function(s) s.path[1] = { id = 0, detail = detail(dune()) } end)
    store:receive("path[id=0].detail.onAppear")
    store:send("path[id=0].detail.edit", function(s)
      s.path[1].detail.form = form("Edit record", "Dune", "A desert planet.", true)
    end)
    store:send("path[id=0].detail.form.binding.title", "", function(s) s.path[1].detail.form.title = "" end)
    store:send("path[id=0].detail.form.done", function(s)
      s.path[1].detail.form.problem = "A record needs a title."
    end)
    expect(saved(store)).to_equal({ dune() })
    store:send("path[id=0].detail.form.dismiss", function(s) s.path[1].detail.form = nil end)
    store:send("path.popFrom", 0, function(s) s.path = {} end)
  end)

  it("the clock goes on while the sheet is open, and stops with the screen", function()
    local store = storeWith({ dune() }, { clock = "test" })
    store:send("open", 1, function(s) s.path[1] = { id = 0, detail = detail(dune()) } end)
    store:receive("path[id=0].detail.onAppear")
    store:send("path[id=0].detail.edit", function(s)
      s.path[1].detail.form = form("Edit record", "Dune", "A desert planet.", true)
    end)
    store:advance(1)
    store:receive("path[id=0].detail.timerTicked", function(s) s.path[1].detail.secondsViewed = 1 end)
    store:send("path.popFrom", 0, function(s) s.path = {} end)
    store:advance(1)
  end)

  it("a detail tested alone edits the record in the shared list", function()
    local store = relua.TestStore(Records.Detail, {
      state = { record = record(2, ""), secondsViewed = 0 },
      files = { ["records.json"] = relua.toJSON({ dune(), piranesi() }) },
    })
    expect(store:state("record")).to_equal(piranesi())
    store:send("toggleFavourite", function(s) s.record.favourite = true end)
    expect(store:shared(Records.Records)[2]).to_equal(record(2, "Piranesi", "", true))
    expect(saved(store)[1]).to_equal(dune())
  end)

  it("a test sets the shared records; the detail holding one takes its record", function()
    local store = relua.TestStore(Records.Detail, { state = { record = record(1, "Dune"), secondsViewed = 0 } })
    store:setShared(Records.Records, { record(1, "Dune, revised", "", true) })
    expect(store:state("record")).to_equal(record(1, "Dune, revised", "", true))
  end)
end)

describe("Records: a records.json that cannot be read", function()
  it("a corrupt file is a load error: the list starts empty, and the file is kept aside at the next save", function()
    local store = relua.TestStore(Records, { files = { ["records.json"] = '[{"id": 1, "title": "Dune"' } })
    expect(#store:state("records")).to_be(0)
    expect(store:sharedError(Records.Records)).to_contain("records.json is not valid JSON")
    store:send("add", function(s) s.destination = { form = form("New record", "", "", false) } end)
    store:send("destination.form.binding.title", "Piranesi", function(s) s.destination.form.title = "Piranesi" end)
    store:send("destination.form.done", function(s)
      s.records[1] = record(1, "Piranesi")
      s.destination = nil
    end)
    local aside
    for name, contents in pairs(store:files()) do
      if name:match("^records%.json%.corrupt%-%d+$") then aside = contents end
    end
    expect(aside).to_be('[{"id": 1, "title": "Dune"')
    expect(saved(store)).to_equal({ record(1, "Piranesi") })
  end)

  it("a file of the wrong shape is a load error too", function()
    local store = relua.TestStore(Records, { files = { ["records.json"] = '"my records"' } })
    expect(store:sharedError(Records.Records)).to_contain("holds")
    expect(#store:state("records")).to_be(0)
  end)
end)
