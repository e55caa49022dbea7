-- Bad input at navigation's edges: an action for a child that is not there (a wrong id, a
-- dismiss with nothing presented, an optional child that is nil), a push of a kind the stack
-- does not hold. Each gives a message naming the place (the compose line) and the feature, and
-- changes nothing: the parent's handler for the action does not run either (relua differs from
-- TCA here on purpose: TCA lets the parent see the action; see docs/DSL.md).
local relua = require "relua"
local feature, on = relua.feature, relua.on

local Row = feature "Row" { state = { id = 0, on = false }, actions = { toggle = {} }, reduce = on { toggle = function(s) s.on = not s.on end } }
local Detail = feature "Detail" { state = { count = 0 }, actions = { increment = {} }, reduce = on { increment = function(s) s.count = s.count + 1 end } }

local Parent = feature "Parent" {
  state = { rows = { { id = 1, on = false } }, path = {}, seen = 0 },
  compose = {
    relua.forEach("rows", Row), relua.presents("destination", { detail = Detail }), relua.optional("child", Detail), relua.stack("path", { detail = Detail }), relua.presents("sheet", Detail),
  },
  reduce = on {
    ["rows.toggle"] = function(s) s.seen = s.seen + 1 end,
    ["destination.dismiss"] = function(s) s.seen = s.seen + 1 end,
    ["destination.detail.increment"] = function(s) s.seen = s.seen + 1 end,
    ["child.increment"] = function(s) s.seen = s.seen + 1 end,
    ["path.popFrom"] = function(s) s.seen = s.seen + 1 end,
    ["path.detail.increment"] = function(s) s.seen = s.seen + 1 end,
    ["sheet.increment"] = function(s) s.seen = s.seen + 1 end,
    ["sheet.dismiss"] = function(s) s.seen = s.seen + 1 end,
  },
}

local place = "navigation_bad_input_test.lua:15" -- the line of the compose entries

describe("an action for a child that is not there", function()
  for _, case in ipairs {
    { "rows[id=5].toggle", nil, 'A "forEach" at "Scripts/Tests/' .. place .. ' (Parent.rows)" received an action for a missing element (id: 5)' },
    { "destination.dismiss", nil, '(Parent.destination)" received a dismiss action when destination state was absent' },
    { "destination.detail.increment", nil, '(Parent.destination)" received a presentation action when destination state was absent' },
    { "child.increment", nil, 'An "ifLet" at "Scripts/Tests/' .. place .. ' (Parent.child)" received a child action when child state was nil' },
    { "path[id=3].detail.increment", nil, '(Parent.path)" received an action for a missing element (id: #3)' },
    { "path.popFrom", 7, '(Parent.path)" received "popFrom" for a missing element (id: #7)' },
    { "sheet.increment", nil, '(Parent.sheet)" received a presentation action when destination state was absent' },
    { "sheet.dismiss", nil, '(Parent.sheet)" received a dismiss action when destination state was absent' },
  } do
    it(case[1] .. " is a warning naming the place and the feature, and changes nothing", function()
      local store = relua.TestStore(Parent)
      if case[2] then store:send(case[1], case[2]) else store:send(case[1]) end
      local warnings = store:warnings()
      expect(#warnings).to_be(1)
      expect(warnings[1]).to_contain(case[3])
      expect(warnings[1]).to_contain("The action was ignored.")
      expect(store:state().seen).to_be(0)
    end)
  end
end)

describe("a push the stack cannot take", function()
  it("is an error at the sender's line naming the stack and its feature; nothing changes", function()
    local store = relua.Store(Parent)
    local ok, err = pcall(store.send, store, "path.push", { row = {} })
    expect(ok).to_be(false)
    expect(tostring(err)).to_match("^Scripts/Tests/navigation_bad_input_test%.lua:%d+: path%.push of Parent %(the stack at Scripts/Tests/" .. place:gsub("%.", "%%.") .. "%): 'row' is not a kind of this stack; it holds detail; nothing was pushed")
    expect(#store:state().path).to_be(0)
  end)

  it("an undeclared path is an error naming what the stack accepts", function()
    local store = relua.Store(Parent)
    local ok, err = pcall(store.send, store, "path[id=0].row.toggle")
    expect(ok).to_be(false)
    expect(tostring(err)).to_contain("the stack 'path' holds detail, not 'row'")
  end)
end)
