#ifndef RELUA_SANDBOX_H
#define RELUA_SANDBOX_H
// The parts of the standard library sandbox.c makes (called by relua_openlibs in shim.c).
#include "CLuaShim.h"

/// `print` through the host's print function.
int relua_print(lua_State *L);
/// Keeps what an untrusted script may reach (a list of the library's safe parts) and `require`
/// from the roots table at index `roots`.
void relua_sandbox(lua_State *L, int roots);
/// A trusted state's `require` also looks in the roots table at index `roots`.
void relua_add_root_searcher(lua_State *L, int roots);

#endif
