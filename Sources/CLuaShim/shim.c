#include "CLuaShim.h"
#include "CLuaShimHost.h"
#include "sandbox.h"
#include "coverage.h"

#include <ctype.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/resource.h>
#include <unistd.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#pragma mark - Interrupt flag

struct relua_flag {
  atomic_int value;
};

relua_flag *relua_flag_new(void) {
  relua_flag *flag = malloc(sizeof *flag);
  if (flag) atomic_init(&flag->value, 0);
  return flag;
}
void relua_flag_free(relua_flag *flag) { free(flag); }
void relua_flag_set(relua_flag *flag, int value) { atomic_store(&flag->value, value); }
int relua_flag_get(relua_flag *flag) { return atomic_load_explicit(&flag->value, memory_order_relaxed); }

#pragma mark - Allocator with a memory limit

// The limit is only enforced in strict mode (Lua running under a protected call): a refused
// allocation there becomes a Lua memory error that Lua unwinds to that protected call. While Swift
// code runs, refusing would longjmp through Swift, so allocations pass and the trampoline checks
// the limit once the Swift callback has returned.
static void *relua_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  relua_control *c = ud;
  size_t old = ptr ? osize : 0;  // with ptr == NULL, osize encodes the object kind
  if (nsize == 0) {
    free(ptr);
    c->memory_used -= old;
    return NULL;
  }
  size_t limit = relua_effective_memory_limit(c);
  if (nsize > old && c->strict && limit && c->memory_used + c->external_used + (nsize - old) > limit) {
    c->memory_limit_hit = c->memory_limit ? 1 : 2;
    return NULL;
  }
  void *block = realloc(ptr, nsize);
  if (block == NULL) return NULL;
  c->memory_used = c->memory_used - old + nsize;
  return block;
}

#pragma mark - Instruction budget and interrupt (count hook)

// Sets L's hook: the count hook every `count` instructions (0: none), and with coverage the line
// hook, one function for both (relua_line_hook, coverage.c).
static void relua_sethook(lua_State *L, relua_control *c, int count) {
  if (c->line_counts != NULL) lua_sethook(L, relua_line_hook, count > 0 ? LUA_MASKLINE | LUA_MASKCOUNT : LUA_MASKLINE, count);
  else if (count > 0) lua_sethook(L, relua_hook, LUA_MASKCOUNT, count);
  else lua_sethook(L, NULL, 0, 0);
}

// (RELUA_HOOK_STEP, relua_hook, relua_wants_hook: CLuaShimHost.h)
void relua_install_hook(lua_State *L, relua_control *c) {
  if (relua_wants_count_hook(c)) {
    int step = RELUA_HOOK_STEP;
    if (c->instruction_limit > 0 && c->instruction_limit < step) step = (int)c->instruction_limit;
    c->hook_step = step;
    relua_sethook(L, c, (c->budget_exhausted || c->interrupted) ? 1 : step);
  } else if (c->line_counts != NULL || lua_gethook(L) != NULL) {
    relua_sethook(L, c, 0);
  }
}

// Pushes `chunk:line: ` for the innermost frame of a script: a Lua function with a line that is
// not in one of the host's own chunks (named `=[…]`), else the running function's place.
static void relua_push_script_where(lua_State *L) {
  lua_Debug ar;
  for (int level = 0; lua_getstack(L, level, &ar); level++) {
    if (!lua_getinfo(L, "Sl", &ar)) break;
    if (ar.currentline > 0 && !(ar.source[0] == '=' && ar.source[1] == '[')) {
      lua_pushfstring(L, "%s:%d: ", ar.short_src, ar.currentline);
      return;
    }
  }
  luaL_where(L, 0);
}

// Raises `chunk:line: message` naming the line the script is at. luaL_error would name level 1,
// which inside a hook is the caller (often a C function, giving no position).
static void relua_raise_where(lua_State *L, const char *message) {
  relua_push_script_where(L);
  lua_pushstring(L, message);
  lua_concat(L, 2);
  lua_error(L);
}

// Raises `chunk:line: instruction budget exhausted`, at the place where the budget first ran out
// (kept in `exhausted_where`, so every later raise names the same line).
static void relua_raise_exhausted(lua_State *L, relua_control *c) {
  if (c->exhausted_where[0] == '\0') {
    relua_push_script_where(L);
    snprintf(c->exhausted_where, sizeof c->exhausted_where, "%s", lua_tostring(L, -1));
    lua_settop(L, -2);
  }
  lua_pushfstring(L, "%sinstruction budget exhausted", c->exhausted_where);
  lua_error(L);
}

