// relua's pattern matcher (Sources/CLuaShim/pattern.c) against liblua's own string.find/match/gmatch/gsub on
// ordinary patterns, both at -O2 (the budget charge stubbed: it runs once per 1,000 steps). Not a
// package target; build and run by hand:
//   clang -O2 -ISources/CLuaShim/include -o /tmp/pattern-bench Benchmarks/pattern/pattern-bench.c \
//     Sources/CLuaShim/pattern.c -l:liblua5.4.a -lm -ldl && /tmp/pattern-bench
#include <lua5.4/lua.h>
#include <lua5.4/lauxlib.h>
#include <lua5.4/lualib.h>
#include <stdio.h>
volatile long long charged;
void relua_charge_steps(lua_State *L, long long steps, int may_raise) { (void)L; (void)may_raise; charged += steps; }
void relua_pattern_install(lua_State *L, int index);
int relua_pattern_originals(lua_State *L);
static const char *code =
"local O = pattern_originals()\n"
"local M = {} relua_install(M)\n"
"local text = ('The quick brown fox jumps over the lazy dog, key=value; name = relua 5.4 [x] (y) '):rep(20)\n"
"local cases = {\n"
" {'find plain word', function(S) return S.find(text, 'lazy', 1, true) end},\n"
" {'find %d+', function(S) return S.find(text, '%d+') end},\n"
" {'match (%w+)=(%w+)', function(S) return S.match(text, '(%w+)=(%w+)') end},\n"
" {'match ^%s*(.-)%s*$', function(S) return S.match('   trim me   ', '^%s*(.-)%s*$') end},\n"
" {'gsub %w+ -> %0', function(S) return S.gsub(text, '%w+', '<%0>') end},\n"
" {'gsub %s+ function', function(S) return S.gsub(text, '%s+', function(s) return ' ' end) end},\n"
" {'gmatch %a+', function(S) local n = 0 for w in S.gmatch(text, '%a+') do n = n + 1 end return n end},\n"
" {'find %b()', function(S) return S.find(text, '%b()') end},\n"
" {'find [%a_][%w_]*', function(S) return S.find(text, 'dog[%a_][%w_]*') end},\n"
" {'find .-fox', function(S) return S.find(text, '^.-fox') end},\n"
"}\n"
"local total_o, total_m = 0, 0\n"
"for _, c in ipairs(cases) do\n"
"  local name, f = c[1], c[2]\n"
"  local n = 2000\n"
"  local best = {}\n"
"  for k, S in pairs({o = O, m = M}) do\n"
"    local b = math.huge\n"
"    for r = 1, 5 do local t = os.clock() for i = 1, n do f(S) end b = math.min(b, os.clock() - t) end\n"
"    best[k] = b\n"
"  end\n"
"  total_o, total_m = total_o + best.o, total_m + best.m\n"
"  print(string.format('%-26s lua %8.2f us  relua %8.2f us  ratio %.2f', name, best.o / n * 1e6, best.m / n * 1e6, best.m / best.o))\n"
"end\n"
"print(string.format('total ratio %.2f', total_m / total_o))\n";
static int install(lua_State *L) { relua_pattern_install(L, 1); return 0; }
int main(void) {
  lua_State *L = luaL_newstate();
  luaL_openlibs(L);
  lua_register(L, "pattern_originals", relua_pattern_originals);
  lua_register(L, "relua_install", install);
  if (luaL_dostring(L, code) != LUA_OK) { fprintf(stderr, "%s\n", lua_tostring(L, -1)); return 1; }
  return 0;
}
