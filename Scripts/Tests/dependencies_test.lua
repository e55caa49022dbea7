-- Dependencies a script declares (TCA's DependencyKey: a live value, a test value) and how stores,
-- tests and failing calls see them.
local relua = require "relua"
local Effect = relua.Effect

-- A function dependency: live answers from a table; no test value (unimplemented in tests).
local forecasts = { Paris = { celsius = 21 }, Oslo = { celsius = -3 } }
relua.dependency "weather" {
  live = function(city)
    local forecast = forecasts[city]
    if not forecast then return nil, { kind = "unknown", message = "No forecast for " .. city .. "." } end
    return forecast
  end,
}

-- A table dependency with a test value: a value member and an awaited member.
relua.dependency "config" {
  live = { region = "eu", fetchGreeting = function(name) return "Hello, " .. name end },
  test = { region = "test", fetchGreeting = function(name) return "Hi " .. name end },
}

local Weather = relua.feature "Weather" {
  state = { city = "", celsius = nil, error = nil, region = "", greeting = "" },
  actions = {
    lookUp = "string",
    load = "string",
    loaded = "integer",
    failed = "string",
    readRegion = {},
    greet = "string",
    greeted = "string",
  },
  reduce = relua.on {
    -- Synchronous: read in the reducer.
    lookUp = function(s, city, deps)
      s.city = city
      local forecast, err = deps.weather(city)
      if forecast then s.celsius = forecast.celsius; s.error = nil else s.celsius = nil; s.error = err.message end
    end,
    -- In an effect.
    load = function(s, city, deps)
      s.city = city
      return Effect.run(function(send)
        local forecast, err = deps.weather(city)
        if forecast then send("loaded", forecast.celsius) else send("failed", err.message) end
      end)
    end,
    loaded = function(s, celsius) s.celsius = celsius; s.error = nil end,
    failed = function(s, message) s.celsius = nil; s.error = message end,
    readRegion = function(s, _, deps) s.region = deps.config.region end,
    greet = function(_, name, deps)
      return Effect.run(function(send) send("greeted", deps.config.fetchGreeting(name)) end)
    end,
    greeted = function(s, text) s.greeting = text end,
  },
}

describe("a dependency declared in Lua", function()
  it("live: a store uses the live value, in reducers and effects", function()
    local store = relua.Store(Weather)
    store:send("lookUp", "Paris")
    expect(store:state().celsius).to_be(21)
    store:send("load", "Oslo")
    store:wait()
    expect(store:state().celsius).to_be(-3)
    store:send("readRegion")
    expect(store:state().region).to_be("eu")
  end)

  it("a failing call answers nil, err: the feature shows the message", function()
    local store = relua.Store(Weather)
    store:send("lookUp", "Atlantis")
    expect(store:state().error).to_be("No forecast for Atlantis.")
    expect(store:state().celsius).to_be_nil()
  end)

  it("a test overrides it with deps = { weather = … }", function()
    local asked = {}
    local store = relua.TestStore(Weather, { deps = { weather = function(city)
      asked[#asked + 1] = city
      return { celsius = 30 }
    end } })
    store:send("load", "Rome", function(s) s.city = "Rome" end)
    store:receive("loaded", 30, function(s) s.celsius = 30 end)
    expect(asked[1]).to_be("Rome")
  end)

  it("a test that reaches it without giving it fails, naming it; the state is unchanged", function()
    local store = relua.TestStore(Weather)
    expect(function() store:send("lookUp", "Paris") end).to_error("Unimplemented dependency: weather")
    expect(store:state().city).to_be("")
    store:exhaustive(false)
  end)

  it("a test value is used when the test gives none (values and awaited members)", function()
    local store = relua.TestStore(Weather)
    store:send("readRegion", function(s) s.region = "test" end)
    store:send("greet", "Ada")
    store:receive("greeted", "Hi Ada", function(s) s.greeting = "Hi Ada" end)
  end)

  it("a stub that raises fails the test with its message", function()
    local store = relua.TestStore(Weather, { deps = { weather = function() error("offline", 0) end } })
    -- The effect runs up to its first wait inside the send: the send fails with the stub's error.
    expect(function() store:send("load", "Paris", function(s) s.city = "Paris" end) end)
      .to_error("the deps.weather stub raised: offline")
  end)

  it("deps = { name = \"live\" } gives the live value in a test", function()
    local store = relua.TestStore(Weather, { deps = { weather = "live" } })
    store:send("lookUp", "Paris", function(s) s.city = "Paris"; s.celsius = 21 end)
  end)

  it("a given table overrides only what a test needs; unknown members are refused", function()
    local store = relua.TestStore(Weather, { deps = { config = { region = "us" } } })
    store:send("readRegion", function(s) s.region = "us" end)
    expect(function() relua.TestStore(Weather, { deps = { config = { regoin = "us" } } }) end)
      .to_error("deps.config: 'regoin' is not one of its members (fetchGreeting, region)")
    expect(function() relua.TestStore(Weather, { deps = { weather = 42 } }) end)
      .to_error("deps.weather: expected a function or \"live\", got number")
  end)
end)

describe("declaring dependencies", function()
  it("a built-in name or a bad declaration is refused at the line", function()
    expect(function() relua.dependency "clock" { live = function() end } end)
      .to_error("'clock' is a built-in dependency")
    expect(function() relua.dependency "x" { live = 42 } end)
      .to_error("'live' must be a function or a table of functions and values, got number")
    expect(function() relua.dependency "x" { live = function() end, tset = function() end } end)
      .to_error("unknown field 'tset' (known: live, test)")
    expect(function() relua.dependency "not a name" end).to_error("a dependency name is an identifier")
  end)

  it("an unknown deps.name says how to declare it", function()
    local Probe = relua.feature "Probe" {
      state = {}, actions = { probe = {} },
      reduce = relua.on { probe = function(_, _, deps) return deps.wether("x") end },
    }
    local store = relua.Store(Probe)
    local ok, err = pcall(store.send, store, "probe")
    expect(ok).to_be(false)
    expect(tostring(err)).to_contain("deps.wether: no such dependency (declare it with relua.dependency \"wether\"")
  end)

  it("unknown names in deps = { … } list the known ones", function()
    expect(function() relua.TestStore(Weather, { deps = { wether = function() end } }) end)
      .to_error("deps: unknown dependency 'wether' (known: clock, config, date")
  end)
end)

describe("a feature gives dependencies to its subtree (TCA's .dependency)", function()
  local Preview = relua.feature "Preview" {
    state = { weather = Weather:initial() },
    actions = {},
    compose = { relua.scope("weather", Weather) },
    dependencies = { weather = function(city) return { celsius = #city } end },
  }

  it("the child reads what its parent gave, in a live store and a test alike", function()
    local live = relua.Store(Preview)
    live:send("weather.lookUp", "Paris")
    expect(live:state().weather.celsius).to_be(5)
    local store = relua.TestStore(Preview)
    store:send("weather.load", "Oslo", function(s) s.weather.city = "Oslo" end)
    store:receive("weather.loaded", 4, function(s) s.weather.celsius = 4 end)
  end)

  it("what a feature gives is checked like a test's deps", function()
    local Bad = relua.feature "Bad" {
      state = {}, actions = { go = {} },
      dependencies = { wether = function() end },
      reduce = relua.on { go = function() end },
    }
    local store = relua.TestStore(Bad)
    expect(function() store:send("go") end)
      .to_error("feature 'Bad': dependencies: 'wether' is not a declared or registered dependency")
  end)
end)

describe("members", function()
  it("a member a dependency does not have is an error naming the ones it has", function()
    local Probe = relua.feature "Probe" {
      state = {}, actions = { probe = {} },
      reduce = relua.on { probe = function(_, _, deps) return deps.config.regoin end },
    }
    local store = relua.TestStore(Probe)
    expect(function() store:send("probe") end).to_error("deps.config has no member 'regoin' (it has: fetchGreeting, region)")
  end)
end)

describe("Feature:withDependencies (one place in a composition)", function()
  local Pair = relua.feature "Pair" {
    state = { stubbed = Weather:initial(), real = Weather:initial() },
    actions = {},
    compose = {
      relua.scope("stubbed", Weather:withDependencies { weather = function() return { celsius = 99 } end }),
      relua.scope("real", Weather),
    },
  }

  it("only the scope it is given to sees it", function()
    local store = relua.Store(Pair)
    store:send("stubbed.lookUp", "Paris")
    store:send("real.lookUp", "Paris")
    expect(store:state().stubbed.celsius).to_be(99)
    expect(store:state().real.celsius).to_be(21)
    expect(Weather.dependencies).to_be_nil()  -- the feature itself is unchanged
  end)
end)
