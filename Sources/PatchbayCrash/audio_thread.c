/* Which thread renders audio, and the host calls made from it. See patchbay_crash.h. */
#include "patchbay_crash.h"

#include <stddef.h>

static _Thread_local int rendering __attribute__((tls_model("initial-exec")));
static _Thread_local pb_audio_misuse *record __attribute__((tls_model("initial-exec")));
static unsigned long misuses;
static const char *first_misuse;

void pb_audio_thread_mark(int on) { rendering = on; }

int pb_audio_thread_is_current(void) { return rendering; }

void pb_audio_thread_misuse_into(pb_audio_misuse *into) { record = into; }

void pb_audio_misuse_note(const char *function) {
  const char *none = NULL;
  __atomic_compare_exchange_n(&first_misuse, &none, function, 0, __ATOMIC_RELEASE,
                              __ATOMIC_RELAXED);
  __atomic_fetch_add(&misuses, 1, __ATOMIC_RELEASE);
  if (record) {
    none = NULL;
    __atomic_compare_exchange_n(&record->first, &none, function, 0, __ATOMIC_RELEASE,
                                __ATOMIC_RELAXED);
    __atomic_fetch_add(&record->count, 1, __ATOMIC_RELEASE);
  }
}

unsigned long pb_audio_misuse_take(pb_audio_misuse *from, const char **first) {
  unsigned long count = __atomic_exchange_n(&from->count, 0, __ATOMIC_ACQUIRE);
  if (first) *first = __atomic_load_n(&from->first, __ATOMIC_ACQUIRE);
  return count;
}

unsigned long pb_audio_misuse_count(void) { return __atomic_load_n(&misuses, __ATOMIC_ACQUIRE); }

const char *pb_audio_misuse_first(void) { return __atomic_load_n(&first_misuse, __ATOMIC_ACQUIRE); }

void pb_audio_misuse_reset(void) {
  __atomic_store_n(&first_misuse, NULL, __ATOMIC_RELAXED);
  __atomic_store_n(&misuses, 0, __ATOMIC_RELEASE);
}
