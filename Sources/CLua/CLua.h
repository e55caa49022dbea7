#ifndef RELUA_CLUA_H
#define RELUA_CLUA_H
// Debian's Lua 5.4 headers (liblua5.4-dev), by their directory: no pkg-config include path needed.
#include <lua5.4/lua.h>
#include <lua5.4/lualib.h>
#include <lua5.4/lauxlib.h>
#endif
