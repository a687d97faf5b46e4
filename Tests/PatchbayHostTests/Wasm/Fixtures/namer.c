/*
 * namer.c — a WebAssembly feature that calls another plugin's functions: Theory's note_name and
 * note_frequency, resolved through "patchbay.functions/1" on first use, as a native plugin
 * resolves them. State: {last: string}, the last answer.
 *
 *   name(note: int)        last = note_name(note), e.g. "C4"
 *   pitch(note: int)       last = note_frequency(note, 440.0), printed with %.3f
 *   nullChord              Theory's chord_name with a NULL buffer of 3 notes: the host reads
 *                          the module's bytes at address 0, and hands native code no NULL
 *   missing                resolves a function Theory does not export: refused, named
 *   badResolve             hands the host's resolve a pointer past its memory: a trap, named
 */
#include <patchbay.h>
#include <patchbay/sdk.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAMER_ID "dev.patchbay.namer"
#define THEORY "dev.patchbay.theory-plugin"

__attribute__((import_module("patchbay"), import_name("resolve"))) uint32_t patchbay_resolve(
    const char *provider, uint32_t provider_length, const char *name, uint32_t name_length,
    const char *signature, uint32_t signature_length);

typedef int32_t (*note_name_fn)(int32_t note, char *out, size_t capacity);
typedef double (*note_frequency_fn)(int32_t note, double a4);
typedef int32_t (*chord_name_fn)(const uint8_t *notes, size_t count, char *out, size_t capacity);

typedef struct namer {
  const pb_host *host;
  char last[64];
  note_name_fn note_name;
  note_frequency_fn note_frequency;
} namer;

static void *namer_create(const pb_feature_desc *feature, const pb_host *host,
                          const uint8_t *state, size_t length) {
  namer *self = calloc(1, sizeof *self);
  if (!self) return NULL;
  self->host = host;
  if (state) {
    pb_sdk_string last = {"", 0};
    const pb_sdk_state_field fields[] = {{"last", PB_SDK_STRING, &last}};
    char why[192];
    if (pb_sdk_read_state(state, length, fields, 1, why, sizeof why)) {
      pb_sdk_report(host, why);
      free(self);
      return NULL;
    }
    snprintf(self->last, sizeof self->last, "%.*s", (int)last.length, last.utf8);
  }
  return self;
}

static void namer_destroy(void *instance) { free(instance); }

static void (*resolve(namer *self, const char *name, const char *signature))(void) {
  const pb_functions_service *functions =
      self->host->get_service(self->host, PB_SERVICE_FUNCTIONS);
  return functions ? functions->resolve(self->host, THEORY, name, signature) : NULL;
}

static pb_status namer_reduce(void *instance, const uint8_t *action, size_t length) {
  namer *self = instance;
  pb_reader in = {action, length, 0, NULL};
  const char *name, *label;
  size_t name_length, label_length;
  uint32_t fields;
  int64_t note = 0;
  if (pb_read_case(&in, &name, &name_length, &fields)) return PB_ERR_DECODE;
  if (fields == 1 && (pb_read_name(&in, &label, &label_length) || pb_read_int(&in, &note)))
    return PB_ERR_DECODE;
  if (pb_name_equals(name, name_length, "name")) {
    if (!self->note_name)
      self->note_name = (note_name_fn)resolve(self, "note_name", "int32(int32, out_string)");
    if (!self->note_name) return PB_ERR_FAILED; /* the host said why */
    self->note_name((int32_t)note, self->last, sizeof self->last);
  } else if (pb_name_equals(name, name_length, "pitch")) {
    if (!self->note_frequency)
      self->note_frequency =
          (note_frequency_fn)resolve(self, "note_frequency", "double(int32, double)");
    if (!self->note_frequency) return PB_ERR_FAILED;
    snprintf(self->last, sizeof self->last, "%.3f", self->note_frequency((int32_t)note, 440.0));
  } else if (pb_name_equals(name, name_length, "nullChord")) {
    chord_name_fn chord_name = (chord_name_fn)resolve(self, "chord_name", "int32(buffer, out_string)");
    if (!chord_name) return PB_ERR_FAILED;
    chord_name(NULL, 3, self->last, sizeof self->last);
  } else if (pb_name_equals(name, name_length, "missing")) {
    if (!resolve(self, "no_such_function", "int32()")) return PB_ERR_FAILED;
  } else if (pb_name_equals(name, name_length, "badResolve")) {
    patchbay_resolve((const char *)(uintptr_t)0xFFFFFF00u, 0x1000, "x", 1, "int32()", 7);
  } else {
    pb_sdk_report(self->host, NAMER_ID ": unknown action");
    return PB_ERR_DECODE;
  }
  return PB_OK;
}

static pb_status namer_snapshot(void *instance, const pb_writer *out) {
  namer *self = instance;
  return pb_write_record(out, 1) || pb_write_name(out, "last") ||
                 pb_write_string(out, self->last, strlen(self->last))
             ? PB_ERR_FAILED
             : PB_OK;
}

static pb_status namer_render(void *instance, const pb_writer *out) {
  namer *self = instance;
  return pb_sdk_write_all(out, self->last, strlen(self->last)) ? PB_ERR_FAILED : PB_OK;
}

static pb_status namer_parse_action(const pb_feature_desc *feature, const pb_host *host,
                                    const char *text, size_t length, const pb_writer *out) {
  return pb_sdk_parse_action(NAMER_ID, host, text, length, out, NULL, "Send name(note: 60).");
}

static pb_status namer_format_action(const pb_feature_desc *feature, const pb_host *host,
                                     const uint8_t *action, size_t length, const pb_writer *out) {
  return pb_sdk_format_action(NAMER_ID, host, action, length, out, NULL);
}

static void namer_cancel_effects(void *instance) { (void)instance; }

PB_SDK_ACTIONS(actions, PB_SDK_ACTION("name", "Theory's name of a note", PB_SDK_FIELD("note", "int")),
               PB_SDK_ACTION("pitch", "Theory's frequency of a note", PB_SDK_FIELD("note", "int")),
               PB_SDK_ACTION0("nullChord", "chord_name of a NULL buffer"),
               PB_SDK_ACTION0("missing", "resolves what Theory does not export"),
               PB_SDK_ACTION0("badResolve", "a bad pointer to the host's resolve"));

static const pb_feature_vtable vtable = PB_SDK_VTABLE(namer);

static const pb_feature_desc feature = {
    .struct_size = sizeof(pb_feature_desc),
    .id = NAMER_ID,
    .name = "Namer",
    .summary = "Names notes through Theory.",
    .state_schema_version = 1,
    .action_count = PB_SDK_COUNT(actions),
    .actions = actions,
    .vtable = &vtable,
};

PB_SDK_PLUGIN("dev.patchbay.namer-plugin", "Namer", "1.0.0", &feature)
