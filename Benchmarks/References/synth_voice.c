/*
 * synth_voice.c — one voice of a simple synth, for the measurement of processors in
 * WebAssembly: the same C runs natively (here, in References) and as a wasm module (the
 * benchmark compiles this file with clang --target=wasm32 and runs it in WasmKit).
 *
 * A sine from a phase accumulator (a polynomial, no libm: the module links nothing), through
 * a linear attack to a sustain level. Voices are summed into the period's buffer.
 */
#include "references.h"

/* sin(2π·phase) for phase in [0, 1): Bhaskara-free odd polynomial on [-π, π], error < 1e-4. */
static float ref_sine(float phase) {
  float x = (phase < 0.5f ? phase : phase - 1.0f) * 6.28318531f;
  float x2 = x * x;
  return x * (1.0f - x2 * (0.16666667f - x2 * (0.00833333f - x2 * (0.00019841f - x2 * 2.7557e-6f))));
}

void ref_voices_start(ref_voice *voices, int count, float sample_rate) {
  for (int index = 0; index < count; index++) {
    float frequency = 220.0f * (1.0f + 0.25f * (float)index);
    voices[index] = (ref_voice){0.0f, frequency / sample_rate, 0.0f, 0.2f, 0.2f / 480.0f};
  }
}

void ref_voices_render(ref_voice *voices, int count, float *out, int frames) {
  for (int frame = 0; frame < frames; frame++) out[frame] = 0.0f;
  for (int index = 0; index < count; index++) {
    ref_voice voice = voices[index];
    for (int frame = 0; frame < frames; frame++) {
      if (voice.level < voice.target) voice.level += voice.rate;
      out[frame] += voice.level * ref_sine(voice.phase);
      voice.phase += voice.step;
      if (voice.phase >= 1.0f) voice.phase -= 1.0f;
    }
    voices[index] = voice;
  }
}

#ifdef __wasm__
/* The module's side: eight voices and a period's buffer in its memory, as a processor's. */
static ref_voice wasm_voices[8];
static float wasm_out[4096];

__attribute__((export_name("start"))) void wasm_start(float sample_rate) {
  ref_voices_start(wasm_voices, 8, sample_rate);
}

__attribute__((export_name("render"))) float *wasm_render(int frames) {
  ref_voices_render(wasm_voices, 8, wasm_out, frames > 4096 ? 4096 : frames);
  return wasm_out;
}
#endif
