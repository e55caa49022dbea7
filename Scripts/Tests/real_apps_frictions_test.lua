-- Frictions met playing the records app in the REPL (Scripts/Features/Records.lua), pinned as
-- the store behaves, step for step: what the REPL explains rather than changes.
--   * A parent's action sent while its sheet is open presents the sheet again: the draft is
--     replaced, as TCA's reducer would replace it (`s.form = draft(record)`). The REPL covers the
--     parent (`:edit` on the sheet names `:path[id=0].detail.edit` without sending it) and notes
--     the replacement when the path is sent.
--   * An action for an element id that is not there is ignored with a warning by the store
--     (TCA's "forEach received an action for a missing element"); the REPL refuses it up front
--     with one message.
--   * The reading clock's ticks are each their own received action, however the REPL shows them.
local relua = require "relua"
local Records = require "Features.Records"

local function dune() return { id = 1, title = "Dune", notes = "A desert planet.", favourite = true } end
local function storeWithDune()
  return relua.TestStore(Records, { files = { ["records.json"] = relua.toJSON { dune() } }, deps = { clock = "test" } })
end
local function draft(title) return { heading = "Edit record", title = title, notes = "A desert planet.", favourite = true } end

describe("Records in the REPL: a parent's action while its sheet is open", function()
  it("edit sent again presents a fresh draft: what was typed is replaced", function()
    local store = storeWithDune()
    store:send("open", 1, function(s) s.path[1] = { id = 0, detail = { record = dune(), secondsViewed = 0 } } end)
    store:receive("path[id=0].detail.onAppear")
    store:send("path[id=0].detail.edit", function(s) s.path[1].detail.form = draft("Dune") end)
    store:send("path[id=0].detail.form.binding.title", "Dune Messiah", function(s)
      s.path[1].detail.form.title = "Dune Messiah"
    end)
    store:send("path[id=0].detail.edit", function(s) s.path[1].detail.form.title = "Dune" end)
    store:send("path.popFrom", 0, function(s) s.path = {} end)
  end)

  it("expecting the draft kept fails, showing the title it replaced", function()
    local store = storeWithDune()
    store:send("open", 1, function(s) s.path[1] = { id = 0, detail = { record = dune(), secondsViewed = 0 } } end)
    store:receive("path[id=0].detail.onAppear")
    store:send("path[id=0].detail.edit", function(s) s.path[1].detail.form = draft("Dune") end)
    store:send("path[id=0].detail.form.binding.title", "Dune Messiah", function(s)
      s.path[1].detail.form.title = "Dune Messiah"
    end)
    -- (No expectation: the state was expected to stay as it was, draft and all.)
    local ok, message = pcall(store.send, store, "path[id=0].detail.edit")
    expect(ok).to_be(false)
    expect(tostring(message)).to_be("State was not expected to change, but a change occurred: …\n\n"
      .. "      {\n"
      .. "        path = {\n"
      .. "          [id=0] = {\n"
      .. "            detail = {\n"
      .. "              form = {\n"
      .. "                … (3 unchanged)\n"
      .. "    −           title = \"Dune Messiah\",\n"
      .. "    +           title = \"Dune\",\n"
      .. "              },\n"
      .. "              … (2 unchanged)\n"
      .. "            },\n"
      .. "            … (1 unchanged)\n"
      .. "          },\n"
      .. "        },\n"
      .. "        … (1 unchanged)\n"
      .. "      }\n\n"
      .. "(Expected: −, Actual: +)")
    store:send("path.popFrom", 0, function(s) s.path = {} end)
  end)
end)

describe("Records in the REPL: an element id that is not there", function()
  it("the stack ignores the action and warns, naming the id; nothing changes", function()
    local store = storeWithDune()
    store:send("path[id=999].detail.toggleFavourite")  -- no expectation: nothing changes
    local warnings = store:warnings()
    expect(#warnings).to_be(1)
    expect(warnings[1]).to_contain("received an action for a missing element (id: #999)")
    expect(store:state("path")).to_equal({})
  end)
end)

describe("Records in the REPL: the reading clock", function()
  it("each tick is its own received action, in order", function()
    local store = storeWithDune()
    store:send("open", 1, function(s) s.path[1] = { id = 0, detail = { record = dune(), secondsViewed = 0 } } end)
    store:receive("path[id=0].detail.onAppear")
    store:advance(3)
    store:receive("path[id=0].detail.timerTicked", function(s) s.path[1].detail.secondsViewed = 1 end)
    store:receive("path[id=0].detail.timerTicked", function(s) s.path[1].detail.secondsViewed = 2 end)
    store:receive("path[id=0].detail.timerTicked", function(s) s.path[1].detail.secondsViewed = 3 end)
    expect(function() store:receive("path[id=0].detail.timerTicked") end)
      .to_error("Expected to receive an action")
    store:send("path.popFrom", 0, function(s) s.path = {} end)
  end)
end)
