#ifndef CBENCHMARKFLOOR_H
#define CBENCHMARKFLOOR_H
#include <lua5.4/lua.h>

/// The floor of `lua.send`'s shape, in C with no relua at all: on a fresh `lua_State` (which must
/// have no metatable for light userdata), installs a global `store` whose `store:send(name)` finds
/// the handler `name` in a table and calls it with `lua_pcall`, passing a light userdata "view"
/// whose `__index`/`__newindex` read and write one C integer field, `count`. Returns that count.
void relua_floor_install(lua_State *L);
lua_Integer relua_floor_count(void);

/// Bytes the C heap has handed out and not taken back, all arenas and mmapped blocks included
/// (glibc's mallinfo2; the Swift Glibc module does not export it).
unsigned long long relua_bench_heap_in_use(void);

#endif
