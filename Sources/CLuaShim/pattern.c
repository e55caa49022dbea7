// relua's own Lua pattern matcher: string.find, string.match, string.gmatch and string.gsub with
// Lua 5.4's semantics and messages, whose every step is charged to the state's instruction budget.
//
// Why: Lua's own matcher is one VM instruction, and the count hook never fires inside it, so a
// pattern that backtracks exponentially (`("a?"):rep(28) .. ("a"):rep(28) .. "b"`) ran for minutes
// under any --instruction-limit, and Ctrl-C could not stop it. Here the matcher counts its steps
// (an attempt at a pattern item at a subject position, a character a repetition or `%b` scans,
// a candidate position of a plain search) and every RELUA_PATTERN_STEPS of them charges the
// budget and looks at the interrupt flag (relua_charge_steps, shim.c), which raises as the count
// hook does: `chunk:line: instruction budget exhausted`, naming the script's line.
//
// The semantics are Lua 5.4's, reproduced item by item (the differential check in LuaTests and the
// `pattern` fuzz target compare them with liblua's own functions): the same results, the same
// errors, the same recursion bound (200 nested items: "pattern too complex").
#include "CLuaShim.h"
#include "CLuaShimHost.h"

#include <ctype.h>
#include <string.h>

enum {
  PAT_MAX_CAPTURES = 32,   // LUA_MAXCAPTURES
  PAT_MAX_DEPTH = 200,     // lstrlib's MAXCCALLS: nested matcher calls before "pattern too complex"
  PAT_POSITION = -2,       // a capture's length: a position capture `()`
  PAT_OPEN = -1,           // a capture's length: not closed yet
};

typedef struct pat_capture {
  const char *start;
  ptrdiff_t length;        // or PAT_POSITION / PAT_OPEN
} pat_capture;

typedef struct pat_state {
  lua_State *L;
  const char *subject, *subject_end;
  const char *pattern_end;
  int depth_left;
  int captures;
  int steps_left;          // steps until the next charge
  pat_capture capture[PAT_MAX_CAPTURES];
} pat_state;

#pragma mark - Budget

// (What was spent since the last charge: a plain search may take more than one step at once.)
static void pat_charge(pat_state *m) {
  long long spent = (long long)RELUA_PATTERN_STEPS - m->steps_left;
  m->steps_left = RELUA_PATTERN_STEPS;
  relua_charge_steps(m->L, spent, 1);
}

static inline void pat_step(pat_state *m) {
  if (--m->steps_left <= 0) pat_charge(m);
}

// Charges what the last call did since its last charge, without raising (the count hook raises at
// the next instruction if that spent the budget).
static void pat_settle(pat_state *m) {
  long long spent = (long long)RELUA_PATTERN_STEPS - m->steps_left;
  m->steps_left = RELUA_PATTERN_STEPS;
  if (spent > 0) relua_charge_steps(m->L, spent, 0);
}

#pragma mark - Items

static int pat_class(int c, int class) {
  int yes;
  switch (tolower(class)) {
    case 'a': yes = isalpha(c); break;
    case 'c': yes = iscntrl(c); break;
    case 'd': yes = isdigit(c); break;
    case 'g': yes = isgraph(c); break;
    case 'l': yes = islower(c); break;
    case 'p': yes = ispunct(c); break;
    case 's': yes = isspace(c); break;
    case 'u': yes = isupper(c); break;
    case 'w': yes = isalnum(c); break;
    case 'x': yes = isxdigit(c); break;
    case 'z': yes = (c == 0); break;  // deprecated, but Debian's liblua5.4 still has it
    default: return class == c;  // an escaped character stands for itself
  }
  if (isupper(class)) yes = !yes;
  return yes;
}

// Whether c is in the set `[...]` from `open` (its '[') to `close` (its ']').
static int pat_in_set(int c, const char *open, const char *close) {
  const char *p = open + 1;
  int negated = 0;
  if (*p == '^') {
    negated = 1;
    p++;
  }
  for (; p < close; p++) {
    if (*p == '%') {
      p++;
      if (pat_class(c, (unsigned char)*p)) return !negated;
    } else if (p[1] == '-' && p + 2 < close) {
      if ((unsigned char)p[0] <= c && c <= (unsigned char)p[2]) return !negated;
      p += 2;
    } else if ((unsigned char)*p == c) {
      return !negated;
    }
  }
  return negated;
}

