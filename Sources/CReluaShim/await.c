#include "CReluaShim.h"
#include <CLuaShimHost.h>

// Upvalues of an awaitable.
enum { START = 1, DRIVER, OUTSIDE, NESTED, BLOCKED };

// Raises the message in upvalue `which` at the awaitable's caller's line, as error(message, 2)
// in a Lua wrapper would.
static int raise_at_caller(lua_State *L, int which) {
  luaL_where(L, 1);
  lua_pushvalue(L, lua_upvalueindex(which));
  lua_concat(L, 2);
  return lua_error(L);
}

// The awaitable's coroutine is resumed: above its arguments (`base` of them) are `(true,
// results...)` or `(false, message)`.
static int finish(lua_State *L, int status, lua_KContext base) {
  (void)status;
  int first = (int)base + 1;
  if (lua_toboolean(L, first)) return lua_gettop(L) - first;
  if (lua_type(L, first + 1) == LUA_TSTRING) {
    luaL_where(L, 1);
    lua_pushvalue(L, first + 1);
    lua_concat(L, 2);
  } else {
    lua_pushvalue(L, first + 1);
  }
  return lua_error(L);
}

static int await(lua_State *L) {
  relua_await_driver *driver = lua_touserdata(L, lua_upvalueindex(DRIVER));
  if (driver->stepping != L) {
    int main = lua_pushthread(L);
    lua_pop(L, 1);
    return raise_at_caller(L, main ? OUTSIDE : NESTED);
  }
  if (!lua_isyieldable(L)) return raise_at_caller(L, BLOCKED);
  int base = lua_gettop(L);
  int count = relua_callbox(L, lua_upvalueindex(START));
  return lua_yieldk(L, count, base, finish);
}

void relua_pushawaitable(
  lua_State *L, int start, relua_await_driver *driver, const char *outside, const char *nested, const char *blocked
) {
  start = lua_absindex(L, start);
  lua_getupvalue(L, start, 1);  // the Swift function's box
  lua_pushlightuserdata(L, driver);
  lua_pushstring(L, outside);
  lua_pushstring(L, nested);
  lua_pushstring(L, blocked);
  lua_pushcclosure(L, await, 5);
}
