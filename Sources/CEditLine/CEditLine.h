// libedit's readline-compatible API (Debian: libedit-dev, pkg-config libedit), plus accessors for
// its global variables (Swift 6 refuses direct access to mutable C globals).
#include <stdio.h>
#include <editline/readline.h>

static inline void relua_editline_setup(rl_completion_func_t *completion) {
  rl_readline_name = "relua";
  rl_attempted_completion_function = completion;
}

static inline void relua_editline_completion_over(void) { rl_attempted_completion_over = 1; }

static inline const char *relua_editline_line_buffer(void) { return rl_line_buffer; }
