-- A to-do list whose logic is a Lua feature and whose storage is a Swift dependency
-- (`deps.storage`, registered by the program that embeds it: Examples/relua-todo/main.swift).
local relua = require "relua"
local Effect = relua.Effect

-- Saves the list after a change (an effect: the storage answers when it has written).
local function save(s, deps)
  local text = relua.toJSON(s.items)
  return Effect.run(function(send)
    local ok, err = deps.storage.save(text)
    if not ok then send("saveFailed", err.message) end
  end):cancellable("save", true)
end

return relua.feature "Todo" {
  state = function(deps)
    local items = deps.storage.load() or {}
    local nextID = 1
    for _, item in ipairs(items) do if item.id >= nextID then nextID = item.id + 1 end end
    return { items = items, nextID = nextID, problem = nil }
  end,
  actions = {
    add = "string",
    toggle = "integer",
    remove = "integer",
    clearDone = {},
    saveFailed = "string",
  },
  reduce = relua.on {
    add = function(s, title, deps)
      title = title:match("^%s*(.-)%s*$")
      if title == "" then s.problem = "A to-do needs a title."; return end
      s.items[#s.items + 1] = { id = s.nextID, title = title, done = false }
      s.nextID = s.nextID + 1
      s.problem = nil
      return save(s, deps)
    end,
    toggle = function(s, id, deps)
      for _, item in ipairs(s.items) do
        if item.id == id then item.done = not item.done; s.problem = nil; return save(s, deps) end
      end
      s.problem = "No to-do #" .. id .. "."
    end,
    remove = function(s, id, deps)
      for index, item in ipairs(s.items) do
        if item.id == id then table.remove(s.items, index); s.problem = nil; return save(s, deps) end
      end
      s.problem = "No to-do #" .. id .. "."
    end,
    clearDone = function(s, _, deps)
      local kept = {}
      for _, item in ipairs(s.items) do if not item.done then kept[#kept + 1] = item end end
      s.items = kept
      return save(s, deps)
    end,
    saveFailed = function(s, message) s.problem = "Not saved: " .. message end,
  },
}
