-- The detail screen of a repository (a stack destination, FEATURES §2). Its like is a binding;
-- the list writes it back to the row with the same repository id.
local relua = require "relua"
local ui = relua.ui

local RepositoryDetail = relua.feature "RepositoryDetail" {
  state = { repository = {}, liked = false },
  bindable = { "liked" },

  -- The repository's fields as text, its owner's avatar, and the like (bound).
  view = function(s)
    local r = s.repository
    local owner = r.owner and r.owner.login or "?"
    return ui.vstack {
      ui.text(r.full_name or "?"),
      ui.text(r.description or "(no description)"),
      ui.text(("★ %d   forks %d   %s   by %s"):format(
        r.stargazers_count or 0, r.forks_count or 0, r.language or "—", owner)),
      (r.owner and r.owner.avatar_url) and ui.image(r.owner.avatar_url, owner .. "'s avatar") or false,
      ui.text(r.html_url or ""),
      ui.toggle("♥ Liked", ui.binding.liked),
    }
  end,
}

return RepositoryDetail