// Once the budget is spent (or an interrupt arrived) the hook fires on every instruction and raises
// again, so `pcall` cannot swallow it: the script unwinds to the protected call Swift made.
// With `interrupt_catchable` (lua.c's command line), the first interrupt raises once, as lua.c's
// does, and a `pcall` may catch it; a second one is sticky as above.
static int relua_take_interrupt(relua_control *c) {
  if (c->interrupted || !c->interrupt_flag || !relua_flag_get(c->interrupt_flag)) return 0;
  if (c->interrupt_catchable && !c->interrupt_raised) {
    c->interrupt_raised = 1;
    relua_flag_set(c->interrupt_flag, 0);
    return 1;
  }
  c->interrupted = 1;
  return 0;
}

void relua_hook(lua_State *L, lua_Debug *ar) {
  (void)ar;
  relua_control *c = relua_getcontrol(L);
  if (relua_take_interrupt(c)) {
    relua_raise_where(L, "interrupted!");
    return;
  }
  if (c->interrupted) {
    relua_sethook(L, c, 1);
    relua_raise_where(L, "interrupted!");
    return;
  }
  if (c->instruction_limit > 0) {
    if (!c->budget_exhausted) {
      c->instructions_remaining -= lua_gethookcount(L);
      if (c->instructions_remaining <= 0) c->budget_exhausted = 1;
    }
    if (c->budget_exhausted) {
      relua_sethook(L, c, 1);
      // The host's own chunks (`=[…]`: the coroutine driver, the DSL) are let through: they only
      // hand control back to script code, which then raises, naming the script's line.
      lua_Debug running;
      if (lua_getstack(L, 0, &running) && lua_getinfo(L, "S", &running) &&
          running.source[0] == '=' && running.source[1] == '[') return;
      relua_raise_exhausted(L, c);
      return;
    }
  } else if (!c->interruptible) {
    relua_sethook(L, c, 0);
    return;
  }
  if (lua_gethookcount(L) != c->hook_step) relua_sethook(L, c, c->hook_step);
}

// Charges `steps` units of work done inside one C function (relua's pattern matcher,
// pattern.c) to the instruction budget, and looks at the interrupt flag: the count hook cannot
// fire inside a C function. With `may_raise`, a spent budget or an interrupt raises as the hook
// does (naming the script's line); without, the hook is set to fire at the next instruction.
void relua_charge_steps(lua_State *L, long long steps, int may_raise) {
  relua_control *c = relua_getcontrol(L);
  if (!relua_wants_count_hook(c)) return;
  if (relua_take_interrupt(c)) {
    if (may_raise) relua_raise_where(L, "interrupted!");
    // Not here: given back, for the hook to raise at the next instruction.
    c->interrupt_raised = 0;
    relua_flag_set(c->interrupt_flag, 1);
    relua_sethook(L, c, 1);
    return;
  }
  if (c->interrupted) {
    relua_sethook(L, c, 1);
    if (may_raise) relua_raise_where(L, "interrupted!");
    return;
  }
  if (c->instruction_limit <= 0) return;
  if (!c->budget_exhausted) {
    c->instructions_remaining -= steps;
    if (c->instructions_remaining <= 0) c->budget_exhausted = 1;
  }
  if (!c->budget_exhausted) return;
  relua_sethook(L, c, 1);
  if (!may_raise) return;
  relua_raise_exhausted(L, c);
}

#pragma mark - Warnings

static void relua_warnf(void *ud, const char *message, int tocont) {
  relua_control *c = ud;
  int continued = c->warn_continued;
  c->warn_continued = tocont;
  if (!tocont && !continued && message[0] == '@') {  // control message
    if (strcmp(message, "@on") == 0) c->warn_on = 1;
    else if (strcmp(message, "@off") == 0) c->warn_on = 0;
    return;
  }
  size_t length = strlen(message);
  if (c->warn_length + length + 1 > c->warn_capacity) {
    size_t capacity = (c->warn_length + length + 1) * 2;
    char *buffer = realloc(c->warn_buffer, capacity);
    if (buffer == NULL) return;
    c->warn_buffer = buffer;
    c->warn_capacity = capacity;
  }
  memcpy(c->warn_buffer + c->warn_length, message, length);
  c->warn_length += length;
  c->warn_buffer[c->warn_length] = '\0';
  if (tocont) return;
  if (c->warn_on) {
    if (c->warn) c->warn(c->warn_context, c->warn_buffer);
    else fprintf(stderr, "Lua warning: %s\n", c->warn_buffer);
  }
  c->warn_length = 0;
}

#pragma mark - State

static int relua_panic(lua_State *L) {
  // Unreachable by design (every raising call is protected); if it happens it is a relua bug.
  const char *message = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "(no message)";
  fprintf(stderr, "relua: unprotected error in call to Lua API (%s)\n", message);
  fflush(stderr);
  return 0;  // Lua aborts
}

