#ifndef RELUA_COVERAGE_H
#define RELUA_COVERAGE_H
// Line coverage's C side (coverage.c), for shim.c: the hook that counts lines, and what a state's
// counts become when it closes.
#include "CLuaShim.h"

/// The hook of a state counting lines: a line event counts the line of a `@path` chunk in the
/// state's own counts; a count event is the budget's and interrupt's (relua_hook).
void relua_line_hook(lua_State *L, lua_Debug *ar);
/// Adds a closing state's counts to its coverage and frees them (relua_close, after lua_close).
void relua_coverage_detach(relua_control *c);
/// Counts the lines of the chunk named `chunkname` (`@path`) from now on, when `L` counts lines:
/// the host calls it for the files it loads itself (relua_loadfilebuffer, package.path's searcher).
/// Lines of chunks never registered are not counted.
void relua_coverage_register(lua_State *L, const char *chunkname);

#endif
