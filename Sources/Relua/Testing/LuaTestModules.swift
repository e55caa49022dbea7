/// The modules a busted spec may `require` in `relua test`, preloaded in every test's state
/// (`package.preload`, which sandboxed states search too): relua's own implementations, so a spec
/// gets the functions relua runs — never a busted or luassert installed on the system (trusted
/// states search `package.path` too).
///
/// - `busted`: the functions busted gives specs (`describe`, `it`, the hooks, `assert`, `spy`…),
///   as `require('busted').it`; a name relua has not raises, saying so. `busted.runner`: a function
///   doing nothing (`require 'busted.runner'()` at the top of a spec made to run alone under lua).
/// - `luassert`, `luassert.spy`, `luassert.stub`, `luassert.mock`, `luassert.match`: relua's
///   `assert`, `spy`, `stub`, `mock`, `match` (LuaTestLuassert).
/// - `say`: luassert's message store, the one registered assertions' messages are read from.
///
/// Run after `LuaTestDeclarations` and `LuaTestLuassert`, with the table the latter returns.
enum LuaTestModules {
  static let chunkName = "=[relua test modules]"

  static let source = #"""
    local luassert = ...
    local preload = package.preload
    local function give(value) return function() return value end end
    preload["luassert"] = give(luassert.assert)
    preload["luassert.assert"] = give(luassert.assert)
    preload["luassert.spy"] = give(luassert.spy)
    preload["luassert.stub"] = give(luassert.stub)
    preload["luassert.mock"] = give(luassert.mock)
    preload["luassert.match"] = give(luassert.match)
    preload["say"] = give(luassert.say)
    preload["busted.runner"] = give(function() end)

    local names = {
      "describe", "context", "insulate", "expose", "it", "spec", "test", "pending",
      "setup", "teardown", "strict_setup", "strict_teardown", "lazy_setup", "lazy_teardown",
      "before_each", "after_each", "finally",
    }
    local api = { assert = luassert.assert, spy = luassert.spy, stub = luassert.stub, mock = luassert.mock,
      match = luassert.match }
    for _, name in ipairs(names) do api[name] = rawget(_G, name) end
    local busted = setmetatable({}, {
      __index = function(_, key)
        local value = api[key]
        if value == nil then
          error(string.format("busted.%s is not in relua test (it has busted's describe, it, pending, "
            .. "the hooks, finally, insulate, expose, assert, spy, stub, mock and match)", tostring(key)), 2)
        end
        return value
      end,
    })
    preload["busted"] = give(busted)
    """#
}
