#ifndef CLUASHIMHOST_H
#define CLUASHIMHOST_H
// For C targets that extend the shim for a host (relua's state views: Sources/CReluaShim): the
// protected-entry and callback protocol of shim.c, inline so a host's hot paths keep it inlined.
// Not part of the Swift module (CLuaShim.h is its umbrella).
#include "CLuaShim.h"
#include <lua5.4/lauxlib.h>

enum { RELUA_HOOK_STEP = 1000 };
// With a shared budget each top-level call is charged one hook step on entry: a call shorter than
// a step is never seen by the count hook (each call re-arms it, and a new coroutine starts with a
// full count), so without the charge a chain of short calls — effects starting effects — would
// run for free. The charge is the most such a call can hide.

void relua_hook(lua_State *L, lua_Debug *ar);

// The count hook: for an instruction budget, or for interrupts.
static inline int relua_wants_count_hook(relua_control *c) { return c->instruction_limit > 0 || c->interruptible; }
// A hook at all: the count hook, or the line hook of coverage (which then is the hook's function,
// c->hook, for both events).
static inline int relua_wants_hook(relua_control *c) { return relua_wants_count_hook(c) || c->line_counts != NULL; }

void relua_install_hook(lua_State *L, relua_control *c);

// Work a C function does without running VM instructions (the pattern matcher: pattern.c) is
// charged in units of RELUA_PATTERN_STEPS steps, one step one instruction.
enum { RELUA_PATTERN_STEPS = 1000 };
void relua_charge_steps(lua_State *L, long long steps, int may_raise);
/// Puts relua's pattern functions (find, match, gmatch, gsub) into the string table at `index`.
void relua_pattern_install(lua_State *L, int index);

// Every protected entry from Swift goes through enter/leave. The outermost one starts a fresh
// budget; every one turns on strict memory accounting for the Lua code it runs. Inlined: every
// handler call of a send runs them.
static inline __attribute__((always_inline)) int relua_enter(lua_State *L, relua_control *c) {
  int saved_strict = c->strict;
  if (c->entries++ == 0) {
    if (!c->shared_budget) {
      c->budget_exhausted = 0;
      c->exhausted_where[0] = '\0';
      c->instructions_remaining = c->instruction_limit;
    } else if (c->instruction_limit > 0 && !c->budget_exhausted) {
      c->instructions_remaining -= RELUA_HOOK_STEP;
      if (c->instructions_remaining <= 0) c->budget_exhausted = 1;
    }
    c->interrupted = 0;
    c->interrupt_raised = 0;
    c->memory_limit_hit = 0;
    if (c->interrupt_flag) relua_flag_set(c->interrupt_flag, 0);
    relua_install_hook(L, c);
  } else if (relua_wants_hook(c) && lua_gethook(L) != c->hook) {
    relua_install_hook(L, c);  // a thread that never ran under this budget
  }
  c->strict = 1;
  return saved_strict;
}

static inline void relua_leave(relua_control *c, int saved_strict) {
  c->entries--;
  c->strict = saved_strict;
}


// Runs a Swift callback and raises or yields for it once it has returned, so no longjmp ever
// crosses a Swift frame. While Swift runs, allocations are not refused (soft mode) and Swift sees
// this thread as the current one.
static inline __attribute__((always_inline)) int relua_run_callback(lua_State *L, relua_control *c, relua_callback callback, void *context) {
  lua_State *saved_current = c->current;
  int saved_strict = c->strict;
  c->current = L;
  c->strict = 0;
  int status = callback(L, context);
  c->current = saved_current;
  c->strict = saved_strict;
  if (saved_strict && relua_effective_memory_limit(c) && c->memory_used + c->external_used > relua_effective_memory_limit(c) &&
      lua_checkstack(L, 1)) {
    // Swift allocated past the limit: a strict allocation now collects and raises if still over.
    lua_newuserdatauv(L, 1, 0);
    lua_settop(L, -2);
  }
  if (status >= 0) return status;
  if (status == RELUA_STATUS_ERROR) return lua_error(L);
  if (status == RELUA_STATUS_ARGERROR) {
    int position = (int)lua_tointeger(L, -2);
    return luaL_argerror(L, position, lua_tostring(L, -1));
  }
  return lua_yield(L, -3 - status);
}

// relua_run_callback for a Swift function whose context may have been released (a closure can
// still be called, from a finalizer, after its box's __gc): that raises instead.
static inline __attribute__((always_inline)) int relua_call_swift(lua_State *L, relua_control *c, relua_callback callback, void *context) {
  if (context == NULL) return luaL_error(L, "attempt to call a released Swift function");
  return relua_run_callback(L, c, callback, context);
}


/// Runs the Swift function whose box is at `index` (the upvalue of a function relua_pushfunction
/// made, which a host's own C closure may carry instead) on the current stack, as that function's
/// trampoline would: returns its result count, raising or yielding as it asks.
int relua_callbox(lua_State *L, int index);

/// A userdata box for a context the control block holds: `gc` forgets it there, then releases it
/// as any box's __gc does (relua_box_gc).
void relua_pushslotbox(lua_State *L, void *context, relua_release_fn release, lua_CFunction gc);
int relua_box_gc(lua_State *L);
/// The message handler of protected calls from Swift (keeps the traceback in the registry).
int relua_msgh(lua_State *L);
/// lua_pcall of the function below the nargs arguments, no message handler, inside enter/leave.
int relua_protected(lua_State *L, int nargs, int nresults);

#endif
