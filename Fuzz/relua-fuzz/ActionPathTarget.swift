import Foundation
import Lua
import Relua

/// `action-path`: bytes as lines. The first names an example feature of Scripts/Features
/// (`GuessingGame`, `RepositorySearch`, `Destinations`, `Stack`, …; another name picks one by
/// hash). Each further line (at most 32) is an action path with an optional payload after a space,
/// a Lua expression (`rows[id=42].toggle`, `counter.setCount 5`, `path.popFrom 0`,
/// `binding.query "tca"`), sent to a store of the feature (deterministic dependencies, an
/// immediate clock, a stub GitHub); the path is also read as a state path (`store:state(path)`)
/// and a scope (`store:scope(path)`). Then the screens, view and JSON of the store are taken, its
/// effects run for a moment and are stopped. Errors are expected; crashes and hangs are bugs.
@MainActor
final class ActionPathTarget: FuzzTarget {
  static let features = [
    "GuessingGame", "RepositorySearch", "Counter", "ResultList",
    "CaseStudies.Counter", "CaseStudies.Destinations", "CaseStudies.LoadThenNavigate",
    "CaseStudies.NavigateAndLoad", "CaseStudies.OptionalState", "CaseStudies.SharedState",
    "CaseStudies.Stack", "Search.RepositoryDetail", "Search.RepositoryRow",
  ]

  static let driverSource = """
    local featureName, lines = ...
    local Feature = require("Features." .. featureName)
    local function github(query)
      local items = {}
      for i = 1, 3 do
        items[i] = {
          id = i + 10 * (tonumber(query.page) or 1), name = "repo" .. i, full_name = "owner/repo" .. i,
          owner = { login = "owner", avatar_url = "https://example.com/a.png" },
          html_url = "https://github.com/owner/repo" .. i, stargazers_count = i, forks_count = 0,
          language = "Swift", description = (i % 2 == 0) and "a repository" or nil,
        }
      end
      if query.q == "error" then return nil, { kind = "http", status = 500, message = "no answer" } end
      return { total_count = 9, incomplete_results = false, items = items }
    end
    local store = relua.Store(Feature, {
      deps = { uuid = "incrementing", random = { seed = 1 }, clock = "immediate", date = 0, github = github },
    })
    for _, line in ipairs(lines) do
      if line == "" then goto continue end
      local path, payloadSource = line:match("^(%S*)%s*(.-)$")
      local payload, hasPayload = nil, false
      if payloadSource ~= "" then
        -- An empty environment: a payload cannot change the globals the next line uses.
        local f = load("return " .. payloadSource, "=payload", "t", {})
        if f then
          local ok, value = pcall(f)
          if ok then payload, hasPayload = value, true end
        end
      end
      local ok, err
      if hasPayload then
        ok, err = pcall(function() store:send(path, payload) end)
      else
        ok, err = pcall(function() store:send(path) end)
      end
      if not ok then print(line .. " -> " .. tostring(err)) end
      pcall(function() return store:state(path) end)
      pcall(function()
        local scoped = store:scope(path)
        scoped:state()
        scoped:screens()
      end)
      ::continue::
    end
    pcall(function() return store:screens() end)
    pcall(function() return store:view() end)
    pcall(function() return store:json() end)
    pcall(function() return store:warnings() end)
    """

  func run(_ input: UnsafeRawBufferPointer) {
    guard let text = inputText(input) else { return }
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard !lines.isEmpty else { return }
    let selector = lines.removeFirst().trimmingCharacters(in: .whitespaces)
    let feature = fuzzFeature(named: selector, among: Self.features, separator: ".")
    lines = Array(lines.prefix(32))

    let (lua, host) = makeFuzzHost(for: "action-path")
    defer { lua.close() }
    let watchdog = Watchdog(lua.interruptHandle, seconds: 5)
    defer { watchdog.cancel() }

    do {
      let driver = try lua.load(Self.driverSource, name: "=action-path")
      let lineTable = try lua.table(array: lines.map { .text($0) })
      _ = try lua.call(driver, .text(feature), .table(lineTable))
    } catch let error as LuaError {
      // The example features load and make a store; failing that is the harness's fault, unless
      // a line's payload ran the state out of memory or time.
      if case .memory = error { return finish(host) }
      if error.message.contains("instruction budget") || error.message.contains("interrupted") { return finish(host) }
      fatalError("relua-fuzz action-path: the driver failed on \(feature): \(error)")
    } catch {
      fatalError("relua-fuzz action-path: the driver failed on \(feature): \(error)")
    }
    finish(host)
  }

  /// Lets effects run briefly, then stops them (they must not outlive the state).
  private func finish(_ host: ReluaHost) {
    _ = pump(until: { false }, seconds: 0.001)
    let (finished, _, _) = runAsync(seconds: 10) { await host.stopEffects() }
    if !finished { invariantFailed("the store's effects did not stop within 10 s of being cancelled") }
  }
}
