/*
 * Drums: a 16-step pattern of kick, snare and hi-hat, written in plain C against patchbay.h.
 *
 * It keeps time with the Metronome without importing it: it subscribes to the "transport"
 * the Metronome publishes ("patchbay.shared/1", patchbay/shared.h), which arrives as the
 * action `transport(_: {tempo: 120.0, running: true, run: 3, beatsPerBar: 4})`. Its processor
 * (processor.c) reads the tempo and the run through its own parameter block.
 *
 * Actions: transport(_: {…}), setPattern(voice: "kick", steps: "x...x...x...x..."),
 * toggle(voice: "snare", step: 5), setVolume(level: 0.8).
 */
#include <patchbay.h>
#include <patchbay/sdk.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drums.h"

const char *const voice_names[VOICE_COUNT] = {"kick", "snare", "hat"};
static const char *const default_patterns[VOICE_COUNT] = {
    "x.......x.x.....", "....x.......x...", "x.x.x.x.x.x.x.x."};


static int voice_named(const char *name, size_t length) {
  for (int v = 0; v < VOICE_COUNT; v++) {
    if (pb_name_equals(name, length, voice_names[v])) return v;
  }
  return -1;
}

/* "x...x..." → bit n for each 'x' at n; -1 unless 16 characters of 'x' and '.'. */
static int32_t steps_from_text(const char *text, size_t length) {
  if (length != STEPS) return -1;
  int32_t mask = 0;
  for (size_t i = 0; i < STEPS; i++) {
    if (text[i] == 'x' || text[i] == 'X') mask |= 1 << i;
    else if (text[i] != '.') return -1;
  }
  return mask;
}

static void steps_to_text(uint16_t mask, char out[STEPS + 1]) {
  for (int i = 0; i < STEPS; i++) out[i] = mask & (1u << i) ? 'x' : '.';
  out[STEPS] = 0;
}

/* An int or a double (the text `120` is an int), as a double. */
static int read_number(pb_reader *in, double *value) {
  uint8_t tag;
  if (pb_peek_tag(in, &tag)) return -1;
  if (tag == PB_VALUE_INT) {
    int64_t whole;
    if (pb_read_int(in, &whole)) return -1;
    *value = (double)whole;
    return 0;
  }
  return pb_read_double(in, value);
}

static int read_label(pb_reader *in, const char *expected) {
  const char *name;
  size_t length;
  return pb_read_name(in, &name, &length) || !pb_name_equals(name, length, expected) ? -1 : 0;
}

/* The transport record, fields in any order; unknown ones skipped (a newer Metronome). */
static int read_transport(pb_reader *in, drums *next) {
  uint32_t fields;
  if (pb_read_record(in, &fields)) return -1;
  for (uint32_t i = 0; i < fields; i++) {
    const char *name;
    size_t length;
    if (pb_read_name(in, &name, &length)) return -1;
    if (pb_name_equals(name, length, "tempo")) {
      if (read_number(in, &next->tempo)) return -1;
    } else if (pb_name_equals(name, length, "running")) {
      if (pb_read_bool(in, &next->running)) return -1;
    } else if (pb_name_equals(name, length, "run")) {
      if (pb_read_int(in, &next->run)) return -1;
    } else if (pb_skip_value(in)) {
      return -1;
    }
  }
  return 0;
}

/* Decodes `bytes` as an action and applies it to a copy of `self`, into `next`: 0, or -1 with
 * `why` (and `next` to be dropped). */
