/*
 * wired.c — a WebAssembly feature that uses every service a wasm plugin may be granted, as a
 * native plugin uses them: MIDI input, navigation, shared state, and the clock (which needs no
 * grant). Its create listens to MIDI channel 1 and subscribes to the Metronome's "transport".
 * State: {midi: int, transports: int, tempo: double, tally: int, told: int, clock: bool}.
 *
 *   midi(_: message)         a MIDI message on channel 1: midi += 1
 *   transport(_: {tempo…})   the Metronome's transport: transports += 1, tempo = its tempo
 *   push(node: string)       asks the app to push `node`      pop      asks it to pop
 *   hold(initial: int)       holds "tally" (initial unless it has a value)
 *   write(value: int)        writes "tally"; tally = value
 *   _shared(name:, value:)   another holder wrote "tally": tally = value, told += 1
 *   tick                     clock = the clock went forward since create
 *   spin                     runs out of fuel (the instance is rebuilt from a checkpoint)
 *   badNavigate              hands the host's navigate a node past its memory: a trap, named
 */
#include <patchbay.h>
#include <patchbay/sdk.h>

#include <stdlib.h>
#include <string.h>

#define WIRED_ID "dev.patchbay.wired"

__attribute__((import_module("patchbay"), import_name("navigate"))) void patchbay_navigate(
    uint32_t kind, const char *node, uint32_t node_length, const uint8_t *state,
    uint32_t state_length, uint32_t has_state);

typedef struct wired {
  const pb_host *host;
  int64_t midi, transports, tally, told;
  double tempo;
  int clock;
  uint64_t created_ns;
} wired;

static const pb_clock_service *clock_of(const pb_host *host) {
  return host->get_service(host, PB_SERVICE_CLOCK);
}

static void *wired_create(const pb_feature_desc *feature, const pb_host *host,
                          const uint8_t *state, size_t length) {
  wired *self = calloc(1, sizeof *self);
  if (!self) return NULL;
  self->host = host;
  if (state) {
    const pb_sdk_state_field fields[] = {
        {"midi", PB_SDK_INT, &self->midi},        {"transports", PB_SDK_INT, &self->transports},
        {"tempo", PB_SDK_DOUBLE, &self->tempo},   {"tally", PB_SDK_INT, &self->tally},
        {"told", PB_SDK_INT, &self->told},        {"clock", PB_SDK_BOOL, &self->clock},
    };
    char why[192];
    if (pb_sdk_read_state(state, length, fields, PB_SDK_COUNT(fields), why, sizeof why)) {
      pb_sdk_report(host, why);
      free(self);
      return NULL;
    }
  }
  const pb_midi_service *midi = host->get_service(host, PB_SERVICE_MIDI);
  const pb_shared_service *shared = host->get_service(host, PB_SERVICE_SHARED);
  const pb_clock_service *clock = clock_of(host);
  if (!midi || !shared || !clock) {
    pb_sdk_report(host, WIRED_ID ": the host offers no MIDI, shared state or clock");
    free(self);
    return NULL;
  }
  midi->listen(host, 1u);
  shared->subscribe(host, "transport", "transport");
  self->created_ns = clock->now_ns();
  return self;
}

static void wired_destroy(void *instance) { free(instance); }

static void navigate(wired *self, pb_navigation_kind kind, const char *node) {
  const pb_navigation_service *navigation = self->host->get_service(self->host, PB_SERVICE_NAVIGATION);
  if (navigation) navigation->navigate(self->host, kind, node, NULL, 0);
}

/* Holds or writes "tally", as an int value. */
static pb_status tally_write(wired *self, int64_t value, int hold) {
  pb_sdk_buffer buffer = {NULL, 0, 0};
  const pb_writer out = {sizeof(pb_writer), &buffer, pb_sdk_buffer_write};
  const pb_shared_service *shared = self->host->get_service(self->host, PB_SERVICE_SHARED);
  pb_status status = PB_ERR_FAILED;
  if (!pb_write_int(&out, value))
    status = hold ? shared->hold(self->host, "tally", buffer.bytes, buffer.length)
                  : shared->write(self->host, "tally", buffer.bytes, buffer.length);
  free(buffer.bytes);
  return status;
}

