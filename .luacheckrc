-- luacheck's configuration for relua's Lua: `luacheck Scripts Examples Sources/Relua/Lua Sources/ReluaTesting/Lua Sources/ReluaTooling/Lua` at the repository's root
-- (Scripts/test runs it and fails on any warning). Debian's package is lua-check.

-- Lua 5.4 as a sandboxed script has it (Sources/CLuaShim/sandbox.c): no io, no dofile/loadfile,
-- no string.dump, os only for time, debug only for traceback, package without loadlib/searchpath.
-- (`--trusted` lifts the sandbox; the scripts here do not need it.)
std = "lua54+relua"
not_globals = {
  "io", "dofile", "loadfile", "string.dump",
  "os.execute", "os.exit", "os.getenv", "os.remove", "os.rename", "os.setlocale", "os.tmpname",
  "debug.debug", "debug.gethook", "debug.getinfo", "debug.getlocal", "debug.getmetatable",
  "debug.getregistry", "debug.getupvalue", "debug.getuservalue", "debug.sethook", "debug.setlocal",
  "debug.setmetatable", "debug.setupvalue", "debug.setuservalue", "debug.upvalueid",
  "debug.upvaluejoin", "debug.setcstacklimit",
  "package.loadlib", "package.searchpath",
}

-- What relua adds to every script's state (relua run, repl, test and embedding programs).
stds.relua = {
  read_globals = {
    "relua", -- the DSL, the same table as `require "relua"` (scripts require it; ReluaHost.swift)
    "copy",  -- copy(view): a state view as a plain table (StateViews.swift)
  },
}

-- What `relua test` adds to a test file's state (Sources/ReluaTesting/Lua: test_declarations.lua,
-- test_assertions.lua, test_luassert.lua): relua's own, busted's structure of specs and luassert's API. The helpers under
-- Scripts/Tests/Support run in that state too.
stds.relua_test = {
  read_globals = {
    "test", "describe", "it", "pending", "skip", "expect", "assert_equal",
    "context", "spec", "insulate", "expose", "finally",
    "setup", "teardown", "strict_setup", "strict_teardown", "lazy_setup", "lazy_teardown",
    "before_each", "after_each",
    -- luassert's (LuaTestLuassert): `assert` is still callable as Lua's, and has the chains
    -- (`assert.are.same`, `assert.spy(s).was.called()`...); `spy`, `stub`, `mock` and `match` are tables.
    assert = { other_fields = true },
    spy = { other_fields = true },
    stub = { other_fields = true },
    mock = { other_fields = true },
    match = { other_fields = true },
  },
}
files["Scripts/Tests/**"] = { std = "+relua_test" }
files["**/*_test.lua"] = { std = "+relua_test" }
files["**/*_spec.lua"] = { std = "+relua_test" }

-- Unused arguments are reported (luacheck's default): a handler that ignores its payload is often a
-- slip (`setCount = function(s, n) s.count = 0 end`). One that needs a later argument names those
-- it skips `_`, as the scripts already do (`function(s, _, deps)`); luacheck accepts `_`.

-- Lines: 120 columns, as the feature scripts keep. Tests quote relua's messages and patterns whole,
-- one per line (greppable against the Swift source), and write TCA's steps one per line: no limit.
max_line_length = 120
files["Scripts/Tests/**"].max_line_length = false
files["**/*_test.lua"].max_line_length = false
files["**/*_spec.lua"].max_line_length = false

-- relua's own Lua (Sources/Relua/Lua, Sources/ReluaTesting/Lua and Sources/ReluaTooling/Lua, their targets' resources:
-- docs/DESIGN-NOTES.md). Each file is a chunk the host loads, run in the state it sets up, not a
-- script: `luacheck Scripts Examples Sources/Relua/Lua Sources/ReluaTesting/Lua Sources/ReluaTooling/Lua`. Lines were written inside Swift string literals, as wide as the Swift
-- around them; rewrapping them would move the line numbers their messages and tracebacks carry
-- (`[relua]:N`), so no limit.
files["Sources/Relua/Lua/**"] = { max_line_length = false }
files["Sources/ReluaTooling/Lua/**"] = { max_line_length = false }
files["Sources/ReluaTesting/Lua/**"] = { max_line_length = false }
-- The value printer's limits and words are locals Swift writes above the file (LuaValuePrinter:
-- `local LIMITS = …`, `local MORE, CUT = …`, from `Elision.standard`).
files["Sources/Relua/Lua/printer.lua"].read_globals = { "LIMITS", "MORE", "CUT" }
-- The test runner's chunks define relua_test's globals (`test`, `describe`, luassert's `assert`…):
-- they may set them.
local testGlobals = {
  "test", "describe", "it", "pending", "skip", "expect", "assert_equal",
  "context", "spec", "insulate", "expose", "finally",
  "setup", "teardown", "strict_setup", "strict_teardown", "lazy_setup", "lazy_teardown",
  "before_each", "after_each",
  "assert", "spy", "stub", "mock", "match",
}
files["Sources/ReluaTesting/Lua/test_*.lua"].globals = testGlobals
-- The LuaLS API file (LuaTypesAPI: the start of what `relua types` writes) is never run: it declares
-- relua's globals for lua-language-server, as stubs with empty bodies (their parameters name the
-- API: unused, 212) on locals that only carry `---@class` annotations (mutated, never read: 241).
local apiGlobals = { "relua", "copy" }
for _, name in ipairs(testGlobals) do apiGlobals[#apiGlobals + 1] = name end
files["Sources/ReluaTooling/Lua/types_api.lua"].globals = apiGlobals
files["Sources/ReluaTooling/Lua/types_api.lua"].ignore = { "212", "241" }
