/* What the Drums' reducer (drums.c) and its processor (processor.c) share. */
#ifndef PATCHBAY_DRUMS_H
#define PATCHBAY_DRUMS_H

#include <patchbay.h>

#define STEPS 16
enum { KICK, SNARE, HAT, VOICE_COUNT };
extern const char *const voice_names[VOICE_COUNT];

/* The reducer's state. The transport is the Metronome's, read through "patchbay.shared/1". */
typedef struct drums {
  const pb_host *host;
  uint16_t pattern[VOICE_COUNT]; /* bit n: step n+1 plays */
  double tempo;
  int running;
  int64_t run;
  double volume;
} drums;

/* What the processor reads each period. */
typedef struct drums_parameters {
  double tempo;
  int64_t run;
  int32_t running;
  float volume;
  uint16_t pattern[VOICE_COUNT];
} drums_parameters;

/* The realtime half (processor.c). */
extern const pb_processor_desc drums_processor_desc;

#endif
