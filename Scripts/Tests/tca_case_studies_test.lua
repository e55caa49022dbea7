-- Tests of TCA's SwiftUI case studies (Examples/CaseStudies/SwiftUICaseStudiesTests), ported step
-- for step to the relua DSL: alerts presented again (beside AlertsAndConfirmationDialogsTests,
-- ported against the shipped case study in case_alerts_and_dialogs_test.lua) and a recursive
-- feature (RecursionTests); and the issue's rule for empty tables in state.
--
-- Left out: EffectsCancellationTests (its factClient dependency has no DSL counterpart).
--
-- Each test is a local function named after TCA's test, declared with `port`: as `it` when relua
-- behaves as TCA does, as `pending("… — fails today: …")` when it does not yet.
local relua = require "relua"
local feature, on = relua.feature, relua.on

local port = require "Tests.Support.TCAPort"(nil)

-- AlertsAndConfirmationDialogsTests ---------------------------------------------------------

local theAlert = {
  title = "Alert!",
  message = "This is an alert",
  buttons = { { label = "Cancel", role = "cancel" }, { label = "Increment", action = "incrementButtonTapped" } },
}

-- The same, when the new alert has the same text as the one whose button was tapped: it is a
-- new alert all the same, and stays.
local function alertAgain()
  local Feature = feature "AlertAgain" {
    state = { count = 0 },
    actions = { alertButtonTapped = {} },
    compose = { relua.presents("alert", relua.alert { incrementButtonTapped = {} }) },
    reduce = on {
      ["alert.incrementButtonTapped"] = function(s)
        s.alert = theAlert
        s.count = s.count + 1
      end,
      alertButtonTapped = function(s) s.alert = theAlert end,
    },
  }
  local store = relua.TestStore(Feature)
  store:send("alertButtonTapped", function(s) s.alert = theAlert end)
  store:send("alert.incrementButtonTapped", function(s) s.count = 1 end)
  store:send("alert.incrementButtonTapped", function(s) s.count = 2 end)
  store:send("alert.dismiss", function(s) s.alert = nil end)
end
port("issue: alerts have an identity of their own", "a button presenting the same alert again leaves it showing",
  alertAgain)

-- An action of the parent's own while the alert is showing leaves it alone: only the alert's
-- buttons (and dismiss) close it.
local function alertSurvivesOtherActions()
  local Feature = feature "AlertAndCounter" {
    state = { count = 0 },
    actions = { alertButtonTapped = {}, increment = {} },
    compose = { relua.presents("alert", relua.alert { incrementButtonTapped = {} }) },
    reduce = on {
      alertButtonTapped = function(s) s.alert = theAlert end,
      increment = function(s) s.count = s.count + 1 end,
    },
  }
  local store = relua.TestStore(Feature)
  store:send("alertButtonTapped", function(s) s.alert = theAlert end)
  store:send("increment", function(s) s.count = 1 end)
  store:send("alert.incrementButtonTapped", function(s) s.alert = nil end)
end
port("issue: alerts have an identity of their own", "an action that is not the alert's leaves the alert showing",
  alertSurvivesOtherActions)

-- RecursionTests ----------------------------------------------------------------------------

-- A row holds rows like itself. The forward reference is a function: `Nested` is not yet
-- defined while its own definition is read. (Made in each test: while relua refuses it, the
-- error would otherwise stop the whole file.)
local function makeNested()
  local Nested
  Nested = feature "Nested" {
    state = function(deps) return { id = deps.uuid(), name = "", rows = {} } end,
    actions = { addRowButtonTapped = {}, nameTextFieldChanged = "string", onDelete = "integer" },
    compose = { relua.forEach("rows", function() return Nested end) },
    reduce = on {
      addRowButtonTapped = function(s, _, deps) table.insert(s.rows, { id = deps.uuid(), name = "", rows = {} }) end,
      nameTextFieldChanged = function(s, name) s.name = name end,
      onDelete = function(s, position) table.remove(s.rows, position) end,  -- TCA: an IndexSet of offsets
    },
  }
  return Nested
end

local ROOT = "11111111-1111-1111-1111-111111111111"

local function addRow()
  local store = relua.TestStore(makeNested(), { state = { id = ROOT, name = "", rows = {} }, deps = { uuid = "incrementing" } })
  store:send("addRowButtonTapped", function(s) s.rows = { { id = relua.uuid(0), name = "", rows = {} } } end)
  store:send(("rows[id=%q].addRowButtonTapped"):format(relua.uuid(0)), function(s)
    s.rows[1].rows = { { id = relua.uuid(1), name = "", rows = {} } }
  end)
end
port("TCA RecursionTests", "addRow", addRow)

local function changeName()
  local store = relua.TestStore(makeNested(), { state = { id = ROOT, name = "", rows = {} } })
  store:send("nameTextFieldChanged", "Blob", function(s) s.name = "Blob" end)
end
port("TCA RecursionTests", "changeName", changeName)

local function deleteRow()
  local function row(n) return { id = relua.uuid(n), name = "", rows = {} } end
  local store = relua.TestStore(makeNested(), { state = { id = ROOT, name = "", rows = { row(0), row(1), row(2) } } })
  store:send("onDelete", 2, function(s) s.rows = { row(0), row(2) } end)  -- TCA: IndexSet(integer: 1)
end
port("TCA RecursionTests", "deleteRow", deleteRow)

-- Empty tables ------------------------------------------------------------------------------
--
-- `{}` in state is neither a record nor a list until something is written to it: the first
-- write decides.

local EMPTY = "issue: empty tables are whatever the first write makes them"

local Values = feature "Values" {
  state = { values = {} },
  actions = { append = "integer", insert = "integer", name = "string" },
  reduce = on {
    append = function(s, x) s.values[#s.values + 1] = x end,
    insert = function(s, x) table.insert(s.values, x) end,
    name = function(s, x) s.values.name = x end,
  },
}

local function appendByIndex()
  local store = relua.TestStore(Values)
  store:send("append", 1, function(s) s.values = { 1 } end)
  store:send("append", 2, function(s) s.values = { 1, 2 } end)
end
port(EMPTY, "s.values[#s.values + 1] = x on an empty table makes it a list", appendByIndex)

local function appendByInsert()
  local store = relua.TestStore(Values)
  store:send("insert", 1, function(s) s.values = { 1 } end)
  store:send("insert", 2, function(s) s.values = { 1, 2 } end)
end
port(EMPTY, "table.insert on an empty table makes it a list", appendByInsert)

local function recordByName()
  local store = relua.TestStore(Values)
  store:send("name", "Blob", function(s) s.values = { name = "Blob" } end)
end
port(EMPTY, "a string key on an empty table makes it a record", recordByName)

local function emptyFromJSONTakesAName()
  local store = relua.TestStore(Values, { json = '{"values": []}' })
  store:send("name", "Blob", function(s) s.values = { name = "Blob" } end)
end
port(EMPTY, "an empty list loaded from JSON takes a string key and becomes a record", emptyFromJSONTakesAName)

local function undoneWithTheSend()
  local Risky = feature "Risky" {
    state = { values = {} },
    actions = { appendThenFail = {} },
    reduce = on { appendThenFail = function(s) s.values[1] = 1; error("refused") end },
  }
  local store = relua.Store(Risky)
  expect(function() store:send("appendThenFail") end).to_error("refused")
  expect(store:json()).to_be(relua.Store(Risky):json())
  expect(relua.toJSON(store:state())).to_be('{"values":{}}')
end
port(EMPTY, "a failed send gives the empty table back as it was", undoneWithTheSend)
