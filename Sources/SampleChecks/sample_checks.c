#include "sample_checks.h"

#include <stdint.h>
#include <string.h>

/* A float is NaN or ±Inf when its exponent bits are all ones: |bits| ≥ 0x7F800000. Adding
 * 0x00800000 to |bits| carries into bit 31 exactly then, so OR-ing the sums of a block and
 * testing bit 31 tells whether any sample was; plain integer adds and ORs, which vectorize on
 * any x86-64 or arm64. */
static inline uint32_t nonfinite_bit(float sample) {
  uint32_t bits;
  memcpy(&bits, &sample, sizeof bits);
  return ((bits & 0x7FFFFFFFu) + 0x00800000u) & 0x80000000u;
}

bool pb_samples_any_nonfinite(const float *samples, size_t count) {
  uint32_t any = 0;
  for (size_t i = 0; i < count; i++) any |= nonfinite_bit(samples[i]);
  return any != 0;
}

size_t pb_samples_silence_nonfinite(float *samples, size_t count) {
  size_t silenced = 0;
  for (size_t i = 0; i < count; i++) {
    uint32_t bad = nonfinite_bit(samples[i]) >> 31;
    silenced += bad;
    samples[i] = bad ? 0.0f : samples[i];
  }
  return silenced;
}

size_t pb_samples_clip(float *samples, size_t count, float *peak) {
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
