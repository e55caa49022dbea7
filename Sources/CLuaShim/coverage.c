// Line coverage: which lines of the scripts' files ran, how often (relua test --coverage).
//
// A state with coverage installs relua_line_hook instead of relua_hook on every thread it enters
// (shim.c's relua_install_hook; a coroutine Lua creates inherits its creator's hook), with the
// line mask added to the count mask of the instruction budget and interrupts. Line events are
// counted in the state's own counts, without a lock; they are added to the coverage, under its
// lock, when the state closes. States without coverage never see any of this: their hook is
// relua_hook alone, as before.
//
// Only files the host loaded count (relua_coverage_register, at relua_loadfilebuffer: the runner's
// test files and what the root searcher finds; in trusted states also what package.path's searcher
// loads): a line event of any other chunk — one a script named "@/some/file" itself with `load` —
// is dropped, so a coverage never names, and a report never opens, a file the host did not load.
//
// Which lines hold code — the lines a report lists with 0 hits when they never ran — is what the
// Lua VM itself says: relua_code_lines compiles the file, and asks the VM for the active lines of
// its main function and of every function nested in it.

#include "CLuaShim.h"
#include "CLuaShimHost.h"
#include "coverage.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#pragma mark - Counts per file

// One file's counts: hits[line], for lines 0..<size.
typedef struct relua_linefile {
  char *source;  // the chunk name, "@path"
  size_t length;
  unsigned long long *hits;
  int size;
} relua_linefile;

struct relua_linecounts {
  relua_linefile *files;
  int count, capacity;
  int last;  // the file of the last line event (a cache: most events stay in one file)
};

// The file named `source`; when it is not there yet, added if `create`, else NULL.
static relua_linefile *relua_linefile_find(relua_linecounts *counts, const char *source, size_t length, int create) {
  if (counts->last >= 0) {
    relua_linefile *file = &counts->files[counts->last];
    if (file->length == length && memcmp(file->source, source, length) == 0) return file;
  }
  for (int i = 0; i < counts->count; i++) {
    relua_linefile *file = &counts->files[i];
    if (file->length == length && memcmp(file->source, source, length) == 0) {
      counts->last = i;
      return file;
    }
  }
  if (!create) return NULL;
  if (counts->count == counts->capacity) {
    int capacity = counts->capacity ? counts->capacity * 2 : 16;
    relua_linefile *files = realloc(counts->files, (size_t)capacity * sizeof *files);
    if (files == NULL) return NULL;
    counts->files = files;
    counts->capacity = capacity;
  }
  char *copy = malloc(length + 1);
  if (copy == NULL) return NULL;
  memcpy(copy, source, length);
  copy[length] = '\0';
  relua_linefile *file = &counts->files[counts->count];
  *file = (relua_linefile){copy, length, NULL, 0};
  counts->last = counts->count++;
  return file;
}

// Adds `hits` to `line` of the file. Out of memory, the count is lost (coverage is a report, and
// must not fail the code it watches).
// A file not there yet is added if `create` (the shared coverage), else the count is dropped (a
// state's counts: only registered files count).
static void relua_linecounts_add(relua_linecounts *counts, const char *source, size_t length, int line,
                                 unsigned long long hits, int create) {
  if (line <= 0) return;
  relua_linefile *file = relua_linefile_find(counts, source, length, create);
  if (file == NULL) return;
  if (line >= file->size) {
    int size = file->size ? file->size : 64;
    while (size <= line) size *= 2;
    unsigned long long *grown = realloc(file->hits, (size_t)size * sizeof *grown);
    if (grown == NULL) return;
    memset(grown + file->size, 0, (size_t)(size - file->size) * sizeof *grown);
    file->hits = grown;
    file->size = size;
  }
  file->hits[line] += hits;
}

static void relua_linecounts_clear(relua_linecounts *counts) {
  for (int i = 0; i < counts->count; i++) {
    free(counts->files[i].source);
    free(counts->files[i].hits);
  }
  free(counts->files);
  *counts = (relua_linecounts){NULL, 0, 0, -1};
}

#pragma mark - The hook