// The end of the single-character item at p (a character, `.`, `%x`, a set): where its
// quantifier, if any, is.
static const char *pat_item_end(pat_state *m, const char *p) {
  char first = *p++;
  if (first == '%') {
    if (p == m->pattern_end) luaL_error(m->L, "malformed pattern (ends with '%%')");
    return p + 1;
  }
  if (first == '[') {
    if (*p == '^') p++;
    // The first character of a set is taken as is (so `[]]` and `[^]]` hold ']'); the pattern
    // is NUL-terminated, so reading *p at its end is safe and is not ']'.
    do {
      if (p == m->pattern_end) luaL_error(m->L, "malformed pattern (missing ']')");
      char c = *p++;
      if (c == '%' && p < m->pattern_end) p++;
    } while (*p != ']');
    return p + 1;
  }
  return p;
}

// Whether the subject character at s matches the item from p to its end `end`.
static int pat_single(pat_state *m, const char *s, const char *p, const char *end) {
  if (s >= m->subject_end) return 0;
  int c = (unsigned char)*s;
  switch (*p) {
    case '.': return 1;
    case '%': return pat_class(c, (unsigned char)p[1]);
    case '[': return pat_in_set(c, p, end - 1);
    default: return (unsigned char)*p == c;
  }
}

#pragma mark - Matching

static const char *pat_match(pat_state *m, const char *s, const char *p);

static int pat_check_backref(pat_state *m, int digit) {
  int index = digit - '1';
  if (index < 0 || index >= m->captures || m->capture[index].length == PAT_OPEN)
    return luaL_error(m->L, "invalid capture index %%%d", index + 1);
  return index;
}

static const char *pat_backref(pat_state *m, const char *s, int digit) {
  int index = pat_check_backref(m, digit);
  size_t length = (size_t)m->capture[index].length;  // a position capture's is huge: no match
  if ((size_t)(m->subject_end - s) >= length && memcmp(m->capture[index].start, s, length) == 0) return s + length;
  return NULL;
}

// `%bxy` at s, p at x.
static const char *pat_balance(pat_state *m, const char *s, const char *p) {
  if (p >= m->pattern_end - 1) luaL_error(m->L, "malformed pattern (missing arguments to '%%b')");
  if (s >= m->subject_end || *s != *p) return NULL;
  char open = p[0], close = p[1];
  int level = 1;
  while (++s < m->subject_end) {
    pat_step(m);
    if (*s == close) {
      if (--level == 0) return s + 1;
    } else if (*s == open) {
      level++;
    }
  }
  return NULL;
}

static const char *pat_open_capture(pat_state *m, const char *s, const char *p, ptrdiff_t kind) {
  if (m->captures >= PAT_MAX_CAPTURES) luaL_error(m->L, "too many captures");
  m->capture[m->captures].start = s;
  m->capture[m->captures].length = kind;
  m->captures++;
  const char *result = pat_match(m, s, p);
  if (result == NULL) m->captures--;
  return result;
}

static const char *pat_close_capture(pat_state *m, const char *s, const char *p) {
  int index = m->captures - 1;
  while (index >= 0 && m->capture[index].length != PAT_OPEN) index--;
  if (index < 0) {
    luaL_error(m->L, "invalid pattern capture");
    return NULL;
  }
  m->capture[index].length = s - m->capture[index].start;
  const char *result = pat_match(m, s, p);
  if (result == NULL) m->capture[index].length = PAT_OPEN;
  return result;
}

// item* and item+ (s past the one match `+` needs): as many as possible, then fewer.
static const char *pat_greedy(pat_state *m, const char *s, const char *p, const char *end) {
  ptrdiff_t count = 0;
  while (pat_single(m, s + count, p, end)) {
    pat_step(m);
    count++;
  }
  for (; count >= 0; count--) {
    const char *result = pat_match(m, s + count, end + 1);
    if (result) return result;
  }
  return NULL;
}

// item-: as few as possible, then more.
static const char *pat_lazy(pat_state *m, const char *s, const char *p, const char *end) {
  for (;;) {
    const char *result = pat_match(m, s, end + 1);
    if (result) return result;
    if (!pat_single(m, s, p, end)) return NULL;
    s++;
  }
}

