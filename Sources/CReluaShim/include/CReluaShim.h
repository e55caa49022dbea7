#ifndef CRELUASHIM_H
#define CRELUASHIM_H
// relua's own C: the state views' metamethods and a reducer handler's call, on the Lua layer's
// shim (CLuaShim), which knows nothing of them.
#include <CLuaShim.h>

#pragma mark - State views' own fields (no Lua stack, no trampoline)

/// A nil, boolean or number crossing between C and Swift as plain values.
typedef struct relua_scalar {
  int kind;  // RELUA_SCALAR_*
  int boolean;
  lua_Integer integer;
  lua_Number number;
} relua_scalar;

enum {
  RELUA_SCALAR_NONE = 0,  // not a scalar access: take the general path
  RELUA_SCALAR_NIL,
  RELUA_SCALAR_BOOLEAN,
  RELUA_SCALAR_INTEGER,
  RELUA_SCALAR_FLOAT,
};

/// `view.key` (a string key of `length` bytes) when the field is a scalar or absent: fills `field`
/// and returns its kind; RELUA_SCALAR_NONE to decline. Touches no Lua state and never fails.
typedef int (*relua_view_read_fn)(void *context, void *view, const char *key, size_t length, relua_scalar *field);
/// `view.key = value` (a boolean or number): returns 1 when done, 0 to decline. Touches no Lua
/// state and never fails.
typedef int (*relua_view_write_fn)(void *context, void *view, const char *key, size_t length, const relua_scalar *value);

/// The `__index` and `__newindex` of state views (light userdata). `read`/`write` are tried first;
/// when they decline, `index`/`newindex` run as any Swift function does (through the trampoline's
/// protocol: bookkeeping, then raising or yielding after Swift has returned).
typedef struct relua_view_methods {
  relua_view_read_fn read;
  relua_view_write_fn write;
  relua_callback index;
  relua_callback newindex;
} relua_view_methods;

/// Pushes `__index` and `__newindex` (two functions) for state views, calling `methods` with
/// `context`; `release(context)` runs when Lua has collected both. One set per Lua state.
void relua_pushviewmethods(lua_State *L, const relua_view_methods *methods, void *context, relua_release_fn release);
/// Calls the function under `handler_ref` as `handler(view, nil, deps, nil)` (`view` a light
/// userdata, `deps` the value under `deps_ref`), protected, with the message handler, passing the
/// first `nargs` (1–4) of those arguments (what the handler declares: it cannot see more). Returns
/// LUA_OK when it returned nothing or nil (stack as before); RELUA_HANDLER_RETURNED when it
/// returned a value, which is on top with the message handler below it; an error status with the
/// error on top and the message handler below it; RELUA_HANDLER_NOROOM (nothing pushed) when the
/// stack cannot grow.
int relua_callhandler(lua_State *L, lua_Integer handler_ref, void *view, lua_Integer deps_ref, int nargs);
#define RELUA_HANDLER_NOROOM (-1)

#pragma mark - Awaitables (Sources/CReluaShim/await.c)

/// What a coroutine driver tells its awaitables: the coroutine it is resuming now (NULL when none).
typedef struct relua_await_driver {
  lua_State *stepping;
} relua_await_driver;

/// Pushes an awaitable: a function that, called in the coroutine `driver` is stepping, runs the
/// Swift function at `start` (made by relua_pushfunction: it files what to wait for and returns
/// the two values the driver reads) and yields those; resumed with `(true, results...)` it returns
/// the results, with `(false, message)` it raises the message at its caller's line. Called in the
/// main thread it raises `outside`, in any other coroutine `nested`, and where a C call stands
/// between it and its coroutine `blocked` (all at the caller's line). A C function, so a suspended
/// coroutine holds one call frame for the await, not a Lua wrapper's and the Swift function's.
void relua_pushawaitable(
  lua_State *L, int start, relua_await_driver *driver, const char *outside, const char *nested, const char *blocked);
#pragma mark - Write sequence (Sources/CReluaShim/sequence.c)

/// A number no earlier call returned, in this process, on any thread (relaxed atomic): what makes
/// an element write of an identified collection tell its own (`ElementWriteLog`). 0 until
/// relua_start_write_sequence was called: a program that never reads the log pays no count.
uint64_t relua_next_write_sequence(void);

/// From now on (for good), relua_next_write_sequence numbers writes.
void relua_start_write_sequence(void);

#define RELUA_HANDLER_RETURNED (-2)
#endif