void relua_line_hook(lua_State *L, lua_Debug *ar) {
  if (ar->event != LUA_HOOKLINE) {
    relua_hook(L, ar);  // the count event: the budget's and interrupts'
    return;
  }
  // Files the host loaded only (`@path`, registered): not the host's chunks (`=[relua]`) nor
  // strings given to `load`, whatever name the script gave them.
  if (!lua_getinfo(L, "S", ar) || ar->source[0] != '@') return;
  relua_linecounts_add(relua_getcontrol(L)->line_counts, ar->source, ar->srclen, ar->currentline, 1, 0);
}

void relua_coverage_register(lua_State *L, const char *chunkname) {
  relua_control *c = relua_getcontrol(L);
  if (c == NULL || c->line_counts == NULL || chunkname == NULL || chunkname[0] != '@') return;
  relua_linefile_find(c->line_counts, chunkname, strlen(chunkname), 1);
}

#pragma mark - A coverage, shared by states

struct relua_coverage {
  pthread_mutex_t lock;
  relua_linecounts counts;
};

relua_coverage *relua_coverage_new(void) {
  relua_coverage *coverage = calloc(1, sizeof *coverage);
  if (coverage == NULL) return NULL;
  pthread_mutex_init(&coverage->lock, NULL);
  coverage->counts.last = -1;
  return coverage;
}

void relua_coverage_free(relua_coverage *coverage) {
  if (coverage == NULL) return;
  relua_linecounts_clear(&coverage->counts);
  pthread_mutex_destroy(&coverage->lock);
  free(coverage);
}

int relua_coverage_attach(lua_State *L, relua_coverage *coverage) {
  relua_control *c = relua_getcontrol(L);
  if (c->line_counts != NULL) return 0;
  relua_linecounts *counts = calloc(1, sizeof *counts);
  if (counts == NULL) return 0;
  counts->last = -1;
  c->line_counts = counts;
  c->coverage = coverage;
  c->hook = relua_line_hook;
  // The hook goes in at the next entry from Swift (relua_enter), on whichever thread it enters.
  return 1;
}

void relua_coverage_detach(relua_control *c) {
  relua_linecounts *counts = c->line_counts;
  if (counts == NULL) return;
  relua_coverage *coverage = c->coverage;
  pthread_mutex_lock(&coverage->lock);
  for (int i = 0; i < counts->count; i++) {
    relua_linefile *file = &counts->files[i];
    for (int line = file->size - 1; line > 0; line--) {
      if (file->hits[line] > 0) relua_linecounts_add(&coverage->counts, file->source, file->length, line, file->hits[line], 1);
    }
  }
  pthread_mutex_unlock(&coverage->lock);
  relua_linecounts_clear(counts);
  free(counts);
  c->line_counts = NULL;
  c->coverage = NULL;
  c->hook = relua_hook;
}

void relua_coverage_read(relua_coverage *coverage, relua_coverage_visitor visit, void *context) {
  pthread_mutex_lock(&coverage->lock);
  for (int i = 0; i < coverage->counts.count; i++) {
    relua_linefile *file = &coverage->counts.files[i];
    visit(context, file->source, file->length, file->hits, file->size);
  }
  pthread_mutex_unlock(&coverage->lock);
}

#pragma mark - The lines holding code, by the Lua VM

// Lua's C API gives the active lines of a function value only (lua_getinfo "L"), and a loaded
// chunk is one function value: the functions nested in it are prototypes without values until it
// runs. So the chunk is dumped (lua_dump, debug information kept), the dump walked to find each
// function's bytes, and each function loaded back alone as a binary chunk (the dump's header, its
// upvalue count, its bytes) and asked for its active lines. Nothing is run. The walk follows Lua
// 5.4's dump format (ldump.c), checked by the header's version byte; a dump it cannot walk is an
// error, never a guess.

typedef struct relua_dump {
  unsigned char *data;
  size_t length, capacity;
} relua_dump;

static int relua_dump_writer(lua_State *L, const void *p, size_t size, void *ud) {
  (void)L;
  relua_dump *dump = ud;
  if (dump->length + size > dump->capacity) {
    size_t capacity = (dump->length + size) * 2;
    unsigned char *grown = realloc(dump->data, capacity);
    if (grown == NULL) return 1;
    dump->data = grown;
    dump->capacity = capacity;
  }
  memcpy(dump->data + dump->length, p, size);
  dump->length += size;
  return 0;
}

