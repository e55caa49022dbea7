#ifndef RELUA_CLUA_H
#define RELUA_CLUA_H
#include <lua.h>
#include <lualib.h>
#include <lauxlib.h>
#endif
