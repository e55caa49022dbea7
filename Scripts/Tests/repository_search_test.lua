local relua = require "relua"
local Search = require "Features.RepositorySearch"

-- A page of `count` repositories starting at id `first`, out of `total`.
local function page(first, count, total)
  local items = {}
  for i = 0, count - 1 do
    items[#items + 1] = {
      id = first + i, name = "repo" .. (first + i), full_name = "owner/repo" .. (first + i),
      owner = { login = "owner", avatar_url = "https://example.com/a.png" },
      html_url = "https://github.com/owner/repo" .. (first + i), stargazers_count = 10, forks_count = 1,
      language = "Swift", description = (i % 2 == 0) and "a repository" or nil,
    }
  end
  return { total_count = total, incomplete_results = false, items = items }
end

local function rowsOf(result, liked)
  local rows = {}
  for _, item in ipairs(result.items) do
    rows[#rows + 1] = {
      id = item.id, liked = (liked or {})[item.id] == true,
      repository = {
        id = item.id, name = item.name, full_name = item.full_name, description = item.description,
        html_url = item.html_url, stargazers_count = item.stargazers_count, forks_count = item.forks_count,
        language = item.language, owner = { login = item.owner.login, avatar_url = item.owner.avatar_url },
      },
    }
  end
  return rows
end

