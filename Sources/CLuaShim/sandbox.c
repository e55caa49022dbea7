// The standard library as scripts get it: `print` through the host, `load` of text only, the
// sandbox (what an untrusted script may reach) and `require` from the script roots.
#include "CLuaShim.h"
#include "CLuaShimHost.h"
#include "sandbox.h"
#include "coverage.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int relua_print(lua_State *L) {
  int n = lua_gettop(L);
  luaL_Buffer buffer;
  luaL_buffinit(L, &buffer);
  for (int i = 1; i <= n; i++) {
    if (i > 1) luaL_addchar(&buffer, '\t');
    luaL_tolstring(L, i, NULL);
    luaL_addvalue(&buffer);
  }
  luaL_pushresult(&buffer);
  size_t length;
  const char *text = lua_tolstring(L, -1, &length);
  relua_control *c = relua_getcontrol(L);
  if (c->print) {
    int saved = c->strict;
    c->strict = 0;
    c->print(c->print_context, text, length);
    c->strict = saved;
  } else {
    fwrite(text, 1, length, stdout);
    fputc('\n', stdout);
    fflush(stdout);
  }
  return 0;
}

// load(chunk [, name [, mode [, env]]]) with the mode forced to text, and a name the script gives
// as a file's (`@path`) made a plain one (`=path`): text a script loads is not a file, and must not
// pass for one (line coverage counts files the host loaded). Messages show it as Lua shows the
// file name (luaO_chunkid): whole when it fits LUA_IDSIZE, else `...` and its tail.
static int relua_safe_load(lua_State *L) {
  if (lua_gettop(L) < 3) lua_settop(L, 3);  // an absent env stays absent
  size_t length;
  const char *name = lua_type(L, 2) == LUA_TSTRING ? lua_tolstring(L, 2, &length) : NULL;
  if (name != NULL && name[0] == '@') {
    size_t fits = LUA_IDSIZE - 1;  // characters of a name Lua shows whole
    if (length - 1 <= fits) {
      lua_pushfstring(L, "=%s", name + 1);
    } else {
      size_t tail = LUA_IDSIZE - 4;  // after "...", as luaO_chunkid cuts a file name
      lua_pushliteral(L, "=...");
      lua_pushlstring(L, name + length - tail, tail);
      lua_concat(L, 2);
    }
    lua_replace(L, 2);
  }
  lua_pushliteral(L, "t");
  lua_replace(L, 3);
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_rotate(L, 1, 1);
  lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
  return lua_gettop(L);
}

static int relua_safe_collectgarbage(lua_State *L) {
  const char *option = luaL_optstring(L, 1, "collect");
  if (strcmp(option, "collect") != 0 && strcmp(option, "count") != 0 &&
      strcmp(option, "step") != 0 && strcmp(option, "isrunning") != 0)
    return luaL_error(L, "collectgarbage('%s') is not allowed in the sandbox", option);
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_rotate(L, 1, 1);
  lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
  return lua_gettop(L);
}

static int relua_valid_module_name(const char *name) {
  int segment = 0;
  for (const char *p = name; *p; p++) {
    if (*p == '.') {
      if (segment == 0) return 0;
      segment = 0;
    } else if (isalnum((unsigned char)*p) || *p == '_' || *p == '-') {
      segment++;
    } else {
      return 0;
    }
  }
  return segment > 0;
}

// package.searchers entry: "a.b" -> <root>/a/b.lua or <root>/a/b/init.lua, only inside the roots.
// Upvalue 2 says what a name that is not dotted gets: in a sandbox (true) it is refused with an
// error, in a trusted state (false) the searcher declines it and package.path's searcher has it
// (`require "spec/helpers"`, as lua finds it).
static int relua_root_searcher(lua_State *L) {
  const char *name = luaL_checkstring(L, 1);
  if (!relua_valid_module_name(name)) {
    if (lua_toboolean(L, lua_upvalueindex(2)))
      return luaL_error(L, "module '%s' refused: modules are dotted names (like 'a.b') found inside the script roots", name);
    lua_pushfstring(L, "no file for '%s' in the script roots (not a dotted name)", name);
    return 1;
  }
  const char *relative = luaL_gsub(L, name, ".", "/");
  lua_pushliteral(L, "");
  int message = lua_gettop(L);
  static const char *const suffixes[] = {".lua", "/init.lua"};
  lua_Integer roots = (lua_Integer)lua_rawlen(L, lua_upvalueindex(1));
  for (lua_Integer i = 1; i <= roots; i++) {
    lua_rawgeti(L, lua_upvalueindex(1), i);
    const char *root = lua_tostring(L, -1);
    for (int s = 0; s < 2; s++) {
      const char *path = lua_pushfstring(L, "%s/%s%s", root, relative, suffixes[s]);
      FILE *file = fopen(path, "r");
      if (file) {
        fclose(file);
        if (relua_loadfilebuffer(L, path, "t") != LUA_OK)
          return luaL_error(L, "error loading module '%s' from file '%s':\n\t%s", name, path, lua_tostring(L, -1));
        lua_pushvalue(L, -2);  // the path, passed to the chunk as its second argument
        return 2;
      }
      // Lua 5.4's searchers' messages: "no file 'x'\n\tno file 'y'" (require puts "\n\t" first).
      if (lua_rawlen(L, message) == 0) lua_pushfstring(L, "no file '%s'", path);
      else lua_pushfstring(L, "%s\n\tno file '%s'", lua_tostring(L, message), path);
      lua_replace(L, message);
      lua_settop(L, -2);
    }
    lua_settop(L, -2);
  }
  return 1;
}