static int decode_action(const drums *self, const uint8_t *bytes, size_t length, drums *next,
                         char *why, size_t size) {
  pb_reader in = {bytes, length, 0, NULL};
  const char *name, *text;
  size_t name_length, text_length;
  uint32_t fields;
  *next = *self;
  if (pb_read_case(&in, &name, &name_length, &fields)) goto malformed;
  if (pb_name_equals(name, name_length, "transport") && fields == 1) {
    if (read_label(&in, "_0") || read_transport(&in, next)) goto malformed;
    if (!(next->tempo >= 20 && next->tempo <= 400)) next->tempo = self->tempo;
  } else if ((pb_name_equals(name, name_length, "setPattern") ||
              pb_name_equals(name, name_length, "toggle")) && fields == 2) {
    int toggle = name[0] == 't';
    if (read_label(&in, "voice") || pb_read_string(&in, &text, &text_length)) goto malformed;
    int voice = voice_named(text, text_length);
    if (voice < 0) {
      snprintf(why, size, "dev.patchbay.drums: no voice '%.*s'; use kick, snare or hat.",
               (int)text_length, text);
      return -1;
    }
    if (toggle) {
      int64_t step;
      if (read_label(&in, "step") || pb_read_int(&in, &step)) goto malformed;
      if (step < 1 || step > STEPS) {
        snprintf(why, size, "dev.patchbay.drums: step %lld is not 1 to 16.", (long long)step);
        return -1;
      }
      next->pattern[voice] ^= (uint16_t)(1u << (step - 1));
    } else {
      if (read_label(&in, "steps") || pb_read_string(&in, &text, &text_length)) goto malformed;
      int32_t mask = steps_from_text(text, text_length);
      if (mask < 0) {
        snprintf(why, size, "dev.patchbay.drums: steps '%.*s' are not 16 of 'x' (a hit) and "
                 "'.' (a rest).", (int)text_length, text);
        return -1;
      }
      next->pattern[voice] = (uint16_t)mask;
    }
  } else if (pb_name_equals(name, name_length, "setVolume") && fields == 1) {
    if (read_label(&in, "level") || read_number(&in, &next->volume)) goto malformed;
    next->volume = next->volume < 0 ? 0 : next->volume > 1 ? 1 : next->volume;
  } else {
    snprintf(why, size, "dev.patchbay.drums: unknown action '%.*s'. Actions: setPattern(voice:, "
             "steps:), toggle(voice:, step:), setVolume(level:), transport(_:).",
             (int)name_length, name);
    return -1;
  }
  if (in.offset != length) {
    in.error = "unexpected bytes after the action";
    goto malformed;
  }
  return 0;
malformed:
  snprintf(why, size, "dev.patchbay.drums: cannot decode action: byte %zu: %s.", in.offset,
           in.error ? in.error : "unexpected fields");
  return -1;
}