-- A stub that records the queries and answers from `answers[q][page]` (a result, or { error = … }),
-- `delay` seconds later on the store's clock (it runs in the effect that searches, so it can wait).
local function stub(answers, requests)
  return function(query)
    requests[#requests + 1] = query.q .. "#" .. query.page
    local answer = (answers[query.q] or {})[query.page] or { error = { kind = "http", status = 500, message = "no answer" } }
    if answer.delay then relua.deps.clock.sleep(answer.delay) end
    if answer.error then return nil, answer.error end
    return answer.result
  end
end

local function newStore(answers, requests)
  return relua.TestStore(Search, { deps = { clock = "test", github = stub(answers, requests) } })
end

describe("search as you type", function()
  it("debounces: 't' then 'tca' 0.1 s later sends one request; '' clears everything", function()
    local result = page(1, 5, 10)
    local requests = {}
    local store = newStore({ tca = { { result = result } } }, requests)
    store:send("binding.query", "t", function(s) s.query = "t"; s.loadingState = "refreshing" end)
    store:advance(0.1)
    store:send("binding.query", "tca", function(s) s.query = "tca" end)
    store:advance(0.3)
    store:receive("searchResponse", function(s)
      s.items = rowsOf(result)
      s.searchedQuery = "tca"
      s.currentPage = 1
      s.hasMorePage = true   -- 5 of 10
      s.loadingState = "none"
    end)
    expect(requests).to_equal({ "tca#1" })
    store:send("binding.query", "", function(s)
      s.query = ""; s.items = {}; s.searchedQuery = ""; s.currentPage = 0; s.hasMorePage = false
    end)
    store:finish()
  end)

  it("clearing within the debounce window sends nothing", function()
    local requests = {}
    local store = newStore({}, requests)
    store:send("binding.query", "tca", function(s) s.query = "tca"; s.loadingState = "refreshing" end)
    store:advance(0.2)
    store:send("binding.query", "", function(s) s.query = ""; s.loadingState = "none" end)
    store:advance(1)
    expect(requests).to_equal({})
    store:finish()
  end)

  it("trims the query: spaces alone do not search again", function()
    local result = page(1, 3, 3)
    local requests = {}
    local store = newStore({ tca = { { result = result } } }, requests)
    store:send("binding.query", "  tca ", function(s) s.query = "  tca "; s.loadingState = "refreshing" end)
    store:advance(0.3)
    store:receive("searchResponse", function(s)
      s.items = rowsOf(result); s.searchedQuery = "tca"; s.currentPage = 1; s.hasMorePage = false; s.loadingState = "none"
    end)
    store:send("binding.query", "tca", function(s) s.query = "tca" end)
    store:advance(1)
    expect(requests).to_equal({ "tca#1" })
  end)

  it("a slow answer for an older query never overwrites a newer query's results", function()
    local old, new = page(1, 2, 2), page(100, 2, 2)
    local requests = {}
    local store = newStore({ a = { { result = old, delay = 5 } }, ab = { { result = new } } }, requests)
    store:send("binding.query", "a", function(s) s.query = "a"; s.loadingState = "refreshing" end)
    store:advance(0.3)   -- the request for "a" is in flight (5 s)
    store:send("binding.query", "ab", function(s) s.query = "ab" end)
    store:advance(0.3)
    store:receive("searchResponse", function(s)
      s.items = rowsOf(new); s.searchedQuery = "ab"; s.currentPage = 1; s.hasMorePage = false; s.loadingState = "none"
    end)
    store:advance(10)    -- the old request was cancelled: nothing more arrives
    expect(requests).to_equal({ "a#1", "ab#1" })
    store:finish()
  end)
end)

describe("paging", function()
  it("loads the next page when the last row appears, until there are no more", function()
    local first, second = page(1, 10, 15), page(11, 5, 15)
    local requests = {}
    local store = newStore({ tca = { { result = first }, { result = second } } }, requests)
    store:send("binding.query", "tca", function(s) s.query = "tca"; s.loadingState = "refreshing" end)
    store:advance(0.3)
    store:receive("searchResponse", function(s)
      s.items = rowsOf(first); s.searchedQuery = "tca"; s.currentPage = 1; s.hasMorePage = true; s.loadingState = "none"
    end)
    store:send("items[id=5].onAppear")  -- not the last row: nothing
    store:send("items[id=10].onAppear", function(s) s.loadingState = "loadingNext" end)
    store:receive("searchResponse", function(s)
      for _, row in ipairs(rowsOf(second)) do s.items[#s.items + 1] = row end
      s.currentPage = 2; s.hasMorePage = false; s.loadingState = "none"
    end)
    store:send("items[id=15].onAppear")  -- no more pages
    expect(requests).to_equal({ "tca#1", "tca#2" })
    store:finish()
  end)

  it("a page load in flight is cancelled when the query changes", function()
    local first, other = page(1, 10, 50), page(200, 1, 1)
    local requests = {}
    local store = newStore({ tca = { { result = first }, { result = page(11, 10, 50), delay = 5 } }, swift = { { result = other } } }, requests)
    store:send("binding.query", "tca", function(s) s.query = "tca"; s.loadingState = "refreshing" end)
    store:advance(0.3)
    store:receive("searchResponse", function(s)
      s.items = rowsOf(first); s.searchedQuery = "tca"; s.currentPage = 1; s.hasMorePage = true; s.loadingState = "none"
    end)
    store:send("items[id=10].onAppear", function(s) s.loadingState = "loadingNext" end)
    store:send("binding.query", "swift", function(s) s.query = "swift"; s.loadingState = "refreshing" end)
    store:advance(0.3)
    store:receive("searchResponse", function(s)
      s.items = rowsOf(other); s.searchedQuery = "swift"; s.currentPage = 1; s.hasMorePage = false; s.loadingState = "none"
    end)
    store:advance(10)
    expect(requests).to_equal({ "tca#1", "tca#2", "swift#1" })
    store:finish()
  end)

  it("stops at GitHub's 1000-result cap", function()
    local answers = { tca = {} }
    for p = 1, 10 do answers.tca[p] = { result = page((p - 1) * 100 + 1, 100, 5000) } end
    local store = relua.TestStore(Search, { deps = { clock = "test", github = stub(answers, {}) } })
    store:exhaustive(false)
    store:send("binding.query", "tca")
    store:advance(0.3)
    store:receive("searchResponse")
    for p = 2, 10 do
      store:send(("items[id=%d].onAppear"):format((p - 1) * 100))
      store:receive("searchResponse")
    end
    local s = store:state()
    expect(#s.items).to_be(1000)
    expect(s.hasMorePage).to_be(false)
    expect(s.currentPage).to_be(10)
  end)
end)

describe("likes and the detail screen", function()
  it("a like in the detail screen is written back to its row", function()
    local result = page(1, 3, 3)
    local store = newStore({ tca = { { result = result } } }, {})
    store:send("binding.query", "tca", function(s) s.query = "tca"; s.loadingState = "refreshing" end)
    store:advance(0.3)
    store:receive("searchResponse", function(s)
      s.items = rowsOf(result); s.searchedQuery = "tca"; s.currentPage = 1; s.hasMorePage = false; s.loadingState = "none"
    end)
    store:send("items[id=2].tapped", function(s)
      s.path = { { id = 0, detail = { repository = copy(s.items[2].repository), liked = false } } }
    end)
    expect(store:screens()).to_equal({ "", "path[id=0].detail" })
    store:send("path[id=0].detail.binding.liked", true, function(s)
      s.path[1].detail.liked = true
      s.items[2].liked = true
    end)
    store:send("path.popFrom", 0, function(s) s.path = {} end)
  end)

  it("a row's like toggle is named in words (a screen reader and a terminal read its label)", function()
    local store = newStore({ tca = { { result = page(1, 1, 1) } } }, {})
    store:exhaustive(false)
    store:send("binding.query", "tca")
    store:advance(0.3)
    store:receive("searchResponse")
    expect(store:view()).to_contain("[ ] ♥ Like (:items[id=1].binding.liked true)")
    store:send("items[id=1].binding.liked", true)
    expect(store:view()).to_contain("[x] ♥ Like (:items[id=1].binding.liked false)")
  end)

  it("likes survive a refresh, and favorites-only shows only liked rows", function()
    local result = page(1, 3, 3)
    local store = newStore({ tca = { { result = result } }, tcax = { { result = page(2, 3, 3) } } }, {})
    store:exhaustive(false)
    store:send("binding.query", "tca")
    store:advance(0.3)
    store:receive("searchResponse")
    store:send("items[id=2].binding.liked", true)
    store:send("binding.showFavoritesOnly", true)
    expect(#Search.shownRows(store:state())).to_be(1)
    store:send("binding.query", "tcax")
    store:advance(0.3)
    store:receive("searchResponse")
    local s = store:state()
    expect(s.items[1].id).to_be(2)
    expect(s.items[1].liked).to_be(true)
  end)
end)

describe("errors", function()
  local cases = {
    { kind = "transport", message = "The network connection was lost." },
    { kind = "timeout", message = "The request to GitHub timed out after 10 s." },
    { kind = "rateLimited", message = "GitHub's search rate limit is exhausted; it resets in 42 s.", status = 403, resetAt = 1700000042 },
    { kind = "http", status = 422, message = "GitHub rejected the search: Validation Failed." },
    { kind = "http", status = 503, message = "GitHub is unavailable (503)." },
    { kind = "decoding", message = "GitHub's answer could not be read." },
  }
  for _, err in ipairs(cases) do
    it(("%s %s shows an alert with a retry and keeps the rows"):format(err.kind, err.status or ""), function()
      local result = page(1, 10, 30)
      local store = newStore({ tca = { { result = result }, { error = err } } }, {})
      store:exhaustive(false)
      store:send("binding.query", "tca")
      store:advance(0.3)
      store:receive("searchResponse")
      store:send("items[id=10].onAppear")
      store:receive("searchResponse")
      local s = store:state()
      if err.kind == "http" and err.status == 422 then
        expect(s.alert).to_be_nil()   -- a 422 on a later page ends paging quietly
        expect(s.hasMorePage).to_be(false)
      else
        expect(s.alert.message).to_be(err.message)
        expect(s.alert.buttons[1].action).to_be("retry")
        expect(s.hasMorePage).to_be(true)
      end
      expect(#s.items).to_be(10)
      expect(s.currentPage).to_be(1)
      expect(s.loadingState).to_be("none")
    end)
  end

  it("retry loads the failed page again", function()
    local first, second = page(1, 10, 20), page(11, 10, 20)
    local answers = { tca = { { result = first }, { error = { kind = "timeout", message = "timed out" } } } }
    local store = newStore(answers, {})
    store:exhaustive(false)
    store:send("binding.query", "tca")
    store:advance(0.3)
    store:receive("searchResponse")
    store:send("items[id=10].onAppear")
    store:receive("searchResponse")
    answers.tca[2] = { result = second }
    store:send("alert.retry")
    store:receive("searchResponse")
    local s = store:state()
    expect(s.alert).to_be_nil()
    expect(#s.items).to_be(20)
    expect(s.currentPage).to_be(2)
  end)

  it("a search without a github dependency fails the test loudly", function()
    local store = relua.TestStore(Search, { deps = { clock = "test" } })
    store:send("binding.query", "tca", function(s) s.query = "tca"; s.loadingState = "refreshing" end)
    expect(function() store:advance(0.3) end).to_error("Unimplemented dependency: github")
    store:skipReceivedActions()
  end)
end)
