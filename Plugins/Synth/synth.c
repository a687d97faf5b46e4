/*
 * Synth — a polyphonic synthesizer written in plain C, against patchbay.h only.
 *
 * One feature, dev.patchbay.synth, in two halves (patchbay/process.h):
 * - the reducer keeps the waveform, the volume and the notes held, and hears MIDI through
 *   "patchbay.midi/1" as actions: midi(noteOn(channel: 1, note: 60, velocity: 100)), …;
 * - the processor plays 16 voices on the audio thread, each note starting at its exact frame,
 *   with a 2 ms attack and a 30 ms release; the oldest voice is taken when all are busy.
 *
 * Actions: setWaveform(name: "sine" | "square" | "saw" | "triangle"), setVolume(level: 0.5),
 * allNotesOff, midi(…). MIDI controller 7 (channel volume) sets the volume too.
 * State: {waveform: string, volume: double, held: [int], notesPlayed: int}.
 */
#include <patchbay.h>
#include <patchbay/sdk.h>

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "synth.h"

/* The plugin's id and name: SynthFM (Plugins/SynthFM) builds these sources as another
 * plugin, a second implementation of the same feature. */
#ifndef SYNTH_PLUGIN_ID
#define SYNTH_PLUGIN_ID "dev.patchbay.synth-plugin"
#define SYNTH_PLUGIN_NAME "Synth"
#endif

const char *const waveforms[] = {"sine", "square", "saw", "triangle"};


static int waveform_named(const char *name, size_t length) {
  for (int i = 0; i < WAVEFORM_COUNT; i++) {
    if (pb_name_equals(name, length, waveforms[i])) return i;
  }
  return -1;
}

/* The actions, decoded. */
typedef enum action_kind {
  SET_WAVEFORM, SET_VOLUME, ALL_NOTES_OFF, NOTE_ON, NOTE_OFF, CONTROL_CHANGE, OTHER_MIDI
} action_kind;

typedef struct action {
  action_kind kind;
  int64_t a, b; /* waveform; note, velocity; controller, value */
  double level;
} action;

/* Reads `label: int` into `value`; 0 when it is there. */
static int read_int_field(pb_reader *in, const char *label, int64_t *value) {
  const char *name;
  size_t length;
  return pb_read_name(in, &name, &length) || !pb_name_equals(name, length, label) ||
                 pb_read_int(in, value)
             ? -1
             : 0;
}

/* Decodes an action; on failure writes why to `why`. */
static int decode_action(const uint8_t *bytes, size_t length, action *out, char *why, size_t size) {
  pb_reader in = {bytes, length, 0, NULL};
  const char *name, *label;
  size_t name_length, label_length;
  uint32_t fields;
  memset(out, 0, sizeof *out);
  if (pb_read_case(&in, &name, &name_length, &fields)) goto malformed;
  if (pb_name_equals(name, name_length, "allNotesOff") && fields == 0) {
    out->kind = ALL_NOTES_OFF;
  } else if (pb_name_equals(name, name_length, "setWaveform") && fields == 1) {
    const char *text;
    size_t text_length;
    if (pb_read_name(&in, &label, &label_length) || !pb_name_equals(label, label_length, "name") ||
        pb_read_string(&in, &text, &text_length))
      goto malformed;
    out->kind = SET_WAVEFORM;
    out->a = waveform_named(text, text_length);
    if (out->a < 0) {
      snprintf(why, size, "dev.patchbay.synth: no waveform '%.*s'; use sine, square, saw or "
               "triangle.", (int)text_length, text);
      return -1;
    }
  } else if (pb_name_equals(name, name_length, "setVolume") && fields == 1) {
    if (pb_read_name(&in, &label, &label_length) || !pb_name_equals(label, label_length, "level"))
      goto malformed;
    out->kind = SET_VOLUME;
    if (in.offset < length && bytes[in.offset] == PB_VALUE_INT) {
      int64_t whole;
      if (pb_read_int(&in, &whole)) goto malformed;
      out->level = (double)whole;
    } else {
      if (length - in.offset < 9 || bytes[in.offset] != PB_VALUE_DOUBLE) goto malformed;
      memcpy(&out->level, bytes + in.offset + 1, 8);
      in.offset += 9;
    }
  } else if (pb_name_equals(name, name_length, "midi") && fields == 1) {
    uint32_t message_fields;
    int64_t channel;
    if (pb_read_name(&in, &label, &label_length) ||
        pb_read_case(&in, &name, &name_length, &message_fields))
      goto malformed;
    int note_on = pb_name_equals(name, name_length, "noteOn");
    int note_off = pb_name_equals(name, name_length, "noteOff");
    if ((note_on || note_off) && message_fields == 3) {
      out->kind = note_on ? NOTE_ON : NOTE_OFF;
      if (read_int_field(&in, "channel", &channel) || read_int_field(&in, "note", &out->a) ||
          read_int_field(&in, "velocity", &out->b) || out->a < 0 || out->a > 127)
        goto malformed;
    } else if (pb_name_equals(name, name_length, "controlChange") && message_fields == 3) {
      out->kind = CONTROL_CHANGE;
      if (read_int_field(&in, "channel", &channel) ||
          read_int_field(&in, "controller", &out->a) || read_int_field(&in, "value", &out->b))
        goto malformed;
    } else {
      out->kind = OTHER_MIDI; /* heard, not played */
      for (uint32_t i = 0; i < message_fields; i++) {
        if (pb_read_name(&in, &label, &label_length) || pb_skip_value(&in)) goto malformed;
      }
    }
  } else {
    snprintf(why, size, "dev.patchbay.synth: unknown action '%.*s'. Actions: setWaveform(name:), "
             "setVolume(level:), allNotesOff, midi(…).", (int)name_length, name);
    return -1;
  }
  if (in.offset != length) {
    in.error = "unexpected bytes after the action";
    goto malformed;
  }
  return 0;
malformed:
  snprintf(why, size, "dev.patchbay.synth: cannot decode action: byte %zu: %s.", in.offset,
           in.error ? in.error : "unexpected fields");
  return -1;
}

