#include "CReluaShim.h"

// Process-wide: a write to an identified collection anywhere, on any thread, takes the next one,
// once something reads the numbers (relua_start_write_sequence); until then writes take none.
static uint64_t relua_write_sequence = 0;
static int relua_write_sequence_started = 0;

uint64_t relua_next_write_sequence(void) {
  if (!__atomic_load_n(&relua_write_sequence_started, __ATOMIC_ACQUIRE)) return 0;
  return __atomic_add_fetch(&relua_write_sequence, 1, __ATOMIC_RELAXED);
}

void relua_start_write_sequence(void) {
  __atomic_store_n(&relua_write_sequence_started, 1, __ATOMIC_RELEASE);
}