typedef struct relua_reader {
  const unsigned char *data;
  size_t length, at;
  int failed;
  size_t instruction_size, integer_size, number_size, header_length;
} relua_reader;

static unsigned char relua_read_byte(relua_reader *r) {
  if (r->at >= r->length) {
    r->failed = 1;
    return 0;
  }
  return r->data[r->at++];
}

// ldump.c's dumpSize: 7 bits a byte, most significant first, the last byte marked with 0x80.
static size_t relua_read_size(relua_reader *r) {
  size_t x = 0;
  int b, bytes = 0;
  do {
    b = relua_read_byte(r);
    if (r->failed || ++bytes > 9) {
      r->failed = 1;
      return 0;
    }
    x = (x << 7) | (size_t)(b & 0x7f);
  } while ((b & 0x80) == 0);
  return x;
}

static void relua_read_skip(relua_reader *r, size_t n, size_t each) {
  if (each != 0 && n > (r->length - r->at) / each) {
    r->failed = 1;
    r->at = r->length;
    return;
  }
  r->at += n * each;
}

static void relua_read_string(relua_reader *r) {
  size_t size = relua_read_size(r);  // 0: NULL; else the length + 1
  if (size > 0) relua_read_skip(r, size - 1, 1);
}

typedef struct relua_lines {
  int *lines;
  size_t count, capacity;
} relua_lines;

static void relua_lines_add(lua_State *L, relua_lines *lines, int line) {
  if (lines->count == lines->capacity) {
    size_t capacity = lines->capacity ? lines->capacity * 2 : 64;
    int *grown = realloc(lines->lines, capacity * sizeof *grown);
    if (grown == NULL) luaL_error(L, "not enough memory");
    lines->lines = grown;
    lines->capacity = capacity;
  }
  lines->lines[lines->count++] = line;
}

// Loads the function whose dump is data[start..<end) (with `upvalues` upvalues) alone, and adds
// its active lines.
static void relua_add_active_lines(lua_State *L, relua_reader *r, size_t start, size_t end, int upvalues,
                                   relua_lines *lines) {
  size_t length = r->header_length + 1 + (end - start);
  unsigned char *chunk = lua_newuserdatauv(L, length, 0);  // collected with the state
  memcpy(chunk, r->data, r->header_length);
  chunk[r->header_length] = (unsigned char)upvalues;
  memcpy(chunk + r->header_length + 1, r->data + start, end - start);
  if (luaL_loadbufferx(L, (const char *)chunk, length, "=(function)", "b") != LUA_OK) lua_error(L);
  lua_Debug ar;
  lua_getinfo(L, ">L", &ar);  // pops the function, pushes its active lines (a set)
  lua_pushnil(L);
  while (lua_next(L, -2)) {
    lua_pop(L, 1);
    if (lua_isinteger(L, -1)) relua_lines_add(L, lines, (int)lua_tointeger(L, -1));
  }
  lua_pop(L, 2);  // the set and the chunk
}

// ldump.c's dumpFunction: its source, lines, sizes, code, constants, upvalues, nested functions
// (recursively), debug information.
static void relua_walk_function(lua_State *L, relua_reader *r, int depth, relua_lines *lines) {
  if (depth > 250) luaL_error(L, "functions nested too deep");
  size_t start = r->at;
  relua_read_string(r);  // source (NULL in nested functions: their parent's)
  relua_read_size(r);    // linedefined
  relua_read_size(r);    // lastlinedefined
  relua_read_skip(r, 3, 1);  // numparams, is_vararg, maxstacksize
  relua_read_skip(r, relua_read_size(r), r->instruction_size);
  size_t constants = relua_read_size(r);
  for (size_t i = 0; i < constants && !r->failed; i++) {
    switch (relua_read_byte(r)) {
      case LUA_TNIL: case LUA_TBOOLEAN: case LUA_TBOOLEAN | (1 << 4): break;  // nil, false, true
      case LUA_TNUMBER: relua_read_skip(r, 1, r->integer_size); break;        // an integer
      case LUA_TNUMBER | (1 << 4): relua_read_skip(r, 1, r->number_size); break;  // a float
      case LUA_TSTRING: case LUA_TSTRING | (1 << 4): relua_read_string(r); break;  // short, long
      default: r->failed = 1;
    }
  }
  size_t upvalues = relua_read_size(r);
  relua_read_skip(r, upvalues, 3);  // instack, idx, kind
  size_t functions = relua_read_size(r);
  for (size_t i = 0; i < functions && !r->failed; i++) relua_walk_function(L, r, depth + 1, lines);
  relua_read_skip(r, relua_read_size(r), 1);  // lineinfo
  size_t absolute = relua_read_size(r);  // abslineinfo: pc, line
  for (size_t i = 0; i < absolute && !r->failed; i++) { relua_read_size(r); relua_read_size(r); }
  size_t locals = relua_read_size(r);  // locvars: name, startpc, endpc
  for (size_t i = 0; i < locals && !r->failed; i++) {
    relua_read_string(r);
    relua_read_size(r);
    relua_read_size(r);
  }
  size_t names = relua_read_size(r);  // upvalue names
  for (size_t i = 0; i < names && !r->failed; i++) relua_read_string(r);
  if (r->failed || upvalues > 255) luaL_error(L, "cannot read the compiled chunk (not Lua 5.4's dump format)");
  relua_add_active_lines(L, r, start, r->at, (int)upvalues, lines);
}