// Matches the pattern from p on at s; returns the end of the match, or NULL. Tail positions loop
// instead of recursing; every call counts against PAT_MAX_DEPTH, as Lua's does.
static const char *pat_match(pat_state *m, const char *s, const char *p) {
  if (m->depth_left-- == 0) luaL_error(m->L, "pattern too complex");
  for (;;) {
    pat_step(m);
    if (p == m->pattern_end) break;
    if (*p == '(') {
      s = p[1] == ')' ? pat_open_capture(m, s, p + 2, PAT_POSITION) : pat_open_capture(m, s, p + 1, PAT_OPEN);
      break;
    }
    if (*p == ')') {
      s = pat_close_capture(m, s, p + 1);
      break;
    }
    if (*p == '$' && p + 1 == m->pattern_end) {
      if (s != m->subject_end) s = NULL;
      break;
    }
    if (*p == '%' && p[1] == 'b') {
      s = pat_balance(m, s, p + 2);
      if (s == NULL) break;
      p += 4;
      continue;
    }
    if (*p == '%' && p[1] == 'f') {
      p += 2;
      if (*p != '[') luaL_error(m->L, "missing '[' after '%%f' in pattern");
      const char *end = pat_item_end(m, p);
      int before = s == m->subject ? 0 : (unsigned char)s[-1];
      int here = (unsigned char)*s;  // the subject is NUL-terminated: '\0' at its end
      if (!pat_in_set(before, p, end - 1) && pat_in_set(here, p, end - 1)) {
        p = end;
        continue;
      }
      s = NULL;
      break;
    }
    if (*p == '%' && isdigit((unsigned char)p[1])) {
      s = pat_backref(m, s, (unsigned char)p[1]);
      if (s == NULL) break;
      p += 2;
      continue;
    }
    // A single-character item and its quantifier, if any.
    const char *end = pat_item_end(m, p);
    char quantifier = *end;  // (the NUL after the pattern when it ends here)
    if (!pat_single(m, s, p, end)) {
      if (quantifier == '*' || quantifier == '?' || quantifier == '-') {
        p = end + 1;
        continue;
      }
      s = NULL;
      break;
    }
    if (quantifier == '?') {
      const char *result = pat_match(m, s + 1, end + 1);
      if (result) {
        s = result;
        break;
      }
      p = end + 1;
      continue;
    }
    if (quantifier == '+') {
      s = pat_greedy(m, s + 1, p, end);
      break;
    }
    if (quantifier == '*') {
      s = pat_greedy(m, s, p, end);
      break;
    }
    if (quantifier == '-') {
      s = pat_lazy(m, s, p, end);
      break;
    }
    s++;
    p = end;
  }
  m->depth_left++;
  return s;
}

#pragma mark - Captures

// Capture i of a match from s to e (the whole match for i = 0 when the pattern has none): its
// text in *start, its length; a position capture pushes its position and returns PAT_POSITION.
static ptrdiff_t pat_capture_text(pat_state *m, int i, const char *s, const char *e, const char **start) {
  if (i >= m->captures) {
    if (i != 0) luaL_error(m->L, "invalid capture index %%%d", i + 1);
    *start = s;
    return e - s;
  }
  ptrdiff_t length = m->capture[i].length;
  *start = m->capture[i].start;
  if (length == PAT_OPEN) luaL_error(m->L, "unfinished capture");
  else if (length == PAT_POSITION) lua_pushinteger(m->L, (m->capture[i].start - m->subject) + 1);
  return length;
}

static void pat_push_capture(pat_state *m, int i, const char *s, const char *e) {
  const char *start;
  ptrdiff_t length = pat_capture_text(m, i, s, e, &start);
  if (length != PAT_POSITION) lua_pushlstring(m->L, start, (size_t)length);
}

// Pushes the captures (the whole match when there are none and s is given); returns their count.
static int pat_push_captures(pat_state *m, const char *s, const char *e) {
  int count = (m->captures == 0 && s) ? 1 : m->captures;
  luaL_checkstack(m->L, count, "too many captures");
  for (int i = 0; i < count; i++) pat_push_capture(m, i, s, e);
  return count;
}

#pragma mark - The library functions

static void pat_begin(pat_state *m, lua_State *L, const char *s, size_t ls, const char *p, size_t lp) {
  m->L = L;
  m->subject = s;
  m->subject_end = s + ls;
  m->pattern_end = p + lp;
  m->steps_left = RELUA_PATTERN_STEPS;
}

static void pat_restart(pat_state *m) {
  m->captures = 0;
  m->depth_left = PAT_MAX_DEPTH;
}

// A 1-based, possibly negative, start position as an offset from 1 (string.find's `init`).
static size_t pat_start(lua_Integer position, size_t length) {
  if (position > 0) return (size_t)position;
  if (position == 0) return 1;
  if (position < -(lua_Integer)length) return 1;
  return length + (size_t)position + 1;
}

static int pat_has_specials(const char *p, size_t lp) {
  for (size_t i = 0; i < lp; i++) {
    if (strchr("^$*+?.([%-", p[i]) != NULL && p[i] != '\0') return 1;
  }
  return 0;
}

