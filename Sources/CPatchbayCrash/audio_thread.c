/* Host calls a processor makes from the audio thread. See patchbay_crash.h. */
#include "patchbay_crash.h"

#include <stddef.h>

const char *const pb_process_call = "process";

static unsigned long misuses;
static const char *first_misuse;

/* Adds one call to `misuse`, keeping `function` if it is the first. */
static void count(unsigned long *calls, const char **first, const char *function) {
  const char *none = NULL;
  __atomic_compare_exchange_n(first, &none, function, 0, __ATOMIC_RELEASE, __ATOMIC_RELAXED);
  __atomic_fetch_add(calls, 1, __ATOMIC_RELEASE);
}

void pb_audio_misuse_note(const char *function) {
  count(&misuses, &first_misuse, function);
  const pb_crash_context *noted = pb_crash_noted;
  if (noted && noted->call == pb_process_call) {
    /* The context is the first member of its processor's note. */
    pb_processor_note *note = (pb_processor_note *)(void *)noted;
    count(&note->misuse.count, &note->misuse.first, function);
  }
}

unsigned long pb_audio_misuse_take(pb_audio_misuse *misuse, const char **first) {
  unsigned long calls = __atomic_exchange_n(&misuse->count, 0, __ATOMIC_ACQUIRE);
  if (first) *first = __atomic_load_n(&misuse->first, __ATOMIC_ACQUIRE);
  return calls;
}

unsigned long pb_audio_misuse_count(void) { return __atomic_load_n(&misuses, __ATOMIC_ACQUIRE); }

const char *pb_audio_misuse_first(void) { return __atomic_load_n(&first_misuse, __ATOMIC_ACQUIRE); }

void pb_audio_misuse_reset(void) {
  __atomic_store_n(&first_misuse, NULL, __ATOMIC_RELAXED);
  __atomic_store_n(&misuses, 0, __ATOMIC_RELEASE);
}