static int decode_state(drums *self, const uint8_t *bytes, size_t length, char *why, size_t size) {
  pb_reader in = {bytes, length, 0, NULL};
  uint32_t fields;
  if (pb_read_record(&in, &fields)) goto malformed;
  for (uint32_t i = 0; i < fields; i++) {
    const char *name, *text;
    size_t name_length, text_length;
    if (pb_read_name(&in, &name, &name_length)) goto malformed;
    int voice = voice_named(name, name_length);
    if (voice >= 0) {
      if (pb_read_string(&in, &text, &text_length)) goto malformed;
      int32_t mask = steps_from_text(text, text_length);
      if (mask < 0) {
        in.error = "a pattern is not 16 of 'x' and '.'";
        goto malformed;
      }
      self->pattern[voice] = (uint16_t)mask;
    } else if (pb_name_equals(name, name_length, "tempo")) {
      if (read_number(&in, &self->tempo)) goto malformed;
    } else if (pb_name_equals(name, name_length, "running")) {
      if (pb_read_bool(&in, &self->running)) goto malformed;
    } else if (pb_name_equals(name, name_length, "run")) {
      if (pb_read_int(&in, &self->run)) goto malformed;
    } else if (pb_name_equals(name, name_length, "volume")) {
      if (read_number(&in, &self->volume)) goto malformed;
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
  return pb_sdk_restore_malformed("dev.patchbay.drums", &in, why, size);
}

static void *drums_create(const pb_feature_desc *feature, const pb_host *host,
                          const uint8_t *state, size_t length) {
  (void)feature;
  drums *self = calloc(1, sizeof *self);
  if (!self) return NULL;
  self->host = host;
  self->tempo = 120;
  self->volume = 0.4;
  for (int v = 0; v < VOICE_COUNT; v++) {
    self->pattern[v] = (uint16_t)steps_from_text(default_patterns[v], STEPS);
  }
  char why[256];
  if (state && decode_state(self, state, length, why, sizeof why)) {
    pb_sdk_report(host, why);
    free(self);
    return NULL;
  }
  const pb_shared_service *shared = host->get_service(host, PB_SERVICE_SHARED);
  if (shared) shared->subscribe(host, "transport", "transport");
  return self;
}

static void drums_destroy(void *instance) { free(instance); }

static pb_status drums_reduce(void *instance, const uint8_t *bytes, size_t length) {
  drums *self = instance, next;
  char why[256];
  if (decode_action(self, bytes, length, &next, why, sizeof why)) {
    pb_sdk_report(self->host, why);
    return PB_ERR_DECODE;
  }
  *self = next;
  return PB_OK;
}

static pb_status drums_snapshot(void *instance, const pb_writer *out) {
  drums *self = instance;
  if (pb_write_record(out, VOICE_COUNT + 4)) return PB_ERR_FAILED;
  for (int v = 0; v < VOICE_COUNT; v++) {
    char steps[STEPS + 1];
    steps_to_text(self->pattern[v], steps);
    if (pb_write_name(out, voice_names[v]) || pb_write_string(out, steps, STEPS))
      return PB_ERR_FAILED;
  }
  return pb_write_name(out, "tempo") || pb_write_double(out, self->tempo) ||
                 pb_write_name(out, "running") || pb_write_bool(out, self->running) ||
                 pb_write_name(out, "run") || pb_write_int(out, self->run) ||
                 pb_write_name(out, "volume") || pb_write_double(out, self->volume)
             ? PB_ERR_FAILED
             : PB_OK;
}

static pb_status drums_render(void *instance, const pb_writer *out) {
  drums *self = instance;
  char text[320];
  int length = snprintf(text, sizeof text, "Drums — %d BPM (the Metronome's), %s, volume %d%%",
                        (int)lround(self->tempo), self->running ? "playing" : "stopped",
                        (int)lround(self->volume * 100));
  for (int v = 0; v < VOICE_COUNT; v++) {
    char steps[STEPS + 1];
    steps_to_text(self->pattern[v], steps);
    length += snprintf(text + length, sizeof text - (size_t)length, "\n%-5s %s", voice_names[v],
                       steps);
  }
  return out->write(out->context, text, (size_t)length) == (size_t)length ? PB_OK : PB_ERR_FAILED;
}

/* Is `bytes` an action of the Drums? The test reduce makes, against a default instance. */
static int check_action(const uint8_t *bytes, size_t length, char *why, size_t size) {
  drums blank = {0}, next;
  blank.tempo = 120;
  return decode_action(&blank, bytes, length, &next, why, size);
}

static pb_status drums_parse_action(const pb_feature_desc *feature, const pb_host *host,
                                    const char *text, size_t length, const pb_writer *out) {
  (void)feature;
  return pb_sdk_parse_action("dev.patchbay.drums", host, text, length, out, check_action, NULL);
}

static pb_status drums_format_action(const pb_feature_desc *feature, const pb_host *host,
                                     const uint8_t *bytes, size_t length, const pb_writer *out) {
  (void)feature;
  return pb_sdk_format_action("dev.patchbay.drums", host, bytes, length, out, check_action);
}

static void drums_cancel_effects(void *instance) { (void)instance; /* no effects */ }

PB_SDK_ACTIONS(
    actions,
    PB_SDK_ACTION("setPattern", "16 steps of x and . for kick, snare or hat",
                  PB_SDK_FIELD("voice", "string"), PB_SDK_FIELD("steps", "string")),
    PB_SDK_ACTION("toggle", "Turns one step (1-16) of a voice on or off",
                  PB_SDK_FIELD("voice", "string"), PB_SDK_FIELD("step", "int")),
    PB_SDK_ACTION("setVolume", "0.0 to 1.0", PB_SDK_FIELD("level", "double")),
    PB_SDK_ACTION_SENT_BY("host", "transport", "The Metronome's tempo and start/stop (shared)",
                          PB_SDK_FIELD("_0", "record")));

static const pb_feature_vtable vtable = PB_SDK_VTABLE(drums);

static const pb_feature_desc feature = {
    .struct_size = sizeof(pb_feature_desc),
    .id = "dev.patchbay.drums",
    .name = "Drums",
    .summary = "A 16-step drum pattern in time with the Metronome (shared state).",
    .state_schema_version = 1,
    .action_count = PB_SDK_COUNT(actions),
    .actions = actions,
    .vtable = &vtable,
    .processor = &drums_processor_desc,
};

PB_SDK_PLUGIN("dev.patchbay.drums-plugin", "Drums", "1.0.0", &feature)