// A plain search for p in s, one step per candidate position and per 64 bytes compared.
static const char *pat_plain_find(pat_state *m, const char *s, size_t ls, const char *p, size_t lp) {
  if (lp == 0) return s;
  if (lp > ls) return NULL;
  const char *last = s + (ls - lp);
  int charge = 1 + (int)(lp / 64 > 1000000 ? 1000000 : lp / 64);
  while (s <= last) {
    const char *candidate = memchr(s, p[0], (size_t)(last - s) + 1);
    if (candidate == NULL) return NULL;
    m->steps_left -= charge;
    pat_step(m);
    if (memcmp(candidate + 1, p + 1, lp - 1) == 0) return candidate;
    s = candidate + 1;
  }
  return NULL;
}

static int pat_find(lua_State *L, int find) {
  size_t ls, lp;
  const char *s = luaL_checklstring(L, 1, &ls);
  const char *p = luaL_checklstring(L, 2, &lp);
  size_t init = pat_start(luaL_optinteger(L, 3, 1), ls) - 1;
  if (init > ls) {
    luaL_pushfail(L);
    return 1;
  }
  pat_state m;
  pat_begin(&m, L, s, ls, p, lp);
  if (find && (lua_toboolean(L, 4) || !pat_has_specials(p, lp))) {
    const char *at = pat_plain_find(&m, s + init, ls - init, p, lp);
    pat_settle(&m);
    if (at) {
      lua_pushinteger(L, (at - s) + 1);
      lua_pushinteger(L, (lua_Integer)((at - s) + lp));
      return 2;
    }
  } else {
    const char *start = s + init;
    int anchored = (*p == '^');
    if (anchored) {
      p++;
      lp--;
    }
    pat_begin(&m, L, s, ls, p, lp);
    do {
      pat_restart(&m);
      const char *e = pat_match(&m, start, p);
      if (e != NULL) {
        pat_settle(&m);
        if (find) {
          lua_pushinteger(L, (start - s) + 1);
          lua_pushinteger(L, e - s);
          return pat_push_captures(&m, NULL, 0) + 2;
        }
        return pat_push_captures(&m, start, e);
      }
    } while (start++ < m.subject_end && !anchored);
    pat_settle(&m);
  }
  luaL_pushfail(L);
  return 1;
}

static int relua_str_find(lua_State *L) { return pat_find(L, 1); }
static int relua_str_match(lua_State *L) { return pat_find(L, 0); }

typedef struct pat_iterator {
  const char *next;        // where the next search starts
  const char *pattern;
  const char *last_end;    // the end of the last match (an empty match there is skipped)
  pat_state m;
} pat_iterator;

static int pat_gmatch_next(lua_State *L) {
  pat_iterator *it = lua_touserdata(L, lua_upvalueindex(3));
  it->m.L = L;
  it->m.steps_left = RELUA_PATTERN_STEPS;
  for (const char *start = it->next; start <= it->m.subject_end; start++) {
    pat_restart(&it->m);
    const char *e = pat_match(&it->m, start, it->pattern);
    if (e != NULL && e != it->last_end) {
      it->next = it->last_end = e;
      pat_settle(&it->m);
      return pat_push_captures(&it->m, start, e);
    }
  }
  pat_settle(&it->m);
  return 0;
}

static int relua_str_gmatch(lua_State *L) {
  size_t ls, lp;
  const char *s = luaL_checklstring(L, 1, &ls);
  const char *p = luaL_checklstring(L, 2, &lp);
  size_t init = pat_start(luaL_optinteger(L, 3, 1), ls) - 1;
  lua_settop(L, 2);  // the subject and the pattern stay alive as the iterator's upvalues
  pat_iterator *it = lua_newuserdatauv(L, sizeof(pat_iterator), 0);
  if (init > ls) init = ls + 1;
  pat_begin(&it->m, L, s, ls, p, lp);
  it->next = s + init;
  it->pattern = p;
  it->last_end = NULL;
  lua_pushcclosure(L, pat_gmatch_next, 3);
  return 1;
}

