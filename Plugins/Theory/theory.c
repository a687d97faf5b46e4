/*
 * Theory — music theory as plain C functions, exported through patchbay/functions.h.
 *
 *   note_frequency(int32 note, double a4) → double      note_frequency(69, 440) = 440.0
 *   note_name(int32 note) → string                        note_name(60) = "C4"
 *   interval_name(int32 semitones) → string               interval_name(7) = "perfect fifth"
 *   chord_name(notes) → string                            chord_name([64, 67, 72]) = "C major/E"
 *
 * The string functions write into the caller's buffer and return the length they need, as
 * snprintf does (the host calls again with a bigger buffer when it was too small). Chords:
 * major, minor, diminished and augmented triads, and dominant, major and minor sevenths, in
 * any inversion and voicing; a bass that is not the root is written after a slash.
 *
 * The plugin has no features: other plugins resolve its functions through
 * "patchbay.functions/1", and people call them with `patchbay call Theory NAME ARGS…`.
 */
#include <patchbay.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const pitch_names[12] = {"C",  "C#", "D",  "D#", "E",  "F",
                                            "F#", "G",  "G#", "A",  "A#", "B"};

/* 2^(k/12), correctly rounded: a semitone's ratios within an octave. */
static const double semitone_ratios[12] = {
    0x1.0000000000000p+0, 0x1.0f38f92d97963p+0, 0x1.1f59ac3c7d6c0p+0, 0x1.306fe0a31b715p+0,
    0x1.428a2f98d728bp+0, 0x1.55b8108f0ec5ep+0, 0x1.6a09e667f3bcdp+0, 0x1.7f910d768cfb0p+0,
    0x1.965fea53d6e3dp+0, 0x1.ae89f995ad3adp+0, 0x1.c823e074ec129p+0, 0x1.e3437e7101344p+0};

/* One multiplication and a scaling by a power of two, both exact in IEEE arithmetic: the same
 * bits from every C library (pow's last bit differs between glibc and the wasm build's musl). */
double theory_note_frequency(int32_t note, double a4) {
  int64_t above = (int64_t)note - 69;
  int64_t octaves = above >= 0 ? above / 12 : -((11 - above) / 12);
  return ldexp(a4 * semitone_ratios[above - octaves * 12], (int)octaves);
}

int32_t theory_note_name(int32_t note, char *out, size_t capacity) {
  if (note < 0 || note > 127) return snprintf(out, capacity, "not a MIDI note (0-127)");
  return snprintf(out, capacity, "%s%d", pitch_names[note % 12], note / 12 - 1);
}

int32_t theory_interval_name(int32_t semitones, char *out, size_t capacity) {
  static const char *const names[13] = {
      "unison",       "minor second",  "major second", "minor third", "major third",
      "perfect fourth", "tritone",     "perfect fifth", "minor sixth", "major sixth",
      "minor seventh", "major seventh", "octave"};
  /* In 64 bits: -INT32_MIN does not fit in an int32_t (`patchbay validate` found it). */
  int64_t size = semitones < 0 ? -(int64_t)semitones : semitones;
  if (size <= 12) return snprintf(out, capacity, "%s", names[size]);
  long long octaves = size / 12, rest = size % 12;
  if (rest == 0) return snprintf(out, capacity, "%lld octaves", octaves);
  return snprintf(out, capacity, "%s and %lld octave%s", names[rest], octaves, octaves > 1 ? "s" : "");
}

/* Chord shapes as sets of pitch classes above the root (bit n: n semitones). */
typedef struct shape {
  unsigned mask;
  const char *name;
} shape;

static const shape shapes[] = {
    {(1u << 0) | (1u << 4) | (1u << 7) | (1u << 10), "dominant seventh"},
    {(1u << 0) | (1u << 4) | (1u << 7) | (1u << 11), "major seventh"},
    {(1u << 0) | (1u << 3) | (1u << 7) | (1u << 10), "minor seventh"},
    {(1u << 0) | (1u << 4) | (1u << 7), "major"},
    {(1u << 0) | (1u << 3) | (1u << 7), "minor"},
    {(1u << 0) | (1u << 3) | (1u << 6), "diminished"},
    {(1u << 0) | (1u << 4) | (1u << 8), "augmented"},
};

int32_t theory_chord_name(const uint8_t *notes, size_t count, char *out, size_t capacity) {
  if (count == 0) return snprintf(out, capacity, "no notes");
  unsigned classes = 0;
  int bass = 128;
  for (size_t i = 0; i < count; i++) {
    if (notes[i] > 127) return snprintf(out, capacity, "not a MIDI note (0-127)");
    classes |= 1u << (notes[i] % 12);
    if (notes[i] < bass) bass = notes[i];
  }
  /* The bass first: an augmented triad (symmetric) is named from it. */
  for (int step = 0; step < 12; step++) {
    int root = (bass + step) % 12;
    if (!(classes & (1u << root))) continue;
    unsigned above = 0;
    for (int pc = 0; pc < 12; pc++) {
      if (classes & (1u << pc)) above |= 1u << ((pc - root + 12) % 12);
    }
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
      if (above != shapes[s].mask) continue;
      if (root == bass % 12) return snprintf(out, capacity, "%s %s", pitch_names[root], shapes[s].name);
      return snprintf(out, capacity, "%s %s/%s", pitch_names[root], shapes[s].name,
                      pitch_names[bass % 12]);
    }
  }
  return snprintf(out, capacity, "unknown");
}

static const pb_function_desc note_frequency = {
    sizeof(pb_function_desc), "note_frequency", "double(int32, double)",
    "The frequency of a MIDI note, given A4's", (void (*)(void))theory_note_frequency};
static const pb_function_desc note_name = {sizeof(pb_function_desc), "note_name",
                                           "int32(int32, out_string)", "C4 for 60",
                                           (void (*)(void))theory_note_name};
static const pb_function_desc interval_name = {
    sizeof(pb_function_desc), "interval_name", "int32(int32, out_string)",
    "perfect fifth for 7 semitones", (void (*)(void))theory_interval_name};
static const pb_function_desc chord_name = {
    sizeof(pb_function_desc), "chord_name", "int32(buffer, out_string)",
    "C major/E for [64, 67, 72]", (void (*)(void))theory_chord_name};
static const pb_function_desc *const functions[] = {&note_frequency, &note_name, &interval_name,
                                                    &chord_name};

static const pb_plugin_desc plugin = {
    .magic = PATCHBAY_MAGIC,
    .abi_major = PATCHBAY_ABI_MAJOR,
    .abi_minor = PATCHBAY_ABI_MINOR,
    .struct_size = sizeof(pb_plugin_desc),
    .id = "dev.patchbay.theory-plugin",
    .name = "Theory",
    .version = "1.0.0",
    .feature_count = 0,
    .features = NULL,
    .function_count = 4,
    .functions = functions,
};

__attribute__((visibility("default"))) const pb_plugin_desc *patchbay_plugin_entry(
    pb_abi_version host_abi_major) {
  (void)host_abi_major;
  return &plugin;
}
