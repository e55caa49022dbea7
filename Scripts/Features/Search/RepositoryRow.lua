-- A row of the search results (FEATURES §2): one repository and whether the user likes it.
-- The like is a binding (`binding.liked`); `onAppear` and `tapped` are for the list to act on
-- (paging, pushing the detail screen).
local relua = require "relua"

local RepositoryRow = relua.feature "RepositoryRow" {
  -- id: the repository's GitHub id (the forEach identity); repository: the fields GitHub sent
  state = { id = 0, repository = {}, liked = false },
  actions = { onAppear = {}, tapped = {} },
  bindable = { "liked" },

  view = function(s)
    local r = s.repository
    -- The id is what actions name the row by: :items[id=ID].tapped, :items[id=ID].binding.liked true
    return ("%s %s  ★%d  %s  [id=%d]")
      :format(s.liked and "♥" or "♡", r.full_name or "?", r.stargazers_count or 0, r.language or "", s.id)
  end,
}

return RepositoryRow
