-- Repository search (FEATURES §2): search GitHub as you type, page through results, like them,
-- open a detail screen. Network work is `deps.github.search` (the live client in `relua repl`,
-- a scripted stub in tests).
--
-- Beyond the source app: queries are trimmed; a response for an older query never overwrites a
-- newer one (page loads share the search's cancellation, and responses carry their query); likes
-- survive a refresh; paging stops at GitHub's 1000-result cap; errors show an alert with a retry
-- and leave rows and paging consistent.
local relua = require "relua"
local RepositoryRow = require "Features.Search.RepositoryRow"
local RepositoryDetail = require "Features.Search.RepositoryDetail"
local feature, on, Effect, ui = relua.feature, relua.on, relua.Effect, relua.ui

local SEARCH = "searchRepos"   -- one cancellation id for the debounced search and page loads
local PER_PAGE = 10
local CAP = 1000               -- GitHub answers at most 1000 results per search

local function trim(text) return (text:gsub("^%s+", ""):gsub("%s+$", "")) end

-- The fields a row keeps of a search item (absent when GitHub sent null).
local function repositoryOf(item)
  return {
    id = item.id, name = item.name, full_name = item.full_name, description = item.description,
    html_url = item.html_url, stargazers_count = item.stargazers_count, forks_count = item.forks_count,
    language = item.language,
    owner = item.owner and { login = item.owner.login, avatar_url = item.owner.avatar_url } or nil,
  }
end

-- The request for `page` of `query`, answered with `searchResponse`. A new query debounces it
-- (`:debounce(SEARCH, 0.3)`), a page load makes it `:cancellable(SEARCH, true)`: both under one
-- id, so a new query cancels a page load in flight, and the debounce cancels the previous search.
local function search(deps, query, page)
  return Effect.run(function(send)
    local result, err = deps.github.search { q = query, page = page, per_page = PER_PAGE }
    if err and err.kind == "cancelled" then return end
    send("searchResponse", { query = query, page = page, result = result, error = err })
  end)
end

local function errorAlert(err, page)
  return {
    title = "Search failed",
    message = err.message or "Something went wrong.",
    buttons = { { label = "Retry", action = "retry" }, { label = "OK", action = "ok" } },
    page = page,
  }
end

-- The rows shown: only liked ones when showFavoritesOnly.
local function shownRows(s)
  if not s.showFavoritesOnly then return s.items end
  local rows = {}
  for _, row in ipairs(s.items) do if row.liked then rows[#rows + 1] = row end end
  return rows
end

-- "idle" | "loadingFirstPage" | "noResults" | "loaded"
local function status(s)
  if trim(s.query) == "" then return "idle" end
  if #s.items == 0 then return s.loadingState == "refreshing" and "loadingFirstPage" or "noResults" end
  return "loaded"
end

local RepositorySearch = feature "RepositorySearch" {
  state = {
    query = "",
    showFavoritesOnly = false,
    items = {},               -- rows, by repository id
    searchedQuery = "",       -- the query the rows belong to
    currentPage = 0,          -- the last page loaded (0: none)
    loadingState = "none",    -- "none" | "refreshing" | "loadingNext"
    hasMorePage = false,
    alert = nil,              -- the error, when a search failed
    path = {},                -- detail screens
  },

  actions = { searchResponse = "table" },
  bindable = { "query", "showFavoritesOnly" },

  compose = {
    relua.forEach("items", RepositoryRow),
    relua.stack("path", { detail = RepositoryDetail }),
    relua.presents("alert", relua.alert { retry = {}, ok = {} }),
  },

  reduce = on {
    ["binding.query"] = function(s, _, deps)
      local query = trim(s.query)
      if query == "" then
        s.items, s.searchedQuery, s.currentPage, s.loadingState, s.hasMorePage = {}, "", 0, "none", false
        return Effect.cancel(SEARCH)
      end
      if query == s.searchedQuery and s.loadingState == "none" then return end  -- only spaces changed
      s.loadingState = "refreshing"
      return search(deps, query, 1):debounce(SEARCH, 0.3)
    end,

    searchResponse = function(s, response)
      if response.query ~= trim(s.query) then return end  -- an older query's answer: ignore it
      local err = response.error
      if err then
        s.loadingState = "none"
        if err.kind == "http" and err.status == 422 and response.page > 1 then
          s.hasMorePage = false  -- past the 1000-result cap: paging ends quietly
          return
        end
        s.alert = errorAlert(err, response.page)
        return
      end
      local result = response.result
      if response.page == 1 then
        local liked = {}
        for _, row in ipairs(s.items) do if row.liked then liked[row.id] = true end end
        local rows = {}
        for _, item in ipairs(result.items) do
          rows[#rows + 1] = { id = item.id, repository = repositoryOf(item), liked = liked[item.id] == true }
        end
        s.items = rows
        s.searchedQuery = response.query
      else
        local present = {}
        for _, row in ipairs(s.items) do present[row.id] = true end
        for _, item in ipairs(result.items) do
          if not present[item.id] then
            table.insert(s.items, { id = item.id, repository = repositoryOf(item), liked = false })
          end
        end
      end
      s.currentPage = response.page
      s.hasMorePage = #s.items < math.min(result.total_count, CAP)
      s.loadingState = "none"
    end,

    ["items.onAppear"] = function(s, _, deps, id)
      local last = s.items[#s.items]
      if last == nil or last.id ~= id or not s.hasMorePage or s.loadingState ~= "none" then return end
      s.loadingState = "loadingNext"
      return search(deps, s.searchedQuery, s.currentPage + 1):cancellable(SEARCH, true)
    end,

    ["items.tapped"] = function(s, _, _, id)
      for _, row in ipairs(s.items) do
        if row.id == id then
          relua.push(s.path, { detail = { repository = copy(row.repository), liked = row.liked } })
          return
        end
      end
    end,

    -- A like in the detail screen goes back to the row of the same repository.
    ["path.detail.binding.liked"] = function(s, liked, _, stackID)
      for _, element in ipairs(s.path) do
        if element.id == stackID then
          local repositoryID = element.detail.repository.id
          for _, row in ipairs(s.items) do
            if row.id == repositoryID then row.liked = liked end
          end
        end
      end
    end,

    ["alert.retry"] = function(s, _, deps)
      local page = s.alert.page or 1
      local query = trim(s.query)
      if query == "" then return end
      s.loadingState = page == 1 and "refreshing" or "loadingNext"
      return search(deps, query, page):cancellable(SEARCH, true)
    end,
  },

  -- The query's field and the favourites' switch, then the state of the search as text, or the
  -- rows (each its row's view: a like and a link to the detail) and the paging control. Paging is
  -- the last row's `onAppear` (a list scrolled to its end): "Load more" sends it.
  view = function(s)
    local body
    local shown = status(s)
    if shown == "idle" then body = ui.text "Type to search GitHub repositories."
    elseif shown == "loadingFirstPage" then body = ui.text "Searching…"
    elseif shown == "noResults" then body = ui.text "No repositories found."
    else
      local last = s.items[#s.items]
      body = ui.vstack {
        ui.list(shownRows(s), RepositoryRow.view, "items"),
        s.loadingState == "loadingNext" and ui.text "Loading more…"
          or (s.hasMorePage and s.loadingState == "none"
            and ui.button("Load more", ("items[id=%d].onAppear"):format(last.id))),
      }
    end
    return ui.vstack {
      ui.textField("Search", ui.binding.query),
      ui.toggle("Favourites only", ui.binding.showFavoritesOnly),
      body,
    }
  end,
}

RepositorySearch.shownRows, RepositorySearch.status = shownRows, status
return RepositorySearch
