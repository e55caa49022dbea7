// Compiled chunks shared by the states of a process. A test runner makes a fresh state per test
// and loads the same preludes, test file and modules into each: parsing them again was a third of
// `relua test`'s time (perf: llex, the parser's symbol lookups). A state that opts in
// (`relua_control.shares_chunks`) compiles a text chunk once; later loads of the same name and
// text, in any state, load its bytecode (its own: nothing a script gives is ever loaded as
// binary). Entries live as long as the process, up to CACHE_LIMIT bytes in all.
#include "CLuaShim.h"
#include "CLuaShimHost.h"
#include "coverage.h"
#include <lua5.4/lauxlib.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { CACHE_LIMIT = 64 << 20 };

typedef struct chunk {
  struct chunk *next;
  uint64_t hash;
  char *name;
  char *source;
  size_t source_length;
  char *code;
  size_t code_length;
} chunk;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static chunk *chunks;
static size_t cached_bytes;

// A word at a time (the sources are tens of kilobytes, hashed on every load): collisions only
// cost a memcmp, which `find` does anyway.
static uint64_t hash_bytes(const char *bytes, size_t length, uint64_t hash) {
  size_t i = 0;
  for (; i + 8 <= length; i += 8) {
    uint64_t word;
    memcpy(&word, bytes + i, 8);
    hash = (hash ^ word) * 0x9E3779B97F4A7C15ULL;
    hash ^= hash >> 29;
  }
  for (; i < length; i++) hash = (hash ^ (unsigned char)bytes[i]) * 1099511628211ULL;
  return hash ^ length;
}

// An entry is never changed or freed once listed, so what `find` returns stays valid unlocked.
static const chunk *find(uint64_t hash, const char *name, const char *source, size_t length) {
  pthread_mutex_lock(&lock);
  const chunk *found = chunks;
  while (found && !(found->hash == hash && found->source_length == length && strcmp(found->name, name) == 0 &&
                    memcmp(found->source, source, length) == 0))
    found = found->next;
  pthread_mutex_unlock(&lock);
  return found;
}

typedef struct dump_buffer {
  char *data;
  size_t length, capacity;
} dump_buffer;

static int write_dump(lua_State *L, const void *bytes, size_t size, void *context) {
  (void)L;
  dump_buffer *buffer = context;
  if (buffer->length + size > buffer->capacity) {
    size_t capacity = buffer->capacity ? buffer->capacity : 4096;
    while (capacity < buffer->length + size) capacity *= 2;
    char *bigger = realloc(buffer->data, capacity);
    if (bigger == NULL) return 1;
    buffer->data = bigger;
    buffer->capacity = capacity;
  }
  memcpy(buffer->data + buffer->length, bytes, size);
  buffer->length += size;
  return 0;
}

// Keeps the bytecode of the function on top, compiled from `source` (best effort: nothing is kept
// when memory is short or the cache is full).
static void keep(lua_State *L, uint64_t hash, const char *name, const char *source, size_t length) {
  dump_buffer code = {0};
  if (lua_dump(L, write_dump, &code, 0) != 0) {
    free(code.data);
    return;
  }
  chunk *entry = calloc(1, sizeof *entry);
  size_t name_length = strlen(name) + 1;
  if (entry) {
    entry->name = malloc(name_length);
    entry->source = malloc(length ? length : 1);
  }
  if (!entry || !entry->name || !entry->source) {
    if (entry) { free(entry->name); free(entry->source); }
    free(entry);
    free(code.data);
    return;
  }
  memcpy(entry->name, name, name_length);
  memcpy(entry->source, source, length);
  entry->hash = hash;
  entry->source_length = length;
  entry->code = code.data;
  entry->code_length = code.length;
  size_t size = length + code.length + name_length + sizeof *entry;
  pthread_mutex_lock(&lock);
  int fits = cached_bytes + size <= CACHE_LIMIT;
  if (fits) {
    cached_bytes += size;
    entry->next = chunks;
    chunks = entry;
  }
  pthread_mutex_unlock(&lock);
  if (!fits) {
    free(entry->name);
    free(entry->source);
    free(entry->code);
    free(entry);
  }
}

int relua_loadbuffer(lua_State *L, const char *buffer, size_t length, const char *chunkname, const char *mode) {
  int text_allowed = mode == NULL || strchr(mode, 't') != NULL;
  int is_binary = length > 0 && buffer[0] == LUA_SIGNATURE[0];
  if (!relua_getcontrol(L)->shares_chunks || !text_allowed || is_binary || chunkname == NULL)
    return luaL_loadbufferx(L, buffer, length, chunkname, mode);
  uint64_t hash = hash_bytes(buffer, length, hash_bytes(chunkname, strlen(chunkname), 14695981039346656037ULL));
  const chunk *compiled = find(hash, chunkname, buffer, length);
  if (compiled) return luaL_loadbufferx(L, compiled->code, compiled->code_length, chunkname, "b");
  int status = luaL_loadbufferx(L, buffer, length, chunkname, mode);
  if (status == LUA_OK) keep(L, hash, chunkname, buffer, length);
  return status;
}

int relua_loadfilebuffer(lua_State *L, const char *path, const char *mode) {
  FILE *file = fopen(path, "rb");
  if (file == NULL) {
    lua_pushfstring(L, "cannot open %s", path);
    return LUA_ERRFILE;
  }
  size_t capacity = 4096, length = 0;
  char *buffer = malloc(capacity);
  size_t got;
  while (buffer && (got = fread(buffer + length, 1, capacity - length, file)) > 0) {
    length += got;
    if (length == capacity) {
      char *bigger = realloc(buffer, capacity * 2);
      if (bigger == NULL) { free(buffer); buffer = NULL; break; }
      buffer = bigger;
      capacity *= 2;
    }
  }
  int failed = ferror(file);
  fclose(file);
  if (buffer == NULL || failed) {
    free(buffer);
    lua_pushfstring(L, "cannot read %s", path);
    return LUA_ERRFILE;
  }
  size_t skip = 0;
  if (length >= 3 && memcmp(buffer, "\xEF\xBB\xBF", 3) == 0) skip = 3;  // a UTF-8 byte-order mark
  if (skip < length && buffer[skip] == '#') {  // a first line starting with '#' (shebang): kept as
    while (skip < length && buffer[skip] != '\n') skip++;  // its newline, so lines keep their numbers
    // …unless a binary chunk follows (lauxlib's loadfile: the newline is for text only).
    if (skip + 1 < length && buffer[skip + 1] == LUA_SIGNATURE[0]) skip++;
  }
  size_t name_length = strlen(path) + 2;
  char *chunkname = malloc(name_length);
  if (chunkname == NULL) {
    free(buffer);
    lua_pushliteral(L, "not enough memory");
    return LUA_ERRMEM;
  }
  snprintf(chunkname, name_length, "@%s", path);
  int status = relua_loadbuffer(L, buffer + skip, length - skip, chunkname, mode);
  if (status == LUA_OK) relua_coverage_register(L, chunkname);  // a file the host loaded: it counts
  free(chunkname);
  free(buffer);
  return status;
}

size_t relua_sharedchunkcount(void) {
  pthread_mutex_lock(&lock);
  size_t count = 0;
  for (const chunk *entry = chunks; entry; entry = entry->next) count++;
  pthread_mutex_unlock(&lock);
  return count;
}
