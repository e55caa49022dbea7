#ifndef CBENCHMARKFLOOR_H
#define CBENCHMARKFLOOR_H
#include <lua5.4/lua.h>

/// The floor of `lua.send`'s shape, in C with no relua at all: on a fresh `lua_State` (which must
/// have no metatable for light userdata), installs a global `store` whose `store:send(name)` finds
/// the handler `name` in a table and calls it with `lua_pcall`, passing a light userdata "view"
/// whose `__index`/`__newindex` read and write one C integer field, `count`. Returns that count.
void relua_floor_install(lua_State *L);
lua_Integer relua_floor_count(void);
/// `lua.send.floor`'s whole setup: a fresh `luaL_newstate` with the standard libraries, the floor
/// installed, and the loop `for _ = 1, n do store:send('increment') end` compiled and kept.
lua_State *relua_floor_open(void);
/// Runs the loop of `relua_floor_open`'s state with `n` sends; returns 0 if it raised.
int relua_floor_run(lua_State *L, lua_Integer n);

/// Bytes the C heap has handed out and not taken back, all arenas and mmapped blocks included
/// (glibc's mallinfo2; the Swift Glibc module does not export it).
unsigned long long relua_bench_heap_in_use(void);

/// `baseline.lua.resume`, the floor of one Lua effect step: on a fresh state, a coroutine running
/// `while true do await() end`, `await` a C function yielding at once with a continuation (the shape
/// of relua's awaitables), resumed with `lua_resume` from C `count` times. Returns ns per resume
/// (setup and the first resume not timed), or -1 if the coroutine did not yield.
double relua_bench_lua_resume(long long count);

#endif
