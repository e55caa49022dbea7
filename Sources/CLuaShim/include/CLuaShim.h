#ifndef RELUA_CLUASHIM_H
#define RELUA_CLUASHIM_H

// The C side of relua's Lua layer: what Swift cannot (or must not) do itself.
//
// The one rule: no longjmp may ever cross a Swift frame. Lua raises errors (and yields) with
// longjmp, so every Lua API that can raise is either called here in C inside a protected call,
// or is made non-raising:
//   * allocations: while Swift code runs ("soft" mode) the allocator never refuses because of the
//     memory limit; it only refuses while Lua code runs under a protected call ("strict" mode).
//     The trampoline re-checks the limit after a Swift callback returns and raises from C.
//   * metamethods (gettable/settable/len/tostring): only through the relua_p* helpers below.
//   * raising and yielding on behalf of Swift functions: only the C trampoline does it, after the
//     Swift callback has returned a status.

#include <lua5.4/lua.h>
#include <lua5.4/lauxlib.h>
#include <lua5.4/lualib.h>
#include <stddef.h>

#pragma mark - Swift callbacks

/// A Swift function called from Lua through the trampoline. Returns a status:
/// n >= 0: n results are on top of the stack; RELUA_STATUS_ERROR: the error object is on top;
/// RELUA_STATUS_ARGERROR: [argument position (integer), message (string)] are on top;
/// relua_status_yield(n): yield the n values on top.
typedef int (*relua_callback)(lua_State *L, void *context);
typedef void (*relua_release_fn)(void *context);
typedef void (*relua_warn_fn)(void *context, const char *message);
typedef void (*relua_print_fn)(void *context, const char *text, size_t length);

#define RELUA_STATUS_ERROR (-1)
#define RELUA_STATUS_ARGERROR (-2)
static inline int relua_status_yield(int n) { return -3 - n; }

#pragma mark - Interrupt flag (atomic, shared with other threads)

typedef struct relua_flag relua_flag;
relua_flag *relua_flag_new(void);
void relua_flag_free(relua_flag *flag);
void relua_flag_set(relua_flag *flag, int value);
int relua_flag_get(relua_flag *flag);

#pragma mark - Line coverage (coverage.c)

/// The lines the scripts of one or more states ran, with their counts, per file (`@path` chunks
/// only). Each state counts on its own while it runs, without a lock; its counts are added to the
/// coverage, under a lock, when it closes: states on different threads may share one coverage.
typedef struct relua_coverage relua_coverage;
/// A state's own counts (coverage.c).
typedef struct relua_linecounts relua_linecounts;
relua_coverage *relua_coverage_new(void);
/// Frees a coverage no open state is attached to.
void relua_coverage_free(relua_coverage *coverage);
/// Counts the lines `L` runs from now on, into `coverage` (which must outlive the state): its
/// entries from Swift install the line hook with the count hook (relua_install_hook), on every
/// thread they enter. Before the state runs any code. Returns 0 when out of memory or attached
/// already.
int relua_coverage_attach(lua_State *L, relua_coverage *coverage);
/// Calls `visit` for each file: its chunk name (`@path`) and its counts, `hits[line]` for lines
/// 0..<size (0: the line did not run). Under the coverage's lock: `visit` must not call into it.
typedef void (*relua_coverage_visitor)(void *context, const char *source, size_t length,
                                       const unsigned long long *hits, int size);
void relua_coverage_read(relua_coverage *coverage, relua_coverage_visitor visit, void *context);
/// The lines of the Lua file at `path` that hold code, as the Lua VM sees them (the active lines
/// of every function in it: the lines a line hook can report), sorted, each once; `*lines` is to
/// be freed with relua_free. Compiles the file in a plain state of its own and runs none of it.
/// Returns 0 with a message (a syntax error, an unreadable file) on failure.
int relua_code_lines(const char *path, int **lines, int *count, char *message, size_t message_size);
void relua_free(void *pointer);

