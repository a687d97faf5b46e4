/* What the Synth's reducer (synth.c) and its processor (processor.c) share. */
#ifndef PATCHBAY_SYNTH_H
#define PATCHBAY_SYNTH_H

#include <patchbay.h>

#define VOICES 16

extern const char *const waveforms[];
enum { WAVEFORM_COUNT = 4 };

typedef struct synth {
  const pb_host *host;
  int waveform;
  double volume;
  uint8_t held[128];
  int64_t notes_played;
} synth;

/* What the processor reads each period. */
typedef struct synth_parameters {
  int32_t waveform;
  float volume;
} synth_parameters;


/* The realtime half (processor.c). */
extern const pb_processor_desc synth_processor_desc;

#endif
