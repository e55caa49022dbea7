#include "CLuaShim.h"
int relua_shim_version(void) { return LUA_VERSION_NUM; }