#pragma mark - Per-state control block (reached from any thread of the state via its extra space)

typedef struct relua_control {
  // memory
  size_t memory_used;
  size_t memory_limit;        // 0: unlimited (up to memory_ceiling)
  size_t memory_ceiling;      // without a limit, Lua's heap stops here (0: none): see relua_memory_ceiling
  int memory_limit_hit;       // an allocation was refused because of the limit (1) or the ceiling (2)
                              // (since outer entry)
  size_t external_used;       // bytes the host holds for the scripts outside Lua's heap (set by Swift)
  int strict;                 // 1 while Lua runs under a protected call: the limit is enforced
  // instruction budget and interrupt (count hook)
  long long instruction_limit;      // 0: unlimited
  long long instructions_remaining;
  int budget_exhausted;
  char exhausted_where[200];  // "chunk:line: " where the budget ran out ("" before): every raise
                              // after it names that place, not the host code it unwinds through
  int shared_budget;          // 1: the budget spans top-level calls until Swift resets it
  int interrupted;
  int interrupt_catchable;    // lua.c's rule: the first interrupt raises once, and `pcall` may catch it
  int interrupt_raised;       // that raise happened (since the outermost entry); a next press is `interrupted`
  int interruptible;          // install the count hook even without a limit, for interrupts
  int hook_step;
  relua_flag *interrupt_flag; // owned by Swift
  // bookkeeping
  int entries;                // nesting depth of protected entries from Swift
  lua_State *current;         // the thread Swift code should use (the running C frame's thread)
  long live_boxes;            // Swift objects retained by Lua (closures, userdata, error objects)
  // warnings and print
  relua_warn_fn warn;
  void *warn_context;
  char *warn_buffer;
  size_t warn_length, warn_capacity;
  int warn_on;
  int warn_continued;  // the last piece had `tocont`: the next one is no control message
  relua_print_fn print;
  void *print_context;
  // a host C target's slots: its functions and their context, NULL once released (relua's state
  // views: Sources/CReluaShim)
  void *host_functions[4];
  void *host_context;
  // the state's hot Swift function (relua_pushhotfunction); context NULL once released
  relua_callback hot_callback;
  void *hot_context;
  int hot_taken;              // the slot was given once (it is never given again)
  void *checked_object;       // the last object box relua_tocheckedobject accepted; NULL once collected
  int shares_chunks;          // text chunks load from the process's compiled ones (chunkcache.c)
  // line coverage (relua_coverage_attach)
  lua_Hook hook;              // the hook entries install: relua_hook, or relua_line_hook with coverage
  relua_linecounts *line_counts;  // this state's counts, added to `coverage` when it closes (NULL: off)
  relua_coverage *coverage;
} relua_control;

/// Creates a state with the limiting allocator. Returns NULL when out of memory.
lua_State *relua_newstate(relua_flag *interrupt_flag);
/// Closes the state. Its finalizers (and pending `__close` handlers) run under a budget of their
/// own: the instruction limit, or RELUA_CLOSE_BUDGET without one. Returns 1 when they ran out
/// of it (each one stopped became a warning), with the `chunk:line: ` it first ran out at in
/// `message`; else 0.
int relua_close(lua_State *L, char *message, size_t message_size);
#define RELUA_CLOSE_BUDGET 100000000LL
/// The ceiling a state without a memory limit gets (relua_newstate sets it): half of what the
/// process can still allocate now — its address-space and data limits (ulimit -v, -d) less what
/// it maps already, and physical memory. The other half is headroom for the allocations that are
/// never refused (Swift's, and Lua's own while Swift code runs: soft mode), so that running out of
/// memory is a Lua memory error at a script's line, never a failed allocation outside a protected
/// call (a panic) or in Swift (a crash). 0 when nothing bounds the process.
size_t relua_memory_ceiling(void);
static inline size_t relua_effective_memory_limit(const relua_control *c) {
  return c->memory_limit ? c->memory_limit : c->memory_ceiling;
}
/// luaL_traceback(L, co, NULL, 0), protected: pushes the traceback, or returns non-zero (and
/// pushes nothing) when it could not be made.
int relua_ptraceback(lua_State *L, lua_State *co);

