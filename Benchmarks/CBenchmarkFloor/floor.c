#include "CBenchmarkFloor.h"
#include <lua5.4/lauxlib.h>
#include <string.h>
#include <malloc.h>

unsigned long long relua_bench_heap_in_use(void) {
  struct mallinfo2 info = mallinfo2();
  return (unsigned long long)info.uordblks + (unsigned long long)info.hblkhd;
}

static lua_Integer floor_count;

lua_Integer relua_floor_count(void) { return floor_count; }

static int is_count(lua_State *L) {
  size_t length;
  const char *key = lua_tolstring(L, 2, &length);
  return key && length == 5 && memcmp(key, "count", 5) == 0;
}

static int floor_index(lua_State *L) {
  if (is_count(L)) lua_pushinteger(L, floor_count); else lua_pushnil(L);
  return 1;
}

static int floor_newindex(lua_State *L) {
  if (is_count(L)) floor_count = lua_tointeger(L, 3);
  return 0;
}

// store:send(name): upvalue 1 is the table of handlers.
static int floor_send(lua_State *L) {
  lua_settop(L, 2);
  lua_pushvalue(L, 2);
  if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TFUNCTION) return luaL_error(L, "no handler");
  lua_pushlightuserdata(L, (void *)1);
  if (lua_pcall(L, 1, 0, 0) != LUA_OK) return lua_error(L);
  return 0;
}

void relua_floor_install(lua_State *L) {
  // The views' metatable (light userdata share one).
  lua_pushlightuserdata(L, NULL);
  lua_createtable(L, 0, 2);
  lua_pushcfunction(L, floor_index);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, floor_newindex);
  lua_setfield(L, -2, "__newindex");
  lua_setmetatable(L, -2);
  lua_settop(L, -2);
  // The handlers, as a feature script would declare them.
  luaL_dostring(L, "return { increment = function(s) s.count = s.count + 1 end }");
  // The store: a full userdata whose metatable's __index holds `send`.
  lua_newuserdatauv(L, 1, 0);
  lua_createtable(L, 0, 1);
  lua_createtable(L, 0, 1);
  lua_pushvalue(L, -4);  // the handlers
  lua_pushcclosure(L, floor_send, 1);
  lua_setfield(L, -2, "send");
  lua_setfield(L, -2, "__index");
  lua_setmetatable(L, -2);
  lua_setglobal(L, "store");
  lua_settop(L, -2);
}
