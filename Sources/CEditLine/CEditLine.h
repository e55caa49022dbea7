// libedit's readline-compatible API (Debian: libedit-dev, pkg-config libedit), plus accessors for
// its global variables (Swift 6 refuses direct access to mutable C globals).
#include <stdio.h>
#include <editline/readline.h>

#include <locale.h>
#include <wchar.h>  // mbrtowc, for LineReader.readCharacter

// `read_character` replaces libedit's own reader (it must be set before libedit initializes).
static inline void relua_editline_setup(rl_completion_func_t *completion, int (*read_character)(FILE *)) {
  setlocale(LC_CTYPE, "");  // multibyte input (UTF-8) where the environment says so
  rl_readline_name = "relua";
  rl_getc_function = read_character;
  rl_attempted_completion_function = completion;
  rl_completion_append_character = '\0';
  rl_bind_key('\t', rl_complete);
}

static inline void relua_editline_completion_over(void) { rl_attempted_completion_over = 1; }

static inline const char *relua_editline_line_buffer(void) { return rl_line_buffer; }