/// Whether `__gc` finalizers written in Lua run under the count hook (the instruction budget and
/// interrupts): 1 once the startup self-check of the first state passed (shim.c).
int relua_finalizers_budgeted(void);
static inline relua_control *relua_getcontrol(lua_State *L) {
  return *(relua_control **)lua_getextraspace(L);
}

/// Opens the standard library, sandboxed unless trusted. Roots: directories `require` may load
/// from. Protected; on error returns a status with the message on top.
/// `ignore_environment`: lua.c's `-E` (the registry's LUA_NOENV: `package` reads no LUA_PATH/LUA_CPATH).
int relua_openlibs(lua_State *L, int trusted, int ignore_environment, const char *const *roots, int root_count);

/// Sets what a trusted `os.exit` runs before the process ends (NULL: nothing).
void relua_set_exit_hook(void (*hook)(void));
/// LUA_COPYRIGHT: "Lua 5.4.x  Copyright (C) … Lua.org, PUC-Rio", as lua.c's `-v` prints it.
const char *relua_copyright(void);

#pragma mark - Protected entries from Swift

/// lua_pcall of the function below the nargs arguments, with a traceback message handler.
/// On error the traceback (if any) is in the registry under RELUA_TRACEBACK_KEY.
int relua_pcall(lua_State *L, int nargs, int nresults);
/// The hot-path form of `relua_pcall`: `relua_pushcall` pushed the message handler at `handler`
/// below the function, so no stack rotation is needed.
int relua_pcallwith(lua_State *L, int nargs, int nresults, int handler);
/// The start of a hot-path call by registry reference, in one step: makes room for `slots` more
/// values, pushes the message handler and the function; returns the stack top from before them
/// (the handler is at top + 1), or -1 when the stack cannot grow.
int relua_pushcall(lua_State *L, int slots, int function_ref);
int relua_load(lua_State *L, const char *buffer, size_t length, const char *chunkname, const char *mode);
/// luaL_loadbufferx, unprotected, that in a state sharing compiled chunks (`shares_chunks`) loads
/// a text chunk compiled before in this process — same name, same text, in any state — from its
/// bytecode instead of parsing it again (chunkcache.c).
int relua_loadbuffer(lua_State *L, const char *buffer, size_t length, const char *chunkname, const char *mode);
/// Loads a file as relua_loadbuffer does (chunk name `@path`; a UTF-8 byte-order mark and a first
/// line starting with '#' skipped, as luaL_loadfilex does). Unprotected.
int relua_loadfilebuffer(lua_State *L, const char *path, const char *mode);
/// How many compiled chunks the process keeps (for tests).
size_t relua_sharedchunkcount(void);
/// Reads a file and loads it (chunk name "@path"); LUA_ERRFILE with a message if unreadable.
int relua_loadfile(lua_State *L, const char *path, const char *mode);
int relua_resume(lua_State *co, lua_State *from, int nargs, int *nresults);
/// Closes a coroutine's pending to-be-closed variables (lua_resetthread in 5.4.4).
int relua_closethread(lua_State *co);
/// t[k] with metamethods, t at idx, k on top (replaced by the value, or the error object).
int relua_pgettable(lua_State *L, int idx);
/// t[k] = v with metamethods, t at idx, k and v on top (both popped; error object on failure).
int relua_psettable(lua_State *L, int idx);
/// #v with metamethods; pushes the length (or the error object).
int relua_plen(lua_State *L, int idx);
/// tostring(v) with metamethods; pushes the string (or the error object).
int relua_ptostring(lua_State *L, int idx);
/// Full garbage collection (finalizers run protected, in strict mode).
void relua_gc_collect(lua_State *L);
/// Switches the collector to generational mode (Lua 5.4): short-lived objects such as the state
/// views of each reducer call die young instead of piling up until the next full cycle.
void relua_gc_generational(lua_State *L);
int relua_gc_count_bytes(lua_State *L);

