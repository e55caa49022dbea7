#ifndef RELUA_CLUASHIM_H
#define RELUA_CLUASHIM_H
#include <lua.h>
int relua_shim_version(void);
#endif