typedef struct relua_code_lines_arguments {
  const char *path;
  relua_dump dump;
  relua_lines lines;
} relua_code_lines_arguments;

static int relua_code_lines_body(lua_State *L) {
  relua_code_lines_arguments *arguments = lua_touserdata(L, 1);
  if (luaL_loadfilex(L, arguments->path, "t") != LUA_OK) lua_error(L);
  if (lua_dump(L, relua_dump_writer, &arguments->dump, 0) != 0) luaL_error(L, "not enough memory");
  lua_pop(L, 1);
  relua_dump *dump = &arguments->dump;
  // The header (lundump.c's checkHeader): signature, version 0x54, format 0, LUAC_DATA, the sizes
  // of an instruction, an integer and a float, then a test integer and a test float.
  if (dump->length < 15 || memcmp(dump->data, LUA_SIGNATURE, 4) != 0 || dump->data[4] != 0x54 || dump->data[5] != 0)
    luaL_error(L, "cannot read the compiled chunk (not Lua 5.4's dump format)");
  relua_reader r = {dump->data, dump->length, 0, 0, dump->data[12], dump->data[13], dump->data[14], 0};
  r.header_length = 15 + r.integer_size + r.number_size;
  r.at = r.header_length + 1;  // and the main function's upvalue count
  if (r.at > r.length) luaL_error(L, "cannot read the compiled chunk (not Lua 5.4's dump format)");
  relua_walk_function(L, &r, 0, &arguments->lines);
  if (r.at != r.length) luaL_error(L, "cannot read the compiled chunk (bytes left over)");
  return 0;
}

static int relua_compare_ints(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

int relua_code_lines(const char *path, int **lines, int *count, char *message, size_t message_size) {
  *lines = NULL;
  *count = 0;
  lua_State *L = luaL_newstate();  // a plain state of its own: it only compiles, never runs the file
  if (L == NULL) {
    snprintf(message, message_size, "not enough memory");
    return 0;
  }
  relua_code_lines_arguments arguments = {path, {NULL, 0, 0}, {NULL, 0, 0}};
  lua_pushcfunction(L, relua_code_lines_body);
  lua_pushlightuserdata(L, &arguments);
  int status = lua_pcall(L, 1, 0, 0);
  if (status != LUA_OK) {
    const char *text = lua_tostring(L, -1);
    snprintf(message, message_size, "%s", text ? text : "error");
  }
  lua_close(L);
  free(arguments.dump.data);
  if (status != LUA_OK) {
    free(arguments.lines.lines);
    return 0;
  }
  // Sorted, each line once (functions share lines: a nested function's `end` and the statement
  // that makes its closure).
  relua_lines *found = &arguments.lines;
  if (found->count > 0) qsort(found->lines, found->count, sizeof(int), relua_compare_ints);
  size_t unique = 0;
  for (size_t i = 0; i < found->count; i++) {
    if (unique == 0 || found->lines[unique - 1] != found->lines[i]) found->lines[unique++] = found->lines[i];
  }
  *lines = found->lines;
  *count = (int)unique;
  return 1;
}

void relua_free(void *pointer) { free(pointer); }