/// For tests and the `pattern` fuzz target only: pushes a table with liblua's own string.find,
/// match, gmatch and gsub (the functions relua's replace), leaving the state's string library as
/// it was.
int relua_pattern_originals(lua_State *L);

#define RELUA_TRACEBACK_KEY "relua.traceback"
#define RELUA_ERROR_METATABLE "relua.SwiftError"
#define RELUA_BOX_METATABLE "relua.box"

#pragma mark - Swift functions and objects

/// A box holding a Swift object (unmanaged, +1) in a full userdata; __gc calls release once.
typedef struct relua_box {
  void *context;
  relua_release_fn release;
} relua_box;

/// Pushes a Lua function calling `callback(L, context)`; `release(context)` runs when collected.
void relua_pushfunction(lua_State *L, relua_callback callback, void *context, relua_release_fn release);
/// As relua_pushfunction, for the hottest Swift function of a state (a store's `send`): the first
/// one pushed in a state is called without reading an upvalue (its callback and context sit in the
/// control block); any later one is an ordinary function.
void relua_pushhotfunction(lua_State *L, relua_callback callback, void *context, relua_release_fn release);
/// Pushes a userdata box with the metatable referenced by `metatable_ref` in the registry.
void relua_pushobject(lua_State *L, void *context, relua_release_fn release, int metatable_ref);
/// Creates a metatable for boxed Swift objects (locked __metatable, __name, __gc) and returns its
/// registry reference; the table is left on the stack too.
int relua_newobjectmetatable(lua_State *L, const char *name);
/// The box at idx if it is a userdata with exactly that metatable, else NULL. Non-raising.
relua_box *relua_toobject(lua_State *L, int idx, const void *metatable);
/// relua_toobject for a hot function's receiver, which is the same object call after call: the
/// last object accepted is remembered (until collected), and then only its type is checked.
relua_box *relua_tocheckedobject(lua_State *L, int idx, const void *metatable);
/// Replaces the description string on top by a Swift error object (userdata; tostring gives the
/// description).
void relua_pusherror(lua_State *L, void *context, relua_release_fn release);
/// The Swift error box at idx, or NULL.
relua_box *relua_toerror(lua_State *L, int idx);

#pragma mark - Macros as functions

static inline void relua_pop(lua_State *L, int n) { lua_settop(L, -(n)-1); }
static inline int relua_upvalueindex(int i) { return lua_upvalueindex(i); }
static inline int relua_registryindex(void) { return LUA_REGISTRYINDEX; }
static inline void relua_newtable(lua_State *L) { lua_createtable(L, 0, 0); }
static inline int relua_isnil(lua_State *L, int idx) { return lua_type(L, idx) == LUA_TNIL; }
static inline int relua_isnoneornil(lua_State *L, int idx) { return lua_type(L, idx) <= 0; }
static inline const char *relua_tolstring(lua_State *L, int idx, size_t *len) {
  return lua_type(L, idx) == LUA_TSTRING ? lua_tolstring(L, idx, len) : NULL;
}
static inline void relua_pushglobaltable(lua_State *L) {
  lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
}
static inline void relua_insert(lua_State *L, int idx) { lua_rotate(L, idx, 1); }
static inline void relua_remove(lua_State *L, int idx) { lua_rotate(L, idx, -1); lua_settop(L, -2); }
static inline int relua_getmetatable_registry(lua_State *L, const char *name) {
  return lua_getfield(L, LUA_REGISTRYINDEX, name);  // the registry has no metatable: raw
}
static inline void *relua_functionpointer(relua_callback callback) { return (void *)callback; }
static inline int relua_noref(void) { return LUA_NOREF; }
static inline int relua_refnil(void) { return LUA_REFNIL; }

#endif
