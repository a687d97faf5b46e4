/* The Drums' processor: a 16-step pattern of kick, snare and hi-hat on the audio thread, in
 * step with the Metronome. Step n of a start falls on frame `start + round(n × 15 / tempo ×
 * rate)`, where `start` is the first frame of the period in which the run changed: the same
 * frame the Metronome starts from, so every fourth step is a click. */
#include "drums.h"

#include <math.h>
#include <stdlib.h>

typedef struct hit {
  int64_t frame; /* frames into the sound; -1: silent */
  uint32_t noise;
} hit;

typedef struct drums_processor {
  double rate;
  int64_t run;
  int64_t next_step;
  double next_position;
  hit hits[VOICE_COUNT];
} drums_processor;

static void *processor_create(void *instance, const pb_processor_config *config) {
  (void)instance;
  drums_processor *self = calloc(1, sizeof *self);
  if (!self) return NULL;
  self->rate = config->sample_rate;
  self->run = -1;
  for (int v = 0; v < VOICE_COUNT; v++) self->hits[v] = (hit){-1, 0x9E3779B9u * (uint32_t)(v + 1)};
  return self;
}

static void processor_destroy(void *processor) { free(processor); }

/* A white-noise sample from a voice's own generator (xorshift: the same every run). */
static float noise(hit *h) {
  h->noise ^= h->noise << 13;
  h->noise ^= h->noise >> 17;
  h->noise ^= h->noise << 5;
  return (float)((int32_t)h->noise) / 2147483648.0f;
}

/* One sample of a voice, `t` seconds into it; 0 once it has died away. */
static float voice_sample(int voice, hit *h, double t) {
  switch (voice) {
  case KICK: { /* a sine falling from 150 to 50 Hz */
    if (t > 0.25) return -2;
    double phase = 2 * M_PI * (50 * t + 100 * 0.03 * (1 - exp(-t / 0.03)));
    return (float)(0.6 * exp(-t / 0.07) * sin(phase));
  }
  case SNARE:
    if (t > 0.15) return -2;
    return (float)(exp(-t / 0.04) * (0.35 * noise(h) + 0.25 * sin(2 * M_PI * 185 * t)));
  default:
    if (t > 0.05) return -2;
    return (float)(0.18 * exp(-t / 0.012) * noise(h));
  }
}

static void drums_process(void *processor, const pb_process *process) {
  drums_processor *self = processor;
  const drums_parameters *p = process->parameters;
  if (!p) return;
  if (p->run != self->run) {
    self->run = p->run;
    self->next_step = 0;
    self->next_position = (double)process->steady_time;
  }
  double frames_per_step = 15.0 / p->tempo * self->rate;
  uint32_t channels = process->channel_count;
  for (uint32_t frame = 0; frame < process->frame_count; frame++) {
    double now = (double)(process->steady_time + frame);
    if (p->running && now >= round(self->next_position)) {
      int step = (int)(self->next_step % STEPS);
      for (int v = 0; v < VOICE_COUNT; v++) {
        if (p->pattern[v] & (1u << step)) self->hits[v].frame = 0;
      }
      self->next_step += 1;
      self->next_position += frames_per_step;
    }
    float sample = 0;
    for (int v = 0; v < VOICE_COUNT; v++) {
      hit *h = &self->hits[v];
      if (h->frame < 0) continue;
      float s = voice_sample(v, h, (double)h->frame / self->rate);
      if (s < -1.5f) {
        h->frame = -1;
        continue;
      }
      sample += s;
      h->frame += 1;
    }
    sample *= p->volume;
    for (uint32_t c = 0; c < channels; c++) process->output[frame * channels + c] += sample;
  }
}

static void drums_write_parameters(void *instance, void *block) {
  const drums *self = instance;
  drums_parameters *p = block;
  p->tempo = self->tempo;
  p->run = self->run;
  p->running = self->running;
  p->volume = (float)self->volume;
  for (int v = 0; v < VOICE_COUNT; v++) p->pattern[v] = self->pattern[v];
}

const pb_processor_desc drums_processor_desc = {
    .struct_size = sizeof(pb_processor_desc),
    .parameter_size = sizeof(drums_parameters),
    .max_output_events = 0,
    .write_parameters = drums_write_parameters,
    .create = processor_create,
    .process = drums_process,
    .destroy = processor_destroy,
    .event_action = NULL,
};