static void apply(synth *self, const action *act) {
  switch (act->kind) {
  case SET_WAVEFORM: self->waveform = (int)act->a; break;
  case SET_VOLUME: self->volume = act->level < 0 ? 0 : act->level > 1 ? 1 : act->level; break;
  case ALL_NOTES_OFF: memset(self->held, 0, sizeof self->held); break;
  case NOTE_ON:
    if (act->b > 0) {
      self->held[act->a] = 1;
      self->notes_played += 1;
    } else {
      self->held[act->a] = 0;
    }
    break;
  case NOTE_OFF: self->held[act->a] = 0; break;
  case CONTROL_CHANGE:
    if (act->a == 7) self->volume = (double)act->b / 127.0;
    break;
  case OTHER_MIDI: break;
  }
}

/* State: {waveform: string, volume: double, held: [int], notesPlayed: int}. */
static int decode_state(synth *self, const uint8_t *bytes, size_t length, char *why, size_t size) {
  pb_reader in = {bytes, length, 0, NULL};
  uint32_t fields;
  if (pb_read_record(&in, &fields)) goto malformed;
  for (uint32_t i = 0; i < fields; i++) {
    const char *name;
    size_t name_length;
    if (pb_read_name(&in, &name, &name_length)) goto malformed;
    if (pb_name_equals(name, name_length, "waveform")) {
      const char *text;
      size_t text_length;
      if (pb_read_string(&in, &text, &text_length)) goto malformed;
      self->waveform = waveform_named(text, text_length);
      if (self->waveform < 0) {
        in.error = "unknown waveform";
        goto malformed;
      }
    } else if (pb_name_equals(name, name_length, "volume")) {
      if (length - in.offset < 9 || bytes[in.offset] != PB_VALUE_DOUBLE) goto malformed;
      memcpy(&self->volume, bytes + in.offset + 1, 8);
      in.offset += 9;
    } else if (pb_name_equals(name, name_length, "held")) {
      if (length - in.offset < 5 || bytes[in.offset] != PB_VALUE_LIST) goto malformed;
      uint32_t count = 0;
      for (int b = 0; b < 4; b++) count |= (uint32_t)bytes[in.offset + 1 + (size_t)b] << (8 * b);
      in.offset += 5;
      for (uint32_t n = 0; n < count; n++) {
        int64_t note;
        if (pb_read_int(&in, &note) || note < 0 || note > 127) goto malformed;
        self->held[note] = 1;
      }
    } else if (pb_name_equals(name, name_length, "notesPlayed")) {
      if (pb_read_int(&in, &self->notes_played)) goto malformed;
    } else if (pb_skip_value(&in)) {
      goto malformed;
    }
  }
  if (in.offset != length) {
    in.error = "unexpected bytes after the state";
    goto malformed;
  }
  return 0;
malformed:
  return pb_sdk_restore_malformed("dev.patchbay.synth", &in, why, size);
}

