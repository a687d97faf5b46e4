/* The fixture's "huge" mode: dev.patchbay.fixture-huge, a feature whose state and view grow as
 * told, for the host's [limits] and for diffs of large states.
 *
 *   grow(bytes: N)   the state's `blob` (and the view) become N bytes of 'x'
 *   touch            the state's `count` goes up by one; the blob stays
 *
 * A swap or a restart restores both fields. It says which fields each action changed
 * (`changed_fields`, ABI 2.7), so `--print-changes` costs the change, not the blob. Mode
 * "hugesnapshots" is the same feature without `changed_fields`: its changes are diffed from
 * two whole snapshots, as a Swift plugin's are.
 *
 * State: {count: int, blob: string}. */
#include <patchbay.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"

typedef struct huge {
  const pb_host *host;
  int64_t count;
  char *blob;
  size_t length;
  /* What the last reduce changed: HUGE_COUNT, HUGE_BLOB. */
  unsigned changed;
} huge;

enum { HUGE_COUNT = 1, HUGE_BLOB = 2 };

/* A restored state is the snapshot's {count, blob}, in that order: a swap or a restart keeps
 * both. */
static void *huge_create(const pb_feature_desc *feature, const pb_host *host,
                         const uint8_t *state, size_t length) {
  (void)feature;
  huge *self = calloc(1, sizeof *self);
  if (!self) {
    host->error(host, "dev.patchbay.fixture-huge: out of memory");
    return NULL;
  }
  self->host = host;
  if (!state || !length) return self;
  pb_reader in = {state, length, 0, NULL};
  uint32_t fields;
  const char *name, *blob;
  size_t name_length, blob_length;
  if (pb_read_record(&in, &fields) || fields != 2 || pb_read_name(&in, &name, &name_length) ||
      pb_read_int(&in, &self->count) || pb_read_name(&in, &name, &name_length) ||
      pb_read_string(&in, &blob, &blob_length) || !(self->blob = malloc(blob_length + 1))) {
    host->error(host, "dev.patchbay.fixture-huge: the state to restore is not {count, blob}");
    free(self);
    return NULL;
  }
  memcpy(self->blob, blob, blob_length);
  self->blob[blob_length] = 0;
  self->length = blob_length;
  return self;
}

static void huge_destroy(void *instance) {
  huge *self = instance;
  free(self->blob);
  free(self);
}

static pb_status huge_reduce(void *instance, const uint8_t *action, size_t length) {
  huge *self = instance;
  pb_reader in = {action, length, 0, NULL};
  const char *name, *label;
  size_t name_length, label_length;
  uint32_t fields;
  int64_t bytes;
  self->changed = 0;
  if (pb_read_case(&in, &name, &name_length, &fields)) return PB_ERR_DECODE;
  if (pb_name_equals(name, name_length, "touch")) {
    self->count += 1;
    self->changed = HUGE_COUNT;
    return PB_OK;
  }
  if (!pb_name_equals(name, name_length, "grow") || fields != 1 ||
      pb_read_name(&in, &label, &label_length) || pb_read_int(&in, &bytes) || bytes < 0 ||
      bytes > (1 << 30)) {
    self->host->error(self->host, "dev.patchbay.fixture-huge: send grow(bytes: N) or touch");
    return PB_ERR_DECODE;
  }
  char *blob = malloc((size_t)bytes + 1);
  if (!blob) return PB_ERR_FAILED;
  memset(blob, 'x', (size_t)bytes);
  free(self->blob);
  self->blob = blob;
  self->length = (size_t)bytes;
  self->changed = HUGE_BLOB;
  return PB_OK;
}

static pb_status huge_snapshot(void *instance, const pb_writer *out) {
  huge *self = instance;
  return pb_write_record(out, 2) || pb_write_name(out, "count") ||
                 pb_write_int(out, self->count) || pb_write_name(out, "blob") ||
                 pb_write_string(out, self->blob ? self->blob : "", self->length)
             ? PB_ERR_FAILED
             : PB_OK;
}

/* The fields the last reduce changed: {count: 2} after a touch, {blob: "xx…"} after a grow. */
static pb_status huge_changed_fields(void *instance, const pb_writer *out) {
  huge *self = instance;
  int count = !!(self->changed & HUGE_COUNT), blob = !!(self->changed & HUGE_BLOB);
  if (pb_write_record(out, (uint32_t)(count + blob))) return PB_ERR_FAILED;
  if (count && (pb_write_name(out, "count") || pb_write_int(out, self->count)))
    return PB_ERR_FAILED;
  if (blob && (pb_write_name(out, "blob") ||
               pb_write_string(out, self->blob ? self->blob : "", self->length)))
    return PB_ERR_FAILED;
  return PB_OK;
}

static pb_status huge_render(void *instance, const pb_writer *out) {
  huge *self = instance;
  if (!self->length) return PB_OK;
  return out->write(out->context, self->blob, self->length) == self->length ? PB_OK
                                                                            : PB_ERR_FAILED;
}

static pb_status huge_parse(const pb_feature_desc *feature, const pb_host *host,
                            const char *text, size_t length, const pb_writer *out) {
  (void)feature;
  if (pb_parse_action_text(text, length, out, NULL, NULL)) {
    host->error(host, "dev.patchbay.fixture-huge: send grow(bytes: N) or touch");
    return PB_ERR_DECODE;
  }
  return PB_OK;
}

static pb_status huge_format(const pb_feature_desc *feature, const pb_host *host,
                             const uint8_t *action, size_t length, const pb_writer *out) {
  (void)feature, (void)host;
  return pb_format_value_text(action, length, out) ? PB_ERR_DECODE : PB_OK;
}

static void huge_cancel(void *instance) { (void)instance; }

/* The feature, with or without `changed_fields` (mode "hugesnapshots"). */
#define HUGE_VTABLE(changed)                                                                       \
  {                                                                                                \
    .struct_size = sizeof(pb_feature_vtable), .create = huge_create, .destroy = huge_destroy,      \
    .reduce = huge_reduce, .snapshot = huge_snapshot, .render = huge_render,                       \
    .parse_action = huge_parse, .format_action = huge_format, .cancel_effects = huge_cancel,       \
    .changed_fields = (changed),                                                                   \
  }
#define HUGE_FEATURE(vtable)                                                                       \
  {                                                                                                \
    sizeof(pb_feature_desc), "dev.patchbay.fixture-huge", "Huge",                                  \
        "State and view as large as it is told", 1, 0, NULL, (vtable), NULL                        \
  }

static const pb_feature_vtable huge_vtable = HUGE_VTABLE(huge_changed_fields);
static const pb_feature_desc huge_feature = HUGE_FEATURE(&huge_vtable);
const pb_feature_desc *const huge_features[1] = {&huge_feature};

static const pb_feature_vtable huge_snapshots_vtable = HUGE_VTABLE(NULL);
static const pb_feature_desc huge_snapshots_feature = HUGE_FEATURE(&huge_snapshots_vtable);
const pb_feature_desc *const huge_snapshots_features[1] = {&huge_snapshots_feature};