// gsub's replacement string for the match from s to e: `%0`–`%9` and `%%`.
static void pat_add_replacement(pat_state *m, luaL_Buffer *b, const char *s, const char *e) {
  lua_State *L = m->L;
  size_t length;
  const char *text = lua_tolstring(L, 3, &length);
  const char *escape;
  while ((escape = memchr(text, '%', length)) != NULL) {
    luaL_addlstring(b, text, (size_t)(escape - text));
    escape++;  // the NUL after the string if it ends with '%': an invalid use
    if (*escape == '%') {
      luaL_addchar(b, '%');
    } else if (*escape == '0') {
      luaL_addlstring(b, s, (size_t)(e - s));
    } else if (isdigit((unsigned char)*escape)) {
      const char *start;
      ptrdiff_t n = pat_capture_text(m, *escape - '1', s, e, &start);
      if (n == PAT_POSITION) luaL_addvalue(b);
      else luaL_addlstring(b, start, (size_t)n);
    } else {
      luaL_error(L, "invalid use of '%c' in replacement string", '%');
    }
    length -= (size_t)(escape + 1 - text);
    text = escape + 1;
  }
  luaL_addlstring(b, text, length);
}

// Adds the replacement of the match from s to e; returns whether it changed anything.
static int pat_add_value(pat_state *m, luaL_Buffer *b, const char *s, const char *e, int kind) {
  lua_State *L = m->L;
  if (kind == LUA_TFUNCTION) {
    lua_pushvalue(L, 3);
    int n = pat_push_captures(m, s, e);
    lua_call(L, n, 1);
  } else if (kind == LUA_TTABLE) {
    pat_push_capture(m, 0, s, e);
    lua_gettable(L, 3);
  } else {
    pat_add_replacement(m, b, s, e);
    return 1;
  }
  if (!lua_toboolean(L, -1)) {
    lua_settop(L, -2);
    luaL_addlstring(b, s, (size_t)(e - s));
    return 0;
  }
  if (!lua_isstring(L, -1)) return luaL_error(L, "invalid replacement value (a %s)", luaL_typename(L, -1));
  luaL_addvalue(b);
  return 1;
}

static int relua_str_gsub(lua_State *L) {
  size_t ls, lp;
  const char *src = luaL_checklstring(L, 1, &ls);
  const char *p = luaL_checklstring(L, 2, &lp);
  const char *last_end = NULL;
  int kind = lua_type(L, 3);
  lua_Integer limit = luaL_optinteger(L, 4, (lua_Integer)ls + 1);
  int anchored = (*p == '^');
  lua_Integer count = 0;
  int changed = 0;
  luaL_argexpected(L, kind == LUA_TNUMBER || kind == LUA_TSTRING || kind == LUA_TFUNCTION || kind == LUA_TTABLE, 3,
                   "string/function/table");
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  if (anchored) {
    p++;
    lp--;
  }
  pat_state m;
  pat_begin(&m, L, src, ls, p, lp);
  while (count < limit) {
    pat_restart(&m);
    const char *e = pat_match(&m, src, p);
    if (e != NULL && e != last_end) {
      count++;
      if (kind == LUA_TFUNCTION || kind == LUA_TTABLE) pat_settle(&m);  // Lua code runs next
      changed = pat_add_value(&m, &b, src, e, kind) | changed;
      src = last_end = e;
    } else if (src < m.subject_end) {
      luaL_addchar(&b, *src++);
    } else {
      break;
    }
    if (anchored) break;
  }
  pat_settle(&m);
  if (!changed) {
    lua_pushvalue(L, 1);
  } else {
    luaL_addlstring(&b, src, (size_t)(m.subject_end - src));
    luaL_pushresult(&b);
  }
  lua_pushinteger(L, count);
  return 2;
}

void relua_pattern_install(lua_State *L, int string_table) {
  string_table = lua_absindex(L, string_table);
  static const luaL_Reg functions[] = {
    {"find", relua_str_find},
    {"match", relua_str_match},
    {"gmatch", relua_str_gmatch},
    {"gsub", relua_str_gsub},
    {NULL, NULL},
  };
  for (const luaL_Reg *f = functions; f->name; f++) {
    lua_pushcfunction(L, f->func);
    lua_setfield(L, string_table, f->name);
  }
}

int relua_pattern_originals(lua_State *L) {
  // luaopen_string makes a fresh string table and points the string metatable's __index at it:
  // put the state's own table back.
  lua_newtable(L);
  int originals = lua_gettop(L);
  luaopen_string(L);
  static const char *const names[] = {"find", "match", "gmatch", "gsub", NULL};
  for (const char *const *name = names; *name; name++) {
    lua_getfield(L, -1, *name);
    lua_setfield(L, originals, *name);
  }
  lua_settop(L, originals);
  lua_pushliteral(L, "");
  if (lua_getmetatable(L, -1)) {
    lua_getglobal(L, "string");
    lua_setfield(L, -2, "__index");
    lua_settop(L, -2);
  }
  lua_settop(L, originals);
  return 1;
}
