#include "CReluaShim.h"
#include <CLuaShimHost.h>

// A reducer handler's call in its common shape, `handler(view, nil, deps, nil)`, as one C call:
// the arguments are constants Swift passes as plain values (the view is a light userdata whose
// bits Swift computed, the handler and deps are registry references), so nothing crosses back
// into Lua between pushing them and the protected call. Only the first result is kept, and only
// when it is not nil (see RELUA_HANDLER_RETURNED).
int relua_callhandler(lua_State *L, lua_Integer handler_ref, void *view, lua_Integer deps_ref, int nargs) {
  if (!lua_checkstack(L, 9)) return RELUA_HANDLER_NOROOM;
  int top = lua_gettop(L);
  lua_pushcfunction(L, relua_msgh);
  lua_rawgeti(L, LUA_REGISTRYINDEX, handler_ref);
  lua_pushlightuserdata(L, view);
  // Only what the handler declares (most take the state alone: then deps stay in the registry).
  if (nargs > 1) {
    lua_pushnil(L);
    if (nargs > 2) {
      lua_rawgeti(L, LUA_REGISTRYINDEX, deps_ref);
      if (nargs > 3) lua_pushnil(L);
    }
  }
  relua_control *c = relua_getcontrol(L);
  int saved = relua_enter(L, c);
  // All results (a handler that returns nothing, the common case, then costs Lua no nil to push).
  int status = lua_pcall(L, nargs, LUA_MULTRET, top + 1);
  relua_leave(c, saved);
  if (status != LUA_OK) return status;
  if (lua_gettop(L) > top + 1 && lua_type(L, top + 2) != LUA_TNIL) {
    lua_settop(L, top + 2);
    return RELUA_HANDLER_RETURNED;
  }
  lua_settop(L, top);
  return LUA_OK;
}

