#include "CBenchmarkFloor.h"
#include <lua5.4/lauxlib.h>
#include <lua5.4/lualib.h>
#include <string.h>
#include <malloc.h>
#include <time.h>

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

static int floor_loop = LUA_NOREF;

lua_State *relua_floor_open(void) {
  lua_State *L = luaL_newstate();
  if (!L) return NULL;
  luaL_openlibs(L);
  relua_floor_install(L);
  if (luaL_loadstring(L, "local store, n = store, ... for _ = 1, n do store:send('increment') end") != LUA_OK) {
    lua_close(L);
    return NULL;
  }
  floor_loop = luaL_ref(L, LUA_REGISTRYINDEX);
  return L;
}

int relua_floor_run(lua_State *L, lua_Integer n) {
  lua_rawgeti(L, LUA_REGISTRYINDEX, floor_loop);
  lua_pushinteger(L, n);
  return lua_pcall(L, 1, 0, 0) == LUA_OK;
}

// baseline.lua.resume: a coroutine whose Lua loop calls an awaitable-shaped C function that
// yields at once with a continuation (as relua's awaitables do), resumed from C `count` times.
static int resume_continue(lua_State *L, int status, lua_KContext context) {
  (void)L; (void)status; (void)context;
  return 0;
}

static int resume_await(lua_State *L) { return lua_yieldk(L, 0, 0, resume_continue); }

double relua_bench_lua_resume(long long count) {
  lua_State *L = luaL_newstate();
  lua_State *co = lua_newthread(L);
  if (luaL_loadstring(co, "local await = ... while true do await() end") != LUA_OK) return -1;
  lua_pushcfunction(co, resume_await);
  int results = 0;
  // The first resume starts the loop and runs to the first yield (not timed).
  if (lua_resume(co, L, 1, &results) != LUA_YIELD) return -1;
  struct timespec start, end;
  clock_gettime(CLOCK_MONOTONIC, &start);
  for (long long i = 0; i < count; i++) {
    if (lua_resume(co, L, 0, &results) != LUA_YIELD) return -1;
    lua_settop(co, 0);
  }
  clock_gettime(CLOCK_MONOTONIC, &end);
  lua_close(L);
  double elapsed = (double)(end.tv_sec - start.tv_sec) * 1e9 + (double)(end.tv_nsec - start.tv_nsec);
  return elapsed / (double)count;
}