#pragma mark - Finalizers under the budget

// Lua runs a `__gc` finalizer with the running thread's hooks turned off (lgc.c's GCTM sets
// L->allowhook = 0), so neither the count hook (the instruction budget, interrupts) nor the line
// hook reaches it: a finalizer that loops hung `relua run` at exit. GCTM finds the finalizer with
// luaT_gettmbyobj(L, &object, TM_GC), a call from lgc.o into ltm.o in Debian's static liblua5.4.a,
// and the link wraps it (`--wrap=luaT_gettmbyobj`, Package.swift): for TM_GC in a relua state, when
// the finalizer is Lua code (C finalizers — Swift boxes' — cannot loop and run as they are), it
// answers relua_finalizer instead, a light C function that runs the real `__gc` in a new coroutine,
// which has hooks allowed (lua_newthread; relua_install_hook gives it the state's hook). An error
// there is raised again, so it becomes Lua's own "error in __gc" warning.
//
// This leans on Lua's internals: the TValue layout of a light C function and TM_GC's index. So it
// is on only for Lua 5.4 and only once a self-check (the first relua_newstate) has seen a Lua
// finalizer run in a coroutine of its own; otherwise every lookup passes through unchanged.

enum { RELUA_TM_GC = 2 };          // ltm.h: TM_INDEX, TM_NEWINDEX, TM_GC, …
enum { RELUA_TAG_LCF = 6 | (1 << 4), RELUA_TAG_CCL = (6 | (2 << 4)) | (1 << 6) };  // lobject.h: LUA_VLCF, ctb(LUA_VCCL)
typedef struct relua_tvalue {
  lua_CFunction function;          // Value (a union of 8 bytes), its `f`
  unsigned char tag;               // tt_
} relua_tvalue;

const relua_tvalue *__real_luaT_gettmbyobj(lua_State *L, const relua_tvalue *o, int event);
static int relua_finalizer(lua_State *L);
static const relua_tvalue relua_finalizer_value = {relua_finalizer, RELUA_TAG_LCF};
static atomic_int relua_finalizers_on = 0;

const relua_tvalue *__wrap_luaT_gettmbyobj(lua_State *L, const relua_tvalue *o, int event) {
  const relua_tvalue *tm = __real_luaT_gettmbyobj(L, o, event);
  if (event != RELUA_TM_GC || !atomic_load_explicit(&relua_finalizers_on, memory_order_relaxed)) return tm;
  if ((tm->tag & 0x0F) == LUA_TNIL || tm->tag == RELUA_TAG_LCF || tm->tag == RELUA_TAG_CCL) return tm;
  void *ud;
  if (lua_getallocf(L, &ud) != relua_alloc) return tm;  // not a relua state
  return &relua_finalizer_value;
}

static int relua_finalizer(lua_State *L) {
  relua_control *c = relua_getcontrol(L);
  lua_settop(L, 1);
  lua_State *co = lua_newthread(L);
  if (relua_wants_hook(c)) relua_install_hook(co, c);
  if (luaL_getmetafield(L, 1, "__gc") == LUA_TNIL) return 0;  // (raw, as GCTM's lookup)
  lua_pushvalue(L, 1);
  lua_xmove(L, co, 2);
  int results = 0;
  int status = lua_resume(co, L, 1, &results);
  if (status == LUA_OK) return 0;
  if (status == LUA_YIELD) return luaL_error(L, "attempt to yield across a C-call boundary");
  // Stopped by the budget or an interrupt: the error becomes a warning (GCTM's protected call),
  // and the code the collection interrupted raises at its next instruction.
  if ((c->budget_exhausted || c->interrupted) && relua_wants_count_hook(c)) relua_sethook(L, c, 1);
  lua_xmove(co, L, 1);
  return lua_error(L);
}

int relua_finalizers_budgeted(void) { return atomic_load(&relua_finalizers_on); }

static lua_State *relua_newstate_with(relua_flag *interrupt_flag) {
  relua_control *c = calloc(1, sizeof *c);
  if (c == NULL) return NULL;
  c->interrupt_flag = interrupt_flag;
  c->warn_on = 1;
  c->hook_step = RELUA_HOOK_STEP;
  c->hook = relua_hook;
  lua_State *L = lua_newstate(relua_alloc, c);
  if (L == NULL) {
    free(c);
    return NULL;
  }
  *(relua_control **)lua_getextraspace(L) = c;  // threads copy the main thread's extra space
  c->current = L;
  lua_atpanic(L, relua_panic);
  lua_setwarnf(L, relua_warnf, c);
  return L;
}

