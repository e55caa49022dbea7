#ifndef RELUA_CFUZZDRIVER_H
#define RELUA_CFUZZDRIVER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's entry point, if the executable was linked with libFuzzer (Scripts/fuzz's build).
/// Declared weak: in a plain build it is absent (null) and relua-fuzz replays inputs itself.
typedef int (*relua_fuzz_callback)(const uint8_t *data, size_t size);

/// Whether libFuzzer is linked in.
int relua_fuzz_driver_available(void);

/// Hands over to libFuzzer (LLVMFuzzerRunDriver): parses its flags from argv, fuzzes or replays,
/// and returns (or exits) when done. Only call when relua_fuzz_driver_available().
int relua_fuzz_run_driver(int *argc, char ***argv, relua_fuzz_callback callback);

/// For replays without libFuzzer: the input being run, printed to standard error if the process
/// dies of a signal (SIGSEGV, SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE) before the signal goes on
/// to the handler installed before (Swift's backtracer) or the default action.
void relua_fuzz_install_crash_note(void);
void relua_fuzz_set_current_input(const char *path);

#endif
