#include "CReluaShim.h"

// Process-wide: a write to an identified collection anywhere, on any thread, takes the next one.
static uint64_t relua_write_sequence = 0;

uint64_t relua_next_write_sequence(void) {
  return __atomic_add_fetch(&relua_write_sequence, 1, __ATOMIC_RELAXED);
}
