#include "CReluaShim.h"
#include <CLuaShimHost.h>

// The view methods live in the control block's host slots (same layout: four pointers).
_Static_assert(sizeof(relua_view_methods) == sizeof(((relua_control *)0)->host_functions), "view methods fill the host slots");
#define VIEW_METHODS(c) ((relua_view_methods *)(c)->host_functions)

#pragma mark - State views' metamethods

// `view.key` and `view.key = number or boolean` on a session's own fields are most of what a
// reducer does. They reach Swift here with plain arguments, reading the methods from the control
// block (no upvalue, no function box): the Swift side touches no Lua state, allocates nothing in
// Lua and cannot fail, so none of the trampoline's bookkeeping applies. Whatever it declines
// (another view, a key that is not a string, a field holding a table or a string, a stale view)
// takes the general Swift metamethod exactly as a trampoline call would. The receiver's type is
// not checked here: `read` and `write` accept only the exact bits of the session's root view,
// which no full userdata's address can have (see ViewHandle), and lua_touserdata gives NULL for
// anything else.

// The general path, out of line: the short path keeps a small frame.
static __attribute__((noinline)) int relua_view_general(lua_State *L, relua_callback callback, void *context) {
  return relua_call_swift(L, relua_getcontrol(L), callback, context);
}

static int relua_view_index(lua_State *L) {
  relua_control *c = relua_getcontrol(L);
  void *context = c->host_context;
  if (context && lua_type(L, 2) == LUA_TSTRING) {
    size_t length;
    const char *key = lua_tolstring(L, 2, &length);
    relua_scalar field;
    switch (VIEW_METHODS(c)->read(context, lua_touserdata(L, 1), key, length, &field)) {
      case RELUA_SCALAR_NIL: lua_pushnil(L); return 1;
      case RELUA_SCALAR_BOOLEAN: lua_pushboolean(L, field.boolean); return 1;
      case RELUA_SCALAR_INTEGER: lua_pushinteger(L, field.integer); return 1;
      case RELUA_SCALAR_FLOAT: lua_pushnumber(L, field.number); return 1;
      default: break;
    }
  }
  return relua_view_general(L, VIEW_METHODS(c)->index, context);
}

static int relua_view_newindex(lua_State *L) {
  relua_control *c = relua_getcontrol(L);
  void *context = c->host_context;
  if (context == NULL) return relua_view_general(L, VIEW_METHODS(c)->newindex, context);
  relua_scalar value;
  if (lua_isinteger(L, 3)) {  // the commonest write first: one call fewer
    value.kind = RELUA_SCALAR_INTEGER;
    value.integer = lua_tointegerx(L, 3, NULL);
  } else {
    switch (lua_type(L, 3)) {
      case LUA_TNUMBER:
        value.kind = RELUA_SCALAR_FLOAT;
        value.number = lua_tonumberx(L, 3, NULL);
        break;
      case LUA_TBOOLEAN:
        value.kind = RELUA_SCALAR_BOOLEAN;
        value.boolean = lua_toboolean(L, 3);
        break;
      default:
        return relua_view_general(L, VIEW_METHODS(c)->newindex, context);
    }
  }
  if (lua_type(L, 2) == LUA_TSTRING) {
    size_t length;
    const char *key = lua_tolstring(L, 2, &length);
    if (VIEW_METHODS(c)->write(context, lua_touserdata(L, 1), key, length, &value)) return 0;
  }
  return relua_view_general(L, VIEW_METHODS(c)->newindex, context);
}

// The views' box: owns the context; once collected, the metamethods raise as a released Swift
// function would.
static int relua_view_box_gc(lua_State *L) {
  relua_box *box = lua_touserdata(L, 1);
  relua_control *c = relua_getcontrol(L);
  if (box && box->context && c->host_context == box->context) c->host_context = NULL;
  return relua_box_gc(L);
}

void relua_pushviewmethods(lua_State *L, const relua_view_methods *methods, void *context, relua_release_fn release) {
  relua_control *c = relua_getcontrol(L);
  relua_pushslotbox(L, context, release, relua_view_box_gc);
  *VIEW_METHODS(c) = *methods;
  c->host_context = context;
  lua_pushvalue(L, -1);
  lua_pushcclosure(L, relua_view_index, 1);     // box index
  lua_rotate(L, -2, 1);                         // index box
  lua_pushcclosure(L, relua_view_newindex, 1);  // index newindex (each keeps the box alive)
}