static void *synth_create(const pb_feature_desc *feature, const pb_host *host,
                          const uint8_t *state, size_t length) {
  (void)feature;
  synth *self = calloc(1, sizeof *self);
  if (!self) return NULL;
  self->host = host;
  self->volume = 0.5;
  if (state) {
    char why[256];
    if (decode_state(self, state, length, why, sizeof why)) {
      pb_sdk_report(host, why);
      free(self);
      return NULL;
    }
  }
  const pb_midi_service *midi = host->get_service(host, PB_SERVICE_MIDI);
  if (midi) midi->listen(host, PB_MIDI_ALL_CHANNELS);
  return self;
}

static void synth_destroy(void *instance) { free(instance); }

static pb_status synth_reduce(void *instance, const uint8_t *bytes, size_t length) {
  synth *self = instance;
  action act;
  char why[256];
  if (decode_action(bytes, length, &act, why, sizeof why)) {
    pb_sdk_report(self->host, why);
    return PB_ERR_DECODE;
  }
  apply(self, &act);
  return PB_OK;
}

static int held_count(const synth *self) {
  int count = 0;
  for (int note = 0; note < 128; note++) count += self->held[note];
  return count;
}

static pb_status synth_snapshot(void *instance, const pb_writer *out) {
  synth *self = instance;
  const char *waveform = waveforms[self->waveform];
  if (pb_write_record(out, 4) || pb_write_name(out, "waveform") ||
      pb_write_string(out, waveform, strlen(waveform)) || pb_write_name(out, "volume") ||
      pb_write_double(out, self->volume) || pb_write_name(out, "held"))
    return PB_ERR_FAILED;
  uint8_t list[5] = {PB_VALUE_LIST};
  uint32_t count = (uint32_t)held_count(self);
  for (int b = 0; b < 4; b++) list[1 + b] = (uint8_t)(count >> (8 * b));
  if (pb_sdk_write_all(out, list, sizeof list)) return PB_ERR_FAILED;
  for (int note = 0; note < 128; note++) {
    if (self->held[note] && pb_write_int(out, note)) return PB_ERR_FAILED;
  }
  return pb_write_name(out, "notesPlayed") || pb_write_int(out, self->notes_played)
             ? PB_ERR_FAILED
             : PB_OK;
}

static pb_status synth_render(void *instance, const pb_writer *out) {
  synth *self = instance;
  char text[160];
  int length = snprintf(text, sizeof text,
                        "Synth — %s, volume %d%%\n%d of %d voices held, %lld notes played",
                        waveforms[self->waveform], (int)lround(self->volume * 100),
                        held_count(self), VOICES, (long long)self->notes_played);
  return pb_sdk_write_all(out, text, (size_t)length) ? PB_ERR_FAILED : PB_OK;
}

/* A writer into a fixed buffer; it takes nothing once full. */
/* Is `bytes` an action of the Synth? The test reduce makes. */
static int check_action(const uint8_t *bytes, size_t length, char *why, size_t size) {
  action act;
  return decode_action(bytes, length, &act, why, size);
}

static pb_status synth_parse_action(const pb_feature_desc *feature, const pb_host *host,
                                    const char *text, size_t length, const pb_writer *out) {
  (void)feature;
  return pb_sdk_parse_action("dev.patchbay.synth", host, text, length, out, check_action, NULL);
}

static pb_status synth_format_action(const pb_feature_desc *feature, const pb_host *host,
                                     const uint8_t *bytes, size_t length, const pb_writer *out) {
  (void)feature;
  return pb_sdk_format_action("dev.patchbay.synth", host, bytes, length, out, check_action);
}

static void synth_cancel_effects(void *instance) { (void)instance; /* no effects */ }

PB_SDK_ACTIONS(
    actions,
    PB_SDK_ACTION("setWaveform", "sine, square, saw or triangle", PB_SDK_FIELD("name", "string")),
    PB_SDK_ACTION("setVolume", "0.0 to 1.0", PB_SDK_FIELD("level", "double")),
    PB_SDK_ACTION0("allNotesOff", "Lets go of every held note"),
    PB_SDK_ACTION_SENT_BY("host", "midi", "A message from a keyboard", PB_SDK_FIELD("_0", "case")));

static const pb_feature_vtable vtable = PB_SDK_VTABLE(synth);

static const pb_feature_desc feature = {
    .struct_size = sizeof(pb_feature_desc),
    .id = "dev.patchbay.synth",
    .name = "Synth",
    .summary = "A 16-voice synthesizer played by MIDI.",
    .state_schema_version = 1,
    .action_count = PB_SDK_COUNT(actions),
    .actions = actions,
    .vtable = &vtable,
    .processor = &synth_processor_desc,
};

PB_SDK_PLUGIN(SYNTH_PLUGIN_ID, SYNTH_PLUGIN_NAME, "1.0.0", &feature)
