-- A row of the search results (FEATURES §2): one repository and whether the user likes it.
-- The like is a binding (`binding.liked`); `onAppear` and `tapped` are for the list to act on
-- (paging, pushing the detail screen).
local relua = require "relua"
local ui = relua.ui

local RepositoryRow = relua.feature "RepositoryRow" {
  -- id: the repository's GitHub id (the forEach identity); repository: the fields GitHub sent
  state = { id = 0, repository = {}, liked = false },
  actions = { onAppear = {}, tapped = {} },
  bindable = { "liked" },

  -- A like (bound) and a link that opens the detail; drawn in the list's rows, its actions are
  -- the row's (items[id=ID].tapped, items[id=ID].binding.liked).
  view = function(s)
    local r = s.repository
    return ui.hstack {
      ui.toggle("♥ Like", ui.binding.liked),
      ui.link(("%s  ★%d  %s"):format(r.full_name or "?", r.stargazers_count or 0, r.language or ""), "tapped"),
    }
  end,
}

return RepositoryRow
