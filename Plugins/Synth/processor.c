/* The Synth's processor: 16 voices on the audio thread, each note at its exact frame. */
#include "synth.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* The processor: 16 voices, sample-accurate notes. */

typedef struct voice {
  int note; /* -1: free */
  int releasing;
  double phase, step; /* cycles */
  float level, gain;
  uint64_t started;
} voice;

typedef struct synth_processor {
  double rate;
  float attack_step, release_step;
  uint64_t notes;
  voice voices[VOICES];
} synth_processor;

static void fill_cosine_table(void);

static void *processor_create(void *instance, const pb_processor_config *config) {
  (void)instance;
  synth_processor *self = calloc(1, sizeof *self);
  if (!self) return NULL;
  fill_cosine_table();
  self->rate = config->sample_rate;
  self->attack_step = (float)(1.0 / (0.002 * config->sample_rate));
  self->release_step = (float)(1.0 / (0.030 * config->sample_rate));
  for (int v = 0; v < VOICES; v++) self->voices[v].note = -1;
  return self;
}

static void processor_destroy(void *processor) { free(processor); }

static void note_on(synth_processor *self, int note, int velocity) {
  voice *chosen = NULL;
  for (int v = 0; v < VOICES && !chosen; v++) {
    if (self->voices[v].note < 0) chosen = &self->voices[v];
  }
  if (!chosen) { /* all busy: the oldest goes */
    chosen = &self->voices[0];
    for (int v = 1; v < VOICES; v++) {
      if (self->voices[v].started < chosen->started) chosen = &self->voices[v];
    }
  }
  chosen->note = note;
  chosen->releasing = 0;
  chosen->phase = 0;
  chosen->step = 440.0 * pow(2.0, (note - 69) / 12.0) / self->rate;
  /* The first sample already sounds: the onset is the note's own frame. */
  chosen->level = self->attack_step;
  chosen->gain = (float)velocity / 127.0f;
  chosen->started = ++self->notes;
}

static void note_off(synth_processor *self, int note) {
  for (int v = 0; v < VOICES; v++) {
    if (self->voices[v].note == note && !self->voices[v].releasing) self->voices[v].releasing = 1;
  }
}

/* One cycle of a cosine, read with linear interpolation: a table lookup costs a few
 * nanoseconds where cos() costs ten, and 32 synths × 16 voices × 128 frames is 65,536 samples a
 * period. The pitch comes from the phase step, so the table's size does not detune. */
#define TABLE_SIZE 4096
static float cosine_table[TABLE_SIZE + 1];

static void fill_cosine_table_once(void) {
  for (int i = 0; i <= TABLE_SIZE; i++) cosine_table[i] = (float)cos(2.0 * M_PI * i / TABLE_SIZE);
}

static void fill_cosine_table(void) {
  static pthread_once_t once = PTHREAD_ONCE_INIT; /* apps on several threads create synths */
  pthread_once(&once, fill_cosine_table_once);
}

static float oscillator(int waveform, double phase) {
#ifdef SYNTH_FM
  /* SynthFM: every waveform is a two-operator FM tone (a modulator at twice the pitch), a
   * brighter, bell-like voice; `waveform` sets how deep the modulation goes. */
  double modulator = sin(2.0 * M_PI * 2.0 * phase) * (0.8 + 0.6 * waveform);
  return (float)cos(2.0 * M_PI * phase + modulator); /* 1 at phase 0: the onset sounds */
#endif
  switch (waveform) {
  case 1: return phase < 0.5 ? 1.0f : -1.0f;
  case 2: return (float)(2.0 * phase - 1.0);
  case 3: return (float)(phase < 0.5 ? 4.0 * phase - 1.0 : 3.0 - 4.0 * phase);
  default: {
    double position = phase * TABLE_SIZE;
    int index = (int)position;
    float fraction = (float)(position - index);
    return cosine_table[index] + (cosine_table[index + 1] - cosine_table[index]) * fraction;
  }
  }
}

static void render_frames(synth_processor *self, const synth_parameters *parameters,
                          float *output, uint32_t from, uint32_t to, uint32_t channels) {
  float volume = parameters->volume * 0.25f;
  for (int v = 0; v < VOICES; v++) {
    voice *voice = &self->voices[v];
    if (voice->note < 0) continue;
    for (uint32_t frame = from; frame < to; frame++) {
      float sample = oscillator(parameters->waveform, voice->phase) * voice->level * voice->gain *
                     volume;
      for (uint32_t c = 0; c < channels; c++) output[frame * channels + c] += sample;
      voice->phase += voice->step;
      if (voice->phase >= 1.0) voice->phase -= 1.0;
      if (voice->releasing) {
        voice->level -= self->release_step;
        if (voice->level <= 0) {
          voice->note = -1;
          break;
        }
      } else if (voice->level < 1.0f) {
        voice->level += self->attack_step;
        if (voice->level > 1.0f) voice->level = 1.0f;
      }
    }
  }
}

static void processor_process(void *processor, const pb_process *process) {
  synth_processor *self = processor;
  const synth_parameters *parameters = process->parameters;
  uint32_t frame = 0;
  for (uint32_t e = 0; e < process->midi_count; e++) {
    const pb_midi_event *event = &process->midi[e];
    uint32_t at = event->frame < process->frame_count ? event->frame : process->frame_count;
    render_frames(self, parameters, process->output, frame, at, process->channel_count);
    frame = at;
    uint8_t kind = event->bytes[0] & 0xF0;
    if (kind == 0x90 && event->bytes[2] > 0) note_on(self, event->bytes[1], event->bytes[2]);
    else if (kind == 0x80 || kind == 0x90) note_off(self, event->bytes[1]);
  }
  render_frames(self, parameters, process->output, frame, process->frame_count,
                process->channel_count);
}

static void processor_write_parameters(void *instance, void *block) {
  synth *self = instance;
  synth_parameters parameters = {self->waveform, (float)self->volume};
  memcpy(block, &parameters, sizeof parameters);
}

const pb_processor_desc synth_processor_desc = {
    .struct_size = sizeof(pb_processor_desc),
    .parameter_size = sizeof(synth_parameters),
    .max_output_events = 0,
    .write_parameters = processor_write_parameters,
    .create = processor_create,
    .process = processor_process,
    .destroy = processor_destroy,
    .event_action = NULL, /* it sends no events */
};

