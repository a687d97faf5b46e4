#ifndef PATCHBAY_TICKS_H
#define PATCHBAY_TICKS_H

#include <stdint.h>
#include <time.h>

/* The cheapest clock there is, for timing a reduce on the app queue: the CPU's time-stamp
 * counter on x86-64 (constant and invariant where the kernel uses it as its clocksource),
 * the virtual counter on arm64, CLOCK_MONOTONIC nanoseconds elsewhere. Ticks, not
 * nanoseconds: a reader converts them against CLOCK_MONOTONIC (ReduceTiming's TickClock). */
static inline uint64_t pb_ticks(void) {
#if defined(__x86_64__)
  uint32_t low, high;
  __asm__ __volatile__("rdtsc" : "=a"(low), "=d"(high));
  return ((uint64_t)high << 32) | low;
#elif defined(__aarch64__)
  uint64_t value;
  __asm__ __volatile__("mrs %0, cntvct_el0" : "=r"(value));
  return value;
#else
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
#endif
}

#endif
