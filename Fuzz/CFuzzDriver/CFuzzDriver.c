#include "CFuzzDriver.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

// Weak: present only when libclang_rt.fuzzer_no_main is linked (Scripts/fuzz links it and passes
// --undefined=LLVMFuzzerRunDriver, since a weak reference alone pulls nothing out of an archive).
extern int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *, size_t))
    __attribute__((weak));

int relua_fuzz_driver_available(void) { return LLVMFuzzerRunDriver != NULL; }

int relua_fuzz_run_driver(int *argc, char ***argv, relua_fuzz_callback callback) {
  if (!LLVMFuzzerRunDriver) return -1;
  return LLVMFuzzerRunDriver(argc, argv, callback);
}

static char current_input[4096];
static const int noted_signals[] = {SIGSEGV, SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE};
#define NOTED_COUNT (sizeof(noted_signals) / sizeof(noted_signals[0]))
static struct sigaction previous_actions[NOTED_COUNT];

void relua_fuzz_set_current_input(const char *path) {
  if (!path) { current_input[0] = 0; return; }
  strncpy(current_input, path, sizeof(current_input) - 1);
  current_input[sizeof(current_input) - 1] = 0;
}

static void write_text(const char *text) {
  ssize_t ignored = write(STDERR_FILENO, text, strlen(text));
  (void)ignored;
}

static void crash_note(int signal_number) {
  if (current_input[0]) {
    write_text("\nrelua-fuzz: crashed on input ");
    write_text(current_input);
    write_text("\n");
  }
  // Give the signal to whoever handled it before (Swift's backtracer) or the default action:
  // it is delivered again once this handler returns.
  for (size_t i = 0; i < NOTED_COUNT; i++) {
    if (noted_signals[i] == signal_number) sigaction(signal_number, &previous_actions[i], NULL);
  }
  raise(signal_number);
}

void relua_fuzz_install_crash_note(void) {
  // An alternate stack, so the note is written even when the crash is a stack overflow.
  static char alternate_stack[1 << 16];
  stack_t current;
  if (sigaltstack(NULL, &current) == 0 && (current.ss_flags & SS_DISABLE)) {
    stack_t stack = {.ss_sp = alternate_stack, .ss_size = sizeof alternate_stack, .ss_flags = 0};
    sigaltstack(&stack, NULL);
  }
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = crash_note;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_ONSTACK;
  for (size_t i = 0; i < NOTED_COUNT; i++) sigaction(noted_signals[i], &action, &previous_actions[i]);
}
