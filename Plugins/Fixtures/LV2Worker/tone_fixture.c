/* urn:patchbay:test:tone — the smallest LV2 instrument: MIDI in through an atom port, a sine
 * out, for PatchbayLV2's tests of MIDI into a plugin.
 *
 * Ports: 0 `midi` (atom in, MIDI), 1 `out` (audio out), 2 `note` (control out: the note
 * sounding, or -1). A note-on starts a sine at the note's pitch at its frame; a note-off of
 * that note stops it at its frame. */
#include "lv2_worker_fixture.h"

#include <lv2/atom/util.h>
#include <lv2/midi/midi.h>
#include <lv2/urid/urid.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  const LV2_Atom_Sequence *midi;
  float *out;
  float *note_port;
  LV2_URID midi_event;
  double rate;
  double phase;
  int note;
} Tone;

static LV2_Handle instantiate(const LV2_Descriptor *descriptor, double rate, const char *path,
                              const LV2_Feature *const *features) {
  (void)descriptor, (void)path;
  LV2_URID_Map *map = NULL;
  for (int i = 0; features && features[i]; i++)
    if (!strcmp(features[i]->URI, LV2_URID__map)) map = features[i]->data;
  if (!map) return NULL;
  Tone *tone = calloc(1, sizeof(Tone));
  tone->midi_event = map->map(map->handle, LV2_MIDI__MidiEvent);
  tone->rate = rate;
  tone->note = -1;
  return tone;
}

static void connect_port(LV2_Handle handle, uint32_t port, void *data) {
  Tone *tone = handle;
  switch (port) {
  case 0: tone->midi = data; break;
  case 1: tone->out = data; break;
  case 2: tone->note_port = data; break;
  }
}

/* Writes frames [from, to) of the sine (or silence). */
static void render(Tone *tone, uint32_t from, uint32_t to) {
  double step = tone->note < 0 ? 0 : 2 * M_PI * 440 * pow(2, (tone->note - 69) / 12.0) / tone->rate;
  for (uint32_t frame = from; frame < to; frame++) {
    tone->out[frame] = tone->note < 0 ? 0 : (float)(0.5 * sin(tone->phase));
    tone->phase += step;
  }
}

static void run(LV2_Handle handle, uint32_t frames) {
  Tone *tone = handle;
  uint32_t done = 0;
  LV2_ATOM_SEQUENCE_FOREACH (tone->midi, event) {
    if (event->body.type != tone->midi_event || event->body.size < 3) continue;
    const uint8_t *message = (const uint8_t *)(event + 1);
    uint32_t frame = (uint32_t)event->time.frames < frames ? (uint32_t)event->time.frames : frames;
    render(tone, done, frame);
    done = frame;
    if ((message[0] & 0xF0) == 0x90 && message[2] > 0) {
      tone->note = message[1];
      tone->phase = 0;
    } else if (((message[0] & 0xF0) == 0x80 || (message[0] & 0xF0) == 0x90) &&
               message[1] == tone->note) {
      tone->note = -1;
    }
  }
  render(tone, done, frames);
  *tone->note_port = (float)tone->note;
}

static void cleanup(LV2_Handle handle) { free(handle); }

static const void *extension_data(const char *uri) {
  (void)uri;
  return NULL;
}

__attribute__((visibility("hidden"))) const LV2_Descriptor lv2_tone_fixture = {
    "urn:patchbay:test:tone", instantiate, connect_port, NULL, run, NULL, cleanup, extension_data};