static pb_status wired_reduce(void *instance, const uint8_t *action, size_t length) {
  wired *self = instance;
  pb_reader in = {action, length, 0, NULL};
  const char *name, *label;
  size_t name_length, label_length;
  uint32_t fields;
  if (pb_read_case(&in, &name, &name_length, &fields)) return PB_ERR_DECODE;
  if (pb_name_equals(name, name_length, "midi")) {
    self->midi += 1;
  } else if (pb_name_equals(name, name_length, "transport")) {
    if (fields != 1 || pb_read_name(&in, &label, &label_length)) return PB_ERR_DECODE;
    const pb_sdk_state_field tempo[] = {{"tempo", PB_SDK_DOUBLE, &self->tempo}};
    char why[128];
    if (pb_sdk_read_state(action + in.offset, length - in.offset, tempo, 1, why, sizeof why))
      return PB_ERR_DECODE;
    self->transports += 1;
  } else if (pb_name_equals(name, name_length, "push")) {
    pb_sdk_string node = {"", 0};
    if (fields != 1 || pb_read_name(&in, &label, &label_length) ||
        pb_read_string(&in, &node.utf8, &node.length) || node.length > 63)
      return PB_ERR_DECODE;
    char text[64];
    memcpy(text, node.utf8, node.length);
    text[node.length] = 0;
    navigate(self, PB_NAVIGATE_PUSH, text);
  } else if (pb_name_equals(name, name_length, "pop")) {
    navigate(self, PB_NAVIGATE_POP, NULL);
  } else if (pb_name_equals(name, name_length, "hold") ||
             pb_name_equals(name, name_length, "write")) {
    int64_t value;
    if (fields != 1 || pb_read_name(&in, &label, &label_length) || pb_read_int(&in, &value))
      return PB_ERR_DECODE;
    int hold = pb_name_equals(name, name_length, "hold");
    if (tally_write(self, value, hold) != PB_OK) return PB_ERR_FAILED;
    if (!hold) self->tally = value;
  } else if (pb_name_equals(name, name_length, "_shared")) {
    int64_t value;
    /* name: "tally", value: int */
    if (fields != 2 || pb_read_name(&in, &label, &label_length) || pb_skip_value(&in) ||
        pb_read_name(&in, &label, &label_length) || pb_read_int(&in, &value))
      return PB_ERR_DECODE;
    self->tally = value;
    self->told += 1;
  } else if (pb_name_equals(name, name_length, "tick")) {
    self->clock = clock_of(self->host)->now_ns() > self->created_ns;
  } else if (pb_name_equals(name, name_length, "spin")) {
    for (volatile uint32_t i = 0;; i++) {
    }
  } else if (pb_name_equals(name, name_length, "badNavigate")) {
    patchbay_navigate(PB_NAVIGATE_PUSH, (const char *)(uintptr_t)0xFFFFFF00u, 0x1000, NULL, 0, 0);
  } else {
    pb_sdk_report(self->host, WIRED_ID ": unknown action");
    return PB_ERR_DECODE;
  }
  return PB_OK;
}

static pb_status wired_snapshot(void *instance, const pb_writer *out) {
  wired *self = instance;
  return pb_write_record(out, 6) || pb_write_name(out, "midi") || pb_write_int(out, self->midi) ||
                 pb_write_name(out, "transports") || pb_write_int(out, self->transports) ||
                 pb_write_name(out, "tempo") || pb_write_double(out, self->tempo) ||
                 pb_write_name(out, "tally") || pb_write_int(out, self->tally) ||
                 pb_write_name(out, "told") || pb_write_int(out, self->told) ||
                 pb_write_name(out, "clock") || pb_write_bool(out, self->clock)
             ? PB_ERR_FAILED
             : PB_OK;
}

static pb_status wired_render(void *instance, const pb_writer *out) {
  (void)instance;
  return pb_sdk_write_all(out, "wired", 5) ? PB_ERR_FAILED : PB_OK;
}

static pb_status wired_parse_action(const pb_feature_desc *feature, const pb_host *host,
                                    const char *text, size_t length, const pb_writer *out) {
  return pb_sdk_parse_action(WIRED_ID, host, text, length, out, NULL, "Send tick.");
}

static pb_status wired_format_action(const pb_feature_desc *feature, const pb_host *host,
                                     const uint8_t *action, size_t length, const pb_writer *out) {
  return pb_sdk_format_action(WIRED_ID, host, action, length, out, NULL);
}

static void wired_cancel_effects(void *instance) { (void)instance; }

PB_SDK_ACTIONS(actions, PB_SDK_ACTION("push", "asks the app to push a node", PB_SDK_FIELD("node", "string")),
               PB_SDK_ACTION0("pop", "asks the app to pop"),
               PB_SDK_ACTION("hold", "holds tally", PB_SDK_FIELD("initial", "int")),
               PB_SDK_ACTION("write", "writes tally", PB_SDK_FIELD("value", "int")),
               PB_SDK_ACTION0("tick", "reads the clock"),
               PB_SDK_ACTION0("spin", "runs out of fuel"),
               PB_SDK_ACTION0("badNavigate", "a bad pointer to the host's navigate"));

static const pb_feature_vtable vtable = PB_SDK_VTABLE(wired);

static const pb_feature_desc feature = {
    .struct_size = sizeof(pb_feature_desc),
    .id = WIRED_ID,
    .name = "Wired",
    .summary = "Uses MIDI, navigation, shared state and the clock.",
    .state_schema_version = 1,
    .action_count = PB_SDK_COUNT(actions),
    .actions = actions,
    .vtable = &vtable,
};

PB_SDK_PLUGIN("dev.patchbay.wired-plugin", "Wired", "1.0.0", &feature)
