/*
 * hostile.c — a WebAssembly plugin that misbehaves on request, for the host's tests: each
 * action but `bump` does what a plugin must not, and the host must name it and go on.
 *
 *   bump          count + 1 (the state the tests check survives the rest)
 *   spin          a loop that never ends: out of fuel
 *   grow          asks for a megabyte at a time without end: the memory limit, then abort
 *   readFar       reads past the end of its memory
 *   badPointer    hands the host's send a pointer and a length past its memory
 *   bumpThenSpin  count + 1, then spins: the count must not stay bumped
 *   talk          prints a line and logs one: both reach the host's log
 *   floodTimers   asks the host for timers without end (patchbay.send_after): its limit
 */
#include <patchbay.h>
#include <patchbay/sdk.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HOSTILE_ID "dev.patchbay.hostile"

/* The host's timer (Sources/PatchbayWasmGuest/Swift/patchbay_embedded.h). */
__attribute__((import_module("patchbay"), import_name("send_after"))) void
patchbay_send_after(uint32_t milliseconds, const uint8_t *action, uint32_t length);

typedef struct hostile {
  const pb_host *host;
  int64_t count;
} hostile;

static void *hostile_create(const pb_feature_desc *feature, const pb_host *host,
                            const uint8_t *state, size_t length) {
  hostile *self = calloc(1, sizeof *self);
  if (!self) return NULL;
  self->host = host;
  if (state) {
    const pb_sdk_state_field fields[] = {{"count", PB_SDK_INT, &self->count}};
    char why[192];
    if (pb_sdk_read_state(state, length, fields, 1, why, sizeof why)) {
      pb_sdk_report(host, why);
      free(self);
      return NULL;
    }
  }
  return self;
}

static void hostile_destroy(void *instance) { free(instance); }

static volatile uint32_t sink;
/* Where each block grown goes: kept, so the compiler cannot drop the allocation. */
static char *volatile kept;

static pb_status hostile_reduce(void *instance, const uint8_t *action, size_t length) {
  hostile *self = instance;
  pb_reader in = {action, length, 0, NULL};
  const char *name;
  size_t name_length;
  uint32_t fields;
  if (pb_read_case(&in, &name, &name_length, &fields)) return PB_ERR_DECODE;
  if (pb_name_equals(name, name_length, "bump")) {
    self->count += 1;
  } else if (pb_name_equals(name, name_length, "talk")) {
    printf("printed by a wasm plugin, count %lld\n", (long long)self->count);
    self->host->log(self->host, PB_LOG_INFO, "logged by a wasm plugin");
  } else if (pb_name_equals(name, name_length, "spin")) {
    for (;;) sink += 1;
  } else if (pb_name_equals(name, name_length, "bumpThenSpin")) {
    self->count += 1;
    for (;;) sink += 1;
  } else if (pb_name_equals(name, name_length, "grow")) {
    for (;;) {
      char *block = malloc(1 << 20);
      if (!block) abort();
      block[0] = 1;
      kept = block;
    }
  } else if (pb_name_equals(name, name_length, "readFar")) {
    volatile const uint8_t *far = (const uint8_t *)(uintptr_t)0xFFFFFFF0u;
    sink = *far;
  } else if (pb_name_equals(name, name_length, "floodTimers")) {
    static const uint8_t bump[] = {'c', 4, 0, 'b', 'u', 'm', 'p', 0, 0, 0, 0};
    for (;;) patchbay_send_after(86400000u, bump, sizeof bump);
  } else if (pb_name_equals(name, name_length, "badPointer")) {
    self->host->send(self->host, (const uint8_t *)(uintptr_t)16, 0x7FFFFFFF);
  } else {
    pb_sdk_report(self->host, HOSTILE_ID ": unknown action");
    return PB_ERR_DECODE;
  }
  return PB_OK;
}

static pb_status hostile_snapshot(void *instance, const pb_writer *out) {
  hostile *self = instance;
  return pb_write_record(out, 1) || pb_write_name(out, "count") || pb_write_int(out, self->count)
             ? PB_ERR_FAILED
             : PB_OK;
}

static pb_status hostile_render(void *instance, const pb_writer *out) {
  (void)instance;
  return pb_sdk_write_all(out, "hostile", 7) ? PB_ERR_FAILED : PB_OK;
}

static pb_status hostile_parse_action(const pb_feature_desc *feature, const pb_host *host,
                                      const char *text, size_t length, const pb_writer *out) {
  return pb_sdk_parse_action(HOSTILE_ID, host, text, length, out, NULL, "Send bump.");
}

static pb_status hostile_format_action(const pb_feature_desc *feature, const pb_host *host,
                                       const uint8_t *action, size_t length,
                                       const pb_writer *out) {
  return pb_sdk_format_action(HOSTILE_ID, host, action, length, out, NULL);
}

static void hostile_cancel_effects(void *instance) { (void)instance; }

PB_SDK_ACTIONS(actions, PB_SDK_ACTION0("bump", "count + 1"),
               PB_SDK_ACTION0("talk", "prints a line and logs one"), PB_SDK_ACTION0("spin", "never ends"),
               PB_SDK_ACTION0("bumpThenSpin", "count + 1, then never ends"),
               PB_SDK_ACTION0("grow", "memory without end"),
               PB_SDK_ACTION0("readFar", "past its memory"),
               PB_SDK_ACTION0("badPointer", "a bad pointer to the host"),
               PB_SDK_ACTION0("floodTimers", "timers without end"));

static const pb_feature_vtable vtable = PB_SDK_VTABLE(hostile);

#ifdef HOSTILE_SOUNDS
/* sounding.c's build: a processor that writes silence, which a wasm plugin may not have. */
static void hostile_process(void *processor, const pb_process *process) {
  (void)processor;
  (void)process;
}
static const pb_processor_desc processor = {
    .struct_size = sizeof(pb_processor_desc),
    .process = hostile_process,
};
#define HOSTILE_PROCESSOR (&processor)
#else
#define HOSTILE_PROCESSOR NULL
#endif

static const pb_feature_desc feature = {
    .struct_size = sizeof(pb_feature_desc),
    .id = HOSTILE_ID,
    .name = "Hostile",
    .summary = "Misbehaves on request.",
    .state_schema_version = 1,
    .action_count = PB_SDK_COUNT(actions),
    .actions = actions,
    .vtable = &vtable,
    .processor = HOSTILE_PROCESSOR,
};

PB_SDK_PLUGIN("dev.patchbay.hostile-plugin", "Hostile", "1.0.0", &feature)