size_t relua_memory_ceiling(void) {
  unsigned long long available = 0;  // 0: unbounded so far
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  if (pages > 0 && page > 0) available = (unsigned long long)pages * (unsigned long long)page;
  unsigned long long mapped = 0;
  FILE *statm = fopen("/proc/self/statm", "r");
  if (statm) {
    unsigned long long size = 0;
    if (fscanf(statm, "%llu", &size) == 1 && page > 0) mapped = size * (unsigned long long)page;
    fclose(statm);
  }
  int resources[] = {RLIMIT_AS, RLIMIT_DATA};
  for (int i = 0; i < 2; i++) {
    struct rlimit limit;
    if (getrlimit(resources[i], &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) continue;
    unsigned long long left = limit.rlim_cur > mapped ? limit.rlim_cur - mapped : 0;
    if (available == 0 || left < available) available = left;
  }
  if (available == 0) return 0;
  unsigned long long ceiling = available / 2;
  if (ceiling < (16u << 20)) ceiling = 16u << 20;  // a state needs a little to start at all
  return ceiling > SIZE_MAX ? SIZE_MAX : (size_t)ceiling;
}

static int relua_traceback_body(lua_State *L) {
  luaL_traceback(L, lua_tothread(L, 1), NULL, 0);
  return 1;
}

int relua_ptraceback(lua_State *L, lua_State *co) {
  if (!lua_checkstack(L, 3)) return LUA_ERRMEM;
  lua_pushcfunction(L, relua_traceback_body);
  lua_pushthread(co);
  lua_xmove(co, L, 1);
  // A plain lua_pcall, not an entry (relua_enter): an outermost entry would start a fresh budget,
  // and the failure being described may be the budget's. It runs no Lua code.
  int status = lua_pcall(L, 1, 1, 0);
  if (status != LUA_OK) lua_settop(L, -2);
  return status;
}

static int relua_self_check_ran, relua_self_check_main;
static int relua_self_check_probe(lua_State *L) {
  relua_self_check_ran = 1;
  relua_self_check_main = lua_pushthread(L);  // 1 on the main thread
  return 0;
}

static int relua_self_check_body(lua_State *L) {
  if (luaL_loadstring(L, "local probe = ... return function() probe() end") != LUA_OK) return lua_error(L);
  lua_pushcfunction(L, relua_self_check_probe);
  lua_call(L, 1, 1);              // the finalizer
  lua_newtable(L);                // the object
  lua_createtable(L, 0, 1);
  lua_rotate(L, -3, -1);          // object, metatable, finalizer
  lua_setfield(L, -2, "__gc");
  lua_setmetatable(L, -2);
  lua_settop(L, 0);
  lua_gc(L, LUA_GCCOLLECT);
  return 0;
}

// Turns the finalizers' coroutines on if they work here (see above).
static void relua_finalizers_self_check(void) {
#if LUA_VERSION_NUM == 504
  if (lua_version(NULL) != 504) return;
  lua_State *L = relua_newstate_with(NULL);
  if (L == NULL) return;
  atomic_store(&relua_finalizers_on, 1);
  lua_pushcfunction(L, relua_self_check_body);
  int status = lua_pcall(L, 0, 0, 0);
  relua_control *c = relua_getcontrol(L);
  lua_close(L);
  free(c);
  if (status != LUA_OK || !relua_self_check_ran || relua_self_check_main) {
    atomic_store(&relua_finalizers_on, 0);
    fprintf(stderr, "relua: warning: __gc finalizers run outside the instruction budget (self-check failed: liblua %s)\n", LUA_RELEASE);
  }
#endif
}

static pthread_once_t relua_self_check_once = PTHREAD_ONCE_INIT;

lua_State *relua_newstate(relua_flag *interrupt_flag) {
  pthread_once(&relua_self_check_once, relua_finalizers_self_check);
  lua_State *L = relua_newstate_with(interrupt_flag);
  if (L) relua_getcontrol(L)->memory_ceiling = relua_memory_ceiling();
  return L;
}

int relua_close(lua_State *L, char *message, size_t message_size) {
  relua_control *c = relua_getcontrol(L);
  // The finalizers that run now (and `__close` handlers) get a budget of their own, the state's
  // limit or RELUA_CLOSE_BUDGET without one, so a finalizer that loops cannot hang the host: it is
  // stopped, reported as a warning, and the close reports it. Interrupts still stop them.
  c->instruction_limit = c->instruction_limit > 0 ? c->instruction_limit : RELUA_CLOSE_BUDGET;
  c->instructions_remaining = c->instruction_limit;
  c->shared_budget = 0;
  c->budget_exhausted = 0;
  c->exhausted_where[0] = '\0';
  c->interrupted = 0;
  if (c->interrupt_flag) relua_flag_set(c->interrupt_flag, 0);
  c->entries = 0;
  relua_install_hook(L, c);
  lua_close(L);
  int exhausted = c->budget_exhausted;
  if (message_size > 0) snprintf(message, message_size, "%s", exhausted ? c->exhausted_where : "");
  relua_coverage_detach(c);  // after lua_close: its `__close` handlers may still run lines
  free(c->warn_buffer);
  free(c);
  return exhausted;
}

#pragma mark - Boxes: Swift objects owned by Lua values

int relua_box_gc(lua_State *L) {
  relua_box *box = lua_touserdata(L, 1);
  relua_control *c = relua_getcontrol(L);
  if ((void *)box == c->checked_object) c->checked_object = NULL;  // its memory may be reused
  if (box && box->context && box->release) {
    void *context = box->context;
    box->context = NULL;  // exactly once, even if the userdata is resurrected
    lua_State *saved_current = c->current;
    int saved_strict = c->strict;
    c->current = L;
    c->strict = 0;
    box->release(context);
    c->current = saved_current;
    c->strict = saved_strict;
    c->live_boxes--;
  }
  return 0;
}

static int relua_error_tostring(lua_State *L) {
  lua_getiuservalue(L, 1, 1);
  return 1;
}

static void relua_setbox(lua_State *L, relua_box *box, void *context, relua_release_fn release) {
  box->context = context;
  box->release = release;
  if (release) relua_getcontrol(L)->live_boxes++;
}

int relua_newobjectmetatable(lua_State *L, const char *name) {
  lua_createtable(L, 0, 4);
  lua_pushstring(L, name);
  lua_setfield(L, -2, "__name");
  lua_pushstring(L, name);
  lua_setfield(L, -2, "__metatable");
  lua_pushcfunction(L, relua_box_gc);
  lua_setfield(L, -2, "__gc");
  lua_pushvalue(L, -1);
  return luaL_ref(L, LUA_REGISTRYINDEX);
}

// A Swift object's box: the box, and its type's tag (the identity of the metatable it was made
// with), so recognising an object costs no metatable lookup.
typedef struct relua_object_box {
  relua_box box;
  const void *tag;
} relua_object_box;

static relua_box *relua_newobjectbox(lua_State *L, int user_values, void *context, relua_release_fn release) {
  relua_object_box *object = lua_newuserdatauv(L, sizeof(relua_object_box), user_values);
  relua_setbox(L, &object->box, context, release);
  object->tag = NULL;
  return &object->box;
}

// Sets the tag of the object box below the metatable on top, and the metatable.
static void relua_setobjectmetatable(lua_State *L) {
  ((relua_object_box *)lua_touserdata(L, -2))->tag = lua_topointer(L, -1);
  lua_setmetatable(L, -2);
}

void relua_pushobject(lua_State *L, void *context, relua_release_fn release, int metatable_ref) {
  relua_newobjectbox(L, 0, context, release);
  lua_rawgeti(L, LUA_REGISTRYINDEX, metatable_ref);
  relua_setobjectmetatable(L);
}

relua_box *relua_toobject(lua_State *L, int idx, const void *metatable) {
  // Only this shim makes full userdata of this size; the tag was set with the metatable. No
  // lua_type (a hot path: store:send checks its receiver with this): the raw length is 0 for a
  // light userdata and for all but userdata, strings and tables, and lua_touserdata is NULL for
  // a string or a table.
  if (lua_rawlen(L, idx) != sizeof(relua_object_box)) return NULL;
  relua_object_box *object = lua_touserdata(L, idx);
  return object && object->tag == metatable ? &object->box : NULL;
}

relua_box *relua_tocheckedobject(lua_State *L, int idx, const void *metatable) {
  relua_control *c = relua_getcontrol(L);
  relua_object_box *object = lua_touserdata(L, idx);
  // The remembered box is a live object box (its __gc forgets it): no length check is needed to
  // read its tag. (A light userdata of the same address is that same object.)
  if (object != NULL && (void *)object == c->checked_object) return object->tag == metatable ? &object->box : NULL;
  relua_box *box = relua_toobject(L, idx, metatable);
  if (box != NULL) c->checked_object = box;
  return box;
}

void relua_pusherror(lua_State *L, void *context, relua_release_fn release) {
  relua_newobjectbox(L, 1, context, release);
  lua_getfield(L, LUA_REGISTRYINDEX, RELUA_ERROR_METATABLE);
  relua_setobjectmetatable(L);
  lua_rotate(L, -2, 1);          // error, description
  lua_setiuservalue(L, -2, 1);   // error.uservalue[1] = description
}

relua_box *relua_toerror(lua_State *L, int idx) {
  idx = lua_absindex(L, idx);
  lua_getfield(L, LUA_REGISTRYINDEX, RELUA_ERROR_METATABLE);
  const void *metatable = lua_topointer(L, -1);
  lua_settop(L, -2);
  return relua_toobject(L, idx, metatable);
}

#pragma mark - The trampoline

// A Swift function's box: the context (first, so the boxes' __gc sees a relua_box) and the
// Swift @convention(c) callback.
typedef struct relua_function_box {
  relua_box box;
  relua_callback callback;
} relua_function_box;

// Every Swift function is this C function with one upvalue, its function box.
static int relua_trampoline(lua_State *L) {
  relua_function_box *function = lua_touserdata(L, lua_upvalueindex(1));
  return relua_call_swift(L, relua_getcontrol(L), function->callback, function->box.context);
}

int relua_callbox(lua_State *L, int index) {
  relua_function_box *function = lua_touserdata(L, index);
  return relua_call_swift(L, relua_getcontrol(L), function->callback, function->box.context);
}

void relua_pushfunction(lua_State *L, relua_callback callback, void *context, relua_release_fn release) {
  relua_function_box *function = lua_newuserdatauv(L, sizeof(relua_function_box), 0);
  function->callback = callback;
  relua_setbox(L, &function->box, context, release);
  lua_getfield(L, LUA_REGISTRYINDEX, RELUA_BOX_METATABLE);
  lua_setmetatable(L, -2);
  lua_pushcclosure(L, relua_trampoline, 1);
}

// The box of a context the control block holds (the hot function's, a host's): `gc` forgets
// it there, then releases it as any box's __gc does.
void relua_pushslotbox(lua_State *L, void *context, relua_release_fn release, lua_CFunction gc) {
  relua_box *box = lua_newuserdatauv(L, sizeof(relua_box), 0);
  relua_setbox(L, box, context, release);
  lua_createtable(L, 0, 2);
  lua_pushcfunction(L, gc);
  lua_setfield(L, -2, "__gc");
  lua_pushliteral(L, "SwiftFunction");
  lua_setfield(L, -2, "__metatable");
  lua_setmetatable(L, -2);
}

// The hot function: the trampoline without the upvalue (its box is one, only to keep it alive).
static int relua_hot_trampoline(lua_State *L) {
  relua_control *c = relua_getcontrol(L);
  return relua_call_swift(L, c, c->hot_callback, c->hot_context);
}

static int relua_hot_box_gc(lua_State *L) {
  relua_box *box = lua_touserdata(L, 1);
  relua_control *c = relua_getcontrol(L);
  if (box && box->context && c->hot_context == box->context) c->hot_context = NULL;
  return relua_box_gc(L);
}

void relua_pushhotfunction(lua_State *L, relua_callback callback, void *context, relua_release_fn release) {
  relua_control *c = relua_getcontrol(L);
  // Once only: a closure of a released hot function may still be called (from a finalizer), and
  // must then find the slot empty, not another function in it.
  if (c->hot_taken) {
    relua_pushfunction(L, callback, context, release);
    return;
  }
  relua_pushslotbox(L, context, release, relua_hot_box_gc);
  c->hot_taken = 1;
  c->hot_callback = callback;
  c->hot_context = context;
  lua_pushcclosure(L, relua_hot_trampoline, 1);
}

#pragma mark - Protected entries

// Lua places its own runtime errors (a stack overflow, arithmetic on nil) at the running
// function's line, which may be one of relua's chunks (`[relua deps]:2: stack overflow`), a place
// the script's author cannot look up. If the error value on top of L is a string placed in a host
// chunk (`[…]:N: `), that place is replaced by the innermost script line on `stack`'s frames
// (still there: a message handler runs before the unwinding, a dead coroutine keeps its frames).
static void relua_replace_host_where(lua_State *L, lua_State *stack) {
  const char *message = lua_tostring(L, -1);
  if (lua_type(L, -1) != LUA_TSTRING || message[0] != '[') return;
  const char *close = strstr(message, "]:");
  if (close == NULL) return;
  const char *p = close + 2;
  if (!isdigit((unsigned char)*p)) return;
  while (isdigit((unsigned char)*p)) p++;
  if (p[0] != ':' || p[1] != ' ') return;
  lua_Debug ar;
  for (int level = 0; lua_getstack(stack, level, &ar); level++) {
    if (!lua_getinfo(stack, "Sl", &ar)) break;
    if (ar.currentline > 0 && !(ar.source[0] == '=' && ar.source[1] == '[')) {
      if (!lua_checkstack(L, 2)) return;
      lua_pushfstring(L, "%s:%d: %s", ar.short_src, ar.currentline, p + 2);
      lua_replace(L, -2);
      return;
    }
  }
}

int relua_msgh(lua_State *L) {
  relua_replace_host_where(L, L);
  luaL_traceback(L, L, NULL, 1);
  lua_setfield(L, LUA_REGISTRYINDEX, RELUA_TRACEBACK_KEY);
  lua_settop(L, 1);
  return 1;
}

int relua_pcall(lua_State *L, int nargs, int nresults) {
  relua_control *c = relua_getcontrol(L);
  int handler = lua_gettop(L) - nargs;  // where the function is; the handler goes below it
  lua_pushcfunction(L, relua_msgh);
  lua_rotate(L, handler, 1);
  int saved = relua_enter(L, c);
  int status = lua_pcall(L, nargs, nresults, handler);
  relua_leave(c, saved);
  lua_rotate(L, handler, -1);
  lua_settop(L, -2);
  return status;
}

int relua_pushcall(lua_State *L, int slots, int function_ref) {
  if (!lua_checkstack(L, slots)) return -1;
  int top = lua_gettop(L);
  lua_pushcfunction(L, relua_msgh);
  lua_rawgeti(L, LUA_REGISTRYINDEX, function_ref);
  return top;
}

int relua_pcallwith(lua_State *L, int nargs, int nresults, int handler) {
  relua_control *c = relua_getcontrol(L);
  int saved = relua_enter(L, c);
  int status = lua_pcall(L, nargs, nresults, handler);
  relua_leave(c, saved);
  return status;
}

int relua_protected(lua_State *L, int nargs, int nresults) {
  relua_control *c = relua_getcontrol(L);
  int saved = relua_enter(L, c);
  int status = lua_pcall(L, nargs, nresults, 0);
  relua_leave(c, saved);
  return status;
}

int relua_load(lua_State *L, const char *buffer, size_t length, const char *chunkname, const char *mode) {
  relua_control *c = relua_getcontrol(L);
  int saved = relua_enter(L, c);
  int status = relua_loadbuffer(L, buffer, length, chunkname, mode);
  relua_leave(c, saved);
  return status;
}

int relua_loadfile(lua_State *L, const char *path, const char *mode) {
  relua_control *c = relua_getcontrol(L);
  int saved = relua_enter(L, c);
  int status = relua_loadfilebuffer(L, path, mode);
  relua_leave(c, saved);
  return status;
}

int relua_resume(lua_State *co, lua_State *from, int nargs, int *nresults) {
  relua_control *c = relua_getcontrol(co);
  int saved = relua_enter(co, c);
  int status = lua_resume(co, from, nargs, nresults);
  relua_leave(c, saved);
  if (status != LUA_OK && status != LUA_YIELD) relua_replace_host_where(co, co);
  return status;
}

int relua_closethread(lua_State *co) {
  relua_control *c = relua_getcontrol(co);
  int saved = relua_enter(co, c);
  int status = lua_resetthread(co);
  relua_leave(c, saved);
  return status;
}

static int relua_gettable_body(lua_State *L) {
  lua_gettable(L, 1);
  return 1;
}

int relua_pgettable(lua_State *L, int idx) {
  idx = lua_absindex(L, idx);
  lua_pushcfunction(L, relua_gettable_body);  // k f
  lua_pushvalue(L, idx);                      // k f t
  lua_rotate(L, -3, 2);                       // f t k
  return relua_protected(L, 2, 1);
}

static int relua_settable_body(lua_State *L) {
  lua_settable(L, 1);
  return 0;
}

int relua_psettable(lua_State *L, int idx) {
  idx = lua_absindex(L, idx);
  lua_pushcfunction(L, relua_settable_body);  // k v f
  lua_pushvalue(L, idx);                      // k v f t
  lua_rotate(L, -4, 2);                       // f t k v
  return relua_protected(L, 3, 0);
}

static int relua_len_body(lua_State *L) {
  lua_len(L, 1);
  return 1;
}

int relua_plen(lua_State *L, int idx) {
  idx = lua_absindex(L, idx);
  lua_pushcfunction(L, relua_len_body);
  lua_pushvalue(L, idx);
  return relua_protected(L, 1, 1);
}

static int relua_tostring_body(lua_State *L) {
  luaL_tolstring(L, 1, NULL);
  return 1;
}

int relua_ptostring(lua_State *L, int idx) {
  idx = lua_absindex(L, idx);
  lua_pushcfunction(L, relua_tostring_body);
  lua_pushvalue(L, idx);
  return relua_protected(L, 1, 1);
}

void relua_gc_generational(lua_State *L) { lua_gc(L, LUA_GCGEN, 0, 0); }

void relua_gc_collect(lua_State *L) {
  relua_control *c = relua_getcontrol(L);
  int saved = c->strict;
  c->strict = 1;  // finalizers are Lua code: they run under the limit (their errors become warnings)
  lua_gc(L, LUA_GCCOLLECT);
  c->strict = saved;
}

int relua_gc_count_bytes(lua_State *L) {
  return lua_gc(L, LUA_GCCOUNT) * 1024 + lua_gc(L, LUA_GCCOUNTB);
}

#pragma mark - Standard library and sandbox

#pragma mark - The standard library (the sandbox itself: sandbox.c)

typedef struct relua_open_arguments {
  int trusted;
  int ignore_environment;
  const char *const *roots;
  int root_count;
} relua_open_arguments;

// os.exit(code, true) in a trusted state: Lua's closes the state, which closes the main thread's
// pending to-be-closed variables; relua runs a script in a coroutine, so its variables are closed
// first (the running thread's, as lua_close does the main thread's), then the state, then exit.
static void (*relua_exit_hook)(void) = NULL;

void relua_set_exit_hook(void (*hook)(void)) { relua_exit_hook = hook; }

static int relua_os_exit(lua_State *L) {
  int status;
  // What the host keeps for later (a shared file's save, waiting out its delay) runs first.
  if (relua_exit_hook) relua_exit_hook();
  if (lua_isboolean(L, 1)) status = lua_toboolean(L, 1) ? EXIT_SUCCESS : EXIT_FAILURE;
  else status = (int)luaL_optinteger(L, 1, EXIT_SUCCESS);
  if (lua_toboolean(L, 2)) {
    int main_thread = lua_pushthread(L);
    lua_settop(L, -2);
    fflush(stdout);
    if (!main_thread) lua_resetthread(L);  // runs its __close handlers; it never runs on
    lua_close(L);
  }
  fflush(NULL);
  exit(status);
}

static int relua_openlibs_body(lua_State *L) {
  relua_open_arguments *arguments = lua_touserdata(L, 1);
  if (arguments->ignore_environment) {  // read by luaopen_package (lua.c's -E)
    lua_pushboolean(L, 1);
    lua_setfield(L, LUA_REGISTRYINDEX, "LUA_NOENV");
  }
  luaL_openlibs(L);

  lua_createtable(L, 0, 2);
  lua_pushcfunction(L, relua_box_gc);
  lua_setfield(L, -2, "__gc");
  lua_pushliteral(L, "SwiftFunction");
  lua_setfield(L, -2, "__metatable");
  lua_setfield(L, LUA_REGISTRYINDEX, RELUA_BOX_METATABLE);

  lua_createtable(L, 0, 4);
  lua_pushcfunction(L, relua_box_gc);
  lua_setfield(L, -2, "__gc");
  lua_pushcfunction(L, relua_error_tostring);
  lua_setfield(L, -2, "__tostring");
  lua_pushliteral(L, "SwiftError");
  lua_setfield(L, -2, "__name");
  lua_pushliteral(L, "SwiftError");
  lua_setfield(L, -2, "__metatable");
  lua_setfield(L, LUA_REGISTRYINDEX, RELUA_ERROR_METATABLE);

  lua_pushcfunction(L, relua_print);
  lua_setglobal(L, "print");

  // string.find/match/gmatch/gsub: relua's matcher, charged to the budget (pattern.c). The string
  // metatable's __index is this same table, so `("x"):find` gets them too.
  lua_getglobal(L, "string");
  relua_pattern_install(L, -1);
  lua_settop(L, -2);

  lua_createtable(L, arguments->root_count, 0);
  for (int i = 0; i < arguments->root_count; i++) {
    lua_pushstring(L, arguments->roots[i]);
    lua_rawseti(L, -2, i + 1);
  }
  int roots = lua_gettop(L);
  if (arguments->trusted) {
    if (arguments->root_count > 0) relua_add_root_searcher(L, roots);
    lua_getglobal(L, "os");
    lua_pushcfunction(L, relua_os_exit);
    lua_setfield(L, -2, "exit");
    lua_settop(L, -2);
  } else {
    relua_sandbox(L, roots);
  }
  return 0;
}

int relua_openlibs(lua_State *L, int trusted, int ignore_environment, const char *const *roots, int root_count) {
  relua_open_arguments arguments = {trusted, ignore_environment, roots, root_count};
  lua_pushcfunction(L, relua_openlibs_body);
  lua_pushlightuserdata(L, &arguments);
  return relua_protected(L, 1, 0);
}

const char *relua_copyright(void) { return LUA_COPYRIGHT; }
