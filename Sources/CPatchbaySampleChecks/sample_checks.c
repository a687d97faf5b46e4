#include "sample_checks.h"

#include <stdint.h>
#include <string.h>

/* A float is NaN or ±Inf when its exponent bits are all ones. Shifted left by one (the sign
 * gone), its bits are then at least 0xFF000000, and no finite float's are: the largest shifted
 * value of a period answers for all of it. An unsigned max and a shift a sample, which
 * vectorize; built for AVX2 too, and picked at load time where the CPU has it. */
#if defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
/* A sanitizer instruments the clones' resolver, which the dynamic linker runs before the
 * sanitizer's runtime is up (a crash at load): sanitized builds take the default clone. */
#define PB_SANITIZED 1
#endif
#endif

#if defined(__x86_64__) && !defined(PB_SANITIZED)
#define WITH_AVX2 __attribute__((target_clones("avx2", "default")))
#else
#define WITH_AVX2
#endif

static inline uint32_t shifted_bits(float sample) {
  uint32_t bits;
  memcpy(&bits, &sample, sizeof bits);
  return bits << 1;
}

WITH_AVX2 bool pb_samples_any_nonfinite(const float *samples, size_t count) {
  uint32_t largest = 0;
  for (size_t i = 0; i < count; i++) {
    uint32_t shifted = shifted_bits(samples[i]);
    largest = shifted > largest ? shifted : largest;
  }
  return largest >= 0xFF000000u;
}

/* 1 for NaN or ±Inf, else 0. */
static inline uint32_t nonfinite(float sample) { return shifted_bits(sample) >= 0xFF000000u; }

size_t pb_samples_silence_nonfinite(float *samples, size_t count) {
  size_t silenced = 0;
  for (size_t i = 0; i < count; i++) {
    uint32_t bad = nonfinite(samples[i]);
    silenced += bad;
    samples[i] = bad ? 0.0f : samples[i];
  }
  return silenced;
}

WITH_AVX2 size_t pb_samples_clip(float *samples, size_t count, float *peak) {
  size_t clipped = 0;
  float largest = *peak;
  for (size_t i = 0; i < count; i++) {
    float sample = samples[i];
    float magnitude = sample < 0 ? -sample : sample;
    largest = magnitude > largest ? magnitude : largest;
    clipped += magnitude > 1.0f;
    samples[i] = sample > 1.0f ? 1.0f : (sample < -1.0f ? -1.0f : sample);
  }
  *peak = largest;
  return clipped;
}

WITH_AVX2 void pb_samples_level(const float *samples, size_t frames, size_t channels,
                                float peaks[2], double squares[2]) {
  for (size_t c = 0; c < channels && c < 2; c++) {
    float peak = peaks[c], sum = 0;
    for (size_t i = 0; i < frames; i++) {
      float sample = samples[i * channels + c];
      float magnitude = sample < 0 ? -sample : sample;
      peak = magnitude > peak ? magnitude : peak;
      sum += sample * sample;
    }
    peaks[c] = peak;
    squares[c] += sum;
  }
}

WITH_AVX2 float pb_samples_added_peak(const float *after, const float *before, size_t count) {
  float peak = 0;
  for (size_t i = 0; i < count; i++) {
    float added = after[i] - before[i];
    float magnitude = added < 0 ? -added : added;
    peak = magnitude > peak ? magnitude : peak;
  }
  return peak;
}
