-- An example app: a list of records kept in a file, shared by every screen that shows one.
--
--   Records (the list)  ── stack ──▶  RecordDetail (one record, a reading clock)
--     │ destination                      │ form
--     ├─ RecordForm (new record)         └─ RecordForm (edit sheet)
--     └─ alert (delete?)
--
-- The list holds the records whole (`shared = { records = Records }`), each detail screen holds
-- its own record (`Records:element()`), and `relua.fileStorage("records.json")` keeps them across
-- launches: no screen copies a change to another, and none writes the file. Play it with
-- `relua repl Scripts/Features/Records.lua` (records.json is written beside this script).
local relua = require "relua"
local ui = relua.ui
local RecordDetail = require "Features.Records.RecordDetail"
local RecordForm = require "Features.Records.RecordForm"
local feature, on, Effect = relua.feature, relua.on, relua.Effect

local Records = RecordDetail.Records

local function position(records, id)
  for i, record in ipairs(records) do
    if record.id == id then return i end
  end
end

local function find(records, id)
  local i = position(records, id)
  if i == nil then error(("no record has the id %s"):format(tostring(id)), 0) end
  return records[i]
end

local function nextID(records)
  local id = 0
  for _, record in ipairs(records) do id = math.max(id, record.id) end
  return id + 1
end

local RecordList = feature "Records" {
  -- destination: nil, { form = draft } (a new record) or { alert = … } (delete?)
  state = function() return { records = relua.identified {}, path = {}, destination = nil } end,

  shared = { records = Records },

  actions = { add = {}, open = "integer", toggleFavourite = "integer", delete = "integer" },

  compose = {
    relua.stack("path", { detail = RecordDetail }),
    relua.presents("destination", { form = RecordForm, alert = relua.alert { confirmDelete = {} } }),
  },

  reduce = on {
    add = function(s) s.destination = { form = RecordForm.draft(nil) } end,
    ["destination.form.done"] = function(s)
      local draft = s.destination.form
      if draft.problem then return end
      s.records[#s.records + 1] = RecordForm.record(draft, nextID(s.records))
      s.destination = nil
    end,
    ["destination.form.discard"] = function(s) s.destination = nil end,

    open = function(s, id)
      local pushed = relua.push(s.path, { detail = RecordDetail.showing(copy(find(s.records, id))) })
      return Effect.send(("path[id=%d].detail.onAppear"):format(pushed))
    end,

    toggleFavourite = function(s, id)
      local record = find(s.records, id)
      record.favourite = not record.favourite
    end,

    delete = function(s, id)
      local record = find(s.records, id)
      s.destination = { alert = {
        title = ("Delete “%s”?"):format(record.title),
        message = "It is removed from records.json; this cannot be undone.",
        buttons = { { label = "Delete", action = "confirmDelete" }, { label = "Cancel" } },
        recordID = id,
      } }
    end,
    -- The alert is still there while its button is handled; it is dismissed after.
    ["destination.alert.confirmDelete"] = function(s)
      local id = s.destination.alert.recordID
      local i = position(s.records, id)
      if i then table.remove(s.records, i) end
      -- A detail of the deleted record (and what was pushed above it) goes too.
      for depth, element in ipairs(s.path) do
        if element.detail.record.id == id then
          for j = #s.path, depth, -1 do s.path[j] = nil end
          break
        end
      end
    end,
  },

  -- One row per record (its text, then its actions, addressed by its id), and Add.
  view = function(s)
    local header = "No records yet."
    if #s.records > 0 then
      local favourites = 0
      for _, record in ipairs(s.records) do
        if record.favourite then favourites = favourites + 1 end
      end
      header = ("Records: %d (%d favourite%s)"):format(#s.records, favourites, favourites == 1 and "" or "s")
    end
    return ui.vstack {
      header,
      ui.list(s.records, function(record)
        return ui.hstack {
          ("  %s %3d  %s"):format(record.favourite and "★" or " ", record.id, record.title),
          ui.link("Open", "open", record.id),
          ui.button(record.favourite and "Unfavourite" or "Favourite", "toggleFavourite", record.id),
          ui.button("Delete", "delete", record.id),
        }
      end),
      ui.button("Add", "add"),
    }
  end,
}

RecordList.Records, RecordList.Detail, RecordList.Form = Records, RecordDetail, RecordForm
return RecordList