static void relua_keep_fields(lua_State *L, int source, const char *const *names) {
  lua_newtable(L);
  for (; *names; names++) {
    lua_getfield(L, source, *names);
    lua_setfield(L, -2, *names);
  }
}

void relua_sandbox(lua_State *L, int roots) {
  lua_pushglobaltable(L);
  int globals = lua_gettop(L);
  luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
  int loaded = lua_gettop(L);

  lua_pushnil(L); lua_setfield(L, globals, "dofile");
  lua_pushnil(L); lua_setfield(L, globals, "loadfile");
  lua_getfield(L, globals, "load");
  lua_pushcclosure(L, relua_safe_load, 1);
  lua_setfield(L, globals, "load");
  lua_getfield(L, globals, "collectgarbage");
  lua_pushcclosure(L, relua_safe_collectgarbage, 1);
  lua_setfield(L, globals, "collectgarbage");

  lua_getfield(L, globals, "string");
  lua_pushnil(L);
  lua_setfield(L, -2, "dump");
  lua_settop(L, -2);

  lua_pushnil(L); lua_setfield(L, globals, "io");
  lua_pushnil(L); lua_setfield(L, loaded, "io");

  static const char *const os_kept[] = {"clock", "date", "difftime", "time", NULL};
  lua_getfield(L, globals, "os");
  relua_keep_fields(L, lua_gettop(L), os_kept);
  lua_pushvalue(L, -1);
  lua_setfield(L, globals, "os");
  lua_setfield(L, loaded, "os");
  lua_settop(L, -2);

  static const char *const debug_kept[] = {"traceback", NULL};
  lua_getfield(L, globals, "debug");
  relua_keep_fields(L, lua_gettop(L), debug_kept);
  lua_pushvalue(L, -1);
  lua_setfield(L, globals, "debug");
  lua_setfield(L, loaded, "debug");
  lua_settop(L, -2);

  lua_getfield(L, globals, "package");
  int package = lua_gettop(L);
  lua_pushnil(L); lua_setfield(L, package, "loadlib");
  lua_pushnil(L); lua_setfield(L, package, "searchpath");
  lua_pushliteral(L, ""); lua_setfield(L, package, "cpath");
  lua_pushliteral(L, ""); lua_setfield(L, package, "path");
  lua_createtable(L, 2, 0);
  lua_getfield(L, package, "searchers");
  lua_rawgeti(L, -1, 1);  // the preload searcher
  lua_rawseti(L, -3, 1);
  lua_settop(L, -2);
  lua_pushvalue(L, roots);
  lua_pushboolean(L, 1);
  lua_pushcclosure(L, relua_root_searcher, 2);
  lua_rawseti(L, -2, 2);
  lua_setfield(L, package, "searchers");
  lua_settop(L, globals - 1);
}

// package.path's searcher (Lua's own, upvalue 1), in a trusted state: the file it loads is one the
// host loaded for `require`, and its lines count when the state counts lines.
static int relua_registering_searcher(lua_State *L) {
  int base = lua_gettop(L);
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, base, LUA_MULTRET);
  if (lua_gettop(L) >= 2 && lua_type(L, 1) == LUA_TFUNCTION && lua_type(L, 2) == LUA_TSTRING) {
    const char *chunkname = lua_pushfstring(L, "@%s", lua_tostring(L, 2));
    relua_coverage_register(L, chunkname);
    lua_pop(L, 1);
  }
  return lua_gettop(L);
}

void relua_add_root_searcher(lua_State *L, int roots) {
  lua_getglobal(L, "package");
  lua_getfield(L, -1, "searchers");
  lua_Integer n = (lua_Integer)lua_rawlen(L, -1);
  if (n >= 2) {  // Lua's package.path searcher, the second
    lua_rawgeti(L, -1, 2);
    lua_pushcclosure(L, relua_registering_searcher, 1);
    lua_rawseti(L, -2, 2);
  }
  for (lua_Integer i = n; i >= 2; i--) {
    lua_rawgeti(L, -1, i);
    lua_rawseti(L, -2, i + 1);
  }
  lua_pushvalue(L, roots);
  lua_pushboolean(L, 0);
  lua_pushcclosure(L, relua_root_searcher, 2);
  lua_rawseti(L, -2, 2);
  lua_settop(L, -3);
}

