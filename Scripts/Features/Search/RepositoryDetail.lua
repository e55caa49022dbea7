-- The detail screen of a repository (a stack destination, FEATURES §2). Its like is a binding;
-- the list writes it back to the row with the same repository id.
local relua = require "relua"

local RepositoryDetail = relua.feature "RepositoryDetail" {
  state = { repository = {}, liked = false },
  bindable = { "liked" },

  view = function(s)
    local r = s.repository
    local owner = r.owner and r.owner.login or "?"
    return table.concat({
      r.full_name or "?",
      r.description or "(no description)",
      ("★ %d   forks %d   %s   by %s"):format(r.stargazers_count or 0, r.forks_count or 0, r.language or "—", owner),
      r.html_url or "",
      s.liked and "[♥ Liked]" or "[♡ Like]",
    }, "\n")
  end,
}

return RepositoryDetail
