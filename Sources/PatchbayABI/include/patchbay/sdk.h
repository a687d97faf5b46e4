/*
 * patchbay/sdk.h — optional helpers for plugins written in C: the glue every C feature writes
 * the same way (reporting, writing, parsing and formatting actions) and the descriptor tail
 * (actions, vtable, plugin, entry point) as macros. Header-only; include it after patchbay.h.
 * Nothing here is part of the ABI: a plugin may write all of it by hand (Plugins/Theory does).
 *
 *   #include <patchbay.h>
 *   #include <patchbay/sdk.h>
 *
 *   static int check(const uint8_t *bytes, size_t length, char *why, size_t size);  // reduce's test
 *   static pb_status echo_parse_action(const pb_feature_desc *f, const pb_host *host,
 *                                      const char *text, size_t length, const pb_writer *out) {
 *     (void)f;
 *     return pb_sdk_parse_action("dev.example.echo", host, text, length, out, check,
 *                                "Send say(text: \"…\").");
 *   }
 *   …
 *   PB_SDK_ACTIONS(actions,
 *     PB_SDK_ACTION("say", "Remember a message", PB_SDK_FIELD("text", "string")),
 *     PB_SDK_ACTION0("clear", "Forget it"));
 *   static const pb_feature_vtable vtable = PB_SDK_VTABLE(echo);   // echo_create, echo_reduce, …
 *   static const pb_feature_desc feature = {
 *     .struct_size = sizeof(pb_feature_desc), .id = "dev.example.echo", .name = "Echo",
 *     .state_schema_version = 1, .action_count = PB_SDK_COUNT(actions), .actions = actions,
 *     .vtable = &vtable};
 *   PB_SDK_PLUGIN("dev.example.echo-plugin", "Echo", "1.0.0", &feature)
 */
#ifndef PATCHBAY_SDK_H
#define PATCHBAY_SDK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../patchbay.h"

/* Reports why the current call failed, through host->error (a NULL host is ignored). */
static inline void pb_sdk_report(const pb_host *host, const char *message) {
  if (host && host->error) host->error(host, message);
}

/* Writes all of `bytes` to `out`: 0, or -1 when the writer took less (it is full). */
static inline int pb_sdk_write_all(const pb_writer *out, const void *bytes, size_t length) {
  return out->write(out->context, bytes, length) == length ? 0 : -1;
}

/* Writes `bytes` as view text: a view is plain text, so each control character but newline
 * (below 0x20, and 0x7F) is written as its visible escape, \u{1b}, as in the text form of
 * values. 0, or -1 when the writer is full. */
static inline int pb_sdk_write_plain(const pb_writer *out, const void *bytes, size_t length) {
  const unsigned char *text = bytes;
  size_t start = 0;
  for (size_t index = 0; index < length; index++) {
    unsigned char c = text[index];
    if ((c >= 0x20 && c != 0x7F) || c == '\n') continue;
    char escape[8];
    static const char digits[] = "0123456789abcdef";
    int used = 0;
    escape[used++] = '\\';
    escape[used++] = 'u';
    escape[used++] = '{';
    if (c >= 0x10) escape[used++] = digits[c >> 4];
    escape[used++] = digits[c & 15];
    escape[used++] = '}';
    if (pb_sdk_write_all(out, text + start, index - start) ||
        pb_sdk_write_all(out, escape, (size_t)used))
      return -1;
    start = index + 1;
  }
  return pb_sdk_write_all(out, text + start, length - start);
}

/* A growing buffer behind a pb_writer: an action's bytes before they go to the host. Free
 * `bytes` when done. */
typedef struct pb_sdk_buffer {
  uint8_t *bytes;
  size_t length, capacity;
} pb_sdk_buffer;

static inline size_t pb_sdk_buffer_write(void *context, const void *bytes, size_t length) {
  pb_sdk_buffer *buffer = context;
  if (buffer->capacity - buffer->length < length) {
    size_t capacity = buffer->capacity ? buffer->capacity : 256;
    while (capacity - buffer->length < length) capacity *= 2;
    uint8_t *grown = realloc(buffer->bytes, capacity);
    if (!grown) return 0; /* a short write: the writer is full */
    buffer->bytes = grown;
    buffer->capacity = capacity;
  }
  memcpy(buffer->bytes + buffer->length, bytes, length);
  buffer->length += length;
  return length;
}

/* Is `bytes` an action this feature takes? 0, or -1 with the reason in `why` (one line:
 * what is wrong and what to do). The test `reduce` makes, so parse and format refuse what
 * reduce would. */
typedef int (*pb_sdk_check)(const uint8_t *bytes, size_t length, char *why, size_t size);

/* [thread-safe] `parse_action` the SDK's way: the text grammar (pb_parse_action_text), then
 * `check`, then the bytes to `out`. Errors go through host->error, named by `feature_id`,
 * with `hint` (what to send instead; may be NULL) after a grammar error. */
static inline pb_status pb_sdk_parse_action(const char *feature_id, const pb_host *host,
                                            const char *text, size_t length,
                                            const pb_writer *out, pb_sdk_check check,
                                            const char *hint) {
  pb_sdk_buffer parsed = {0};
  pb_writer into = {sizeof(pb_writer), &parsed, pb_sdk_buffer_write};
  const char *error = NULL;
  size_t offset = 0;
  char why[256];
  pb_status status = PB_OK;
  if (pb_parse_action_text(text, length, &into, &error, &offset)) {
    snprintf(why, sizeof why, "%s: cannot parse '%.*s': column %zu: %s.%s%s", feature_id,
             (int)(length > 64 ? 64 : length), text, offset + 1, error ? error : "out of memory",
             hint ? " " : "", hint ? hint : "");
    status = PB_ERR_DECODE;
  } else if (check && check(parsed.bytes, parsed.length, why, sizeof why)) {
    status = PB_ERR_DECODE;
  } else if (pb_sdk_write_all(out, parsed.bytes, parsed.length)) {
    snprintf(why, sizeof why, "%s: the host's writer is full", feature_id);
    status = PB_ERR_FAILED;
  }
  if (status != PB_OK) pb_sdk_report(host, why);
  free(parsed.bytes);
  return status;
}

/* [thread-safe] `format_action` the SDK's way: `check`, then the value's text form. */
static inline pb_status pb_sdk_format_action(const char *feature_id, const pb_host *host,
                                             const uint8_t *bytes, size_t length,
                                             const pb_writer *out, pb_sdk_check check) {
  char why[256];
  if (check && check(bytes, length, why, sizeof why)) {
    pb_sdk_report(host, why);
    return PB_ERR_DECODE;
  }
  if (pb_format_value_text(bytes, length, out)) {
    snprintf(why, sizeof why, "%s: cannot format the action: its bytes are not a value",
             feature_id);
    pb_sdk_report(host, why);
    return PB_ERR_DECODE;
  }
  return PB_OK;
}

/* State read by field name, as the Swift SDK reads a state written by another build of it
 * (docs/SWAP.md, "State across a swap"): fields in any order; a field the record lacks keeps
 * the start value its target holds; a field the record has and `fields` lacks is skipped (the
 * edit removed it); an int is read into a double field. A field of another kind is refused,
 * naming it and both kinds. */
typedef enum pb_sdk_kind {
  PB_SDK_INT,    /* target: int64_t */
  PB_SDK_DOUBLE, /* target: double */
  PB_SDK_BOOL,   /* target: int (0 or 1) */
  PB_SDK_STRING, /* target: pb_sdk_string, borrowed from the bytes: copy it before they go */
} pb_sdk_kind;

typedef struct pb_sdk_string {
  const char *utf8;
  size_t length;
} pb_sdk_string;

typedef struct pb_sdk_state_field {
  const char *name;
  pb_sdk_kind kind;
  void *target;
} pb_sdk_state_field;

/* "an int" for PB_VALUE_INT, and so on: what a value of `tag` is, for messages. */
static inline const char *pb_sdk_tag_name(uint8_t tag) {
  switch (tag) {
  case PB_VALUE_NIL: return "nil";
  case PB_VALUE_BOOL: return "a bool";
  case PB_VALUE_INT: return "an int";
  case PB_VALUE_DOUBLE: return "a double";
  case PB_VALUE_STRING: return "a string";
  case PB_VALUE_LIST: return "a list";
  case PB_VALUE_RECORD: return "a record";
  case PB_VALUE_CASE: return "a case";
  default: return "an unknown value";
  }
}

/* Reads the state record in `bytes` into the targets of `fields`, whole or not at all: 0, or
 * -1 with one line in `why` (nothing written to a target). */
static inline int pb_sdk_read_state(const uint8_t *bytes, size_t length,
                                    const pb_sdk_state_field *fields, size_t count, char *why,
                                    size_t size) {
  static const char *const kinds[] = {"an int", "a double", "a bool", "a string"};
  pb_reader in = {bytes, length, 0, NULL};
  uint32_t record;
  /* Two passes: the first checks every field, the second writes the targets. */
  for (int pass = 0; pass < 2; pass++) {
    in.offset = 0;
    if (pb_read_record(&in, &record)) goto malformed;
    for (uint32_t i = 0; i < record; i++) {
      const char *name;
      size_t name_length;
      if (pb_read_name(&in, &name, &name_length)) goto malformed;
      const pb_sdk_state_field *field = NULL;
      for (size_t f = 0; f < count && !field; f++) {
        if (pb_name_equals(name, name_length, fields[f].name)) field = &fields[f];
      }
      uint8_t tag;
      if (pb_peek_tag(&in, &tag)) goto malformed;
      if (!field) {
        if (pb_skip_value(&in)) goto malformed;
        continue;
      }
      int64_t integer;
      double real;
      int flag;
      pb_sdk_string text;
      int read = -1;
      switch (field->kind) {
      case PB_SDK_INT:
        if (tag == PB_VALUE_INT && !(read = pb_read_int(&in, &integer)) && pass)
          *(int64_t *)field->target = integer;
        break;
      case PB_SDK_DOUBLE:
        if (tag == PB_VALUE_INT && !(read = pb_read_int(&in, &integer)) && pass)
          *(double *)field->target = (double)integer;
        if (tag == PB_VALUE_DOUBLE && !(read = pb_read_double(&in, &real)) && pass)
          *(double *)field->target = real;
        break;
      case PB_SDK_BOOL:
        if (tag == PB_VALUE_BOOL && !(read = pb_read_bool(&in, &flag)) && pass)
          *(int *)field->target = flag;
        break;
      case PB_SDK_STRING:
        if (tag == PB_VALUE_STRING && !(read = pb_read_string(&in, &text.utf8, &text.length)) &&
            pass)
          *(pb_sdk_string *)field->target = text;
        break;
      }
      if (read && !in.error) {
        snprintf(why, size, "field '%s': expected %s, found %s", field->name,
                 kinds[field->kind], pb_sdk_tag_name(tag));
        return -1;
      }
      if (read) goto malformed;
    }
    if (in.offset != length) {
      in.error = "unexpected bytes after the state";
      goto malformed;
    }
  }
  return 0;
malformed:
  snprintf(why, size, "byte %zu: %s", in.offset, in.error ? in.error : "malformed");
  return -1;
}

/* The one line a restore that refuses its state gives, in `why`: "<feature_id>: cannot restore
 * state: <reason>. Pass a snapshot made by this feature." Returns -1, for `return`. */
static inline int pb_sdk_restore_refused(const char *feature_id, const char *reason, char *why,
                                         size_t size) {
  snprintf(why, size, "%s: cannot restore state: %s. Pass a snapshot made by this feature.",
           feature_id, reason);
  return -1;
}

/* The same for state that did not decode: the reason is the byte `in` stopped at and why. */
static inline int pb_sdk_restore_malformed(const char *feature_id, const pb_reader *in,
                                           char *why, size_t size) {
  char reason[192];
  snprintf(reason, sizeof reason, "byte %zu: %s", in->offset,
           in->error ? in->error : "malformed");
  return pb_sdk_restore_refused(feature_id, reason, why, size);
}

/* Descriptors. A field, an action with fields, one without, one people do not send (sent by
 * "host", "processor" or "effect"), and the list of them: */
#define PB_SDK_FIELD(name, type) (&(const pb_field_desc){sizeof(pb_field_desc), (name), (type)})
#define PB_SDK_FIELDS(...) ((const pb_field_desc *const[]){__VA_ARGS__})
#define PB_SDK_COUNT(array) ((uint32_t)(sizeof(array) / sizeof((array)[0])))
#define PB_SDK_ACTION(name, summary, ...)                                                     \
  (&(const pb_action_desc){sizeof(pb_action_desc), (name), (summary),                       \
                           PB_SDK_COUNT(PB_SDK_FIELDS(__VA_ARGS__)), PB_SDK_FIELDS(__VA_ARGS__), \
                           NULL})
#define PB_SDK_ACTION0(name, summary)                                                         \
  (&(const pb_action_desc){sizeof(pb_action_desc), (name), (summary), 0, NULL, NULL})
#define PB_SDK_ACTION_SENT_BY(sender, name, summary, ...)                                    \
  (&(const pb_action_desc){sizeof(pb_action_desc), (name), (summary),                       \
                           PB_SDK_COUNT(PB_SDK_FIELDS(__VA_ARGS__)), PB_SDK_FIELDS(__VA_ARGS__), \
                           (sender)})
#define PB_SDK_ACTIONS(variable, ...)                                                         \
  static const pb_action_desc *const variable[] = {__VA_ARGS__}

/* The required vtable from functions named `prefix`_create, _destroy, _reduce, _snapshot,
 * _render, _parse_action, _format_action, _cancel_effects. Write the struct out to add
 * `migrate` or `running_effects`. */
#define PB_SDK_VTABLE(prefix)                                                                 \
  {.struct_size = sizeof(pb_feature_vtable), .create = prefix##_create,                     \
   .destroy = prefix##_destroy, .reduce = prefix##_reduce, .snapshot = prefix##_snapshot,    \
   .render = prefix##_render, .parse_action = prefix##_parse_action,                         \
   .format_action = prefix##_format_action, .cancel_effects = prefix##_cancel_effects}

/* The plugin descriptor of `features` (pointers to pb_feature_desc) and the one exported
 * function, `patchbay_plugin_entry`: it returns the descriptor whatever the host's major is,
 * and the host compares the versions itself (patchbay/plugin.h). */
#define PB_SDK_PLUGIN(plugin_id, plugin_name, plugin_version, ...)                            \
  static const pb_feature_desc *const pb_sdk_features[] = {__VA_ARGS__};                     \
  static const pb_plugin_desc pb_sdk_plugin = {                                              \
      .magic = PATCHBAY_MAGIC,                                                               \
      .abi_major = PATCHBAY_ABI_MAJOR,                                                       \
      .abi_minor = PATCHBAY_ABI_MINOR,                                                       \
      .struct_size = sizeof(pb_plugin_desc),                                                 \
      .id = (plugin_id),                                                                     \
      .name = (plugin_name),                                                                 \
      .version = (plugin_version),                                                           \
      .feature_count = PB_SDK_COUNT(pb_sdk_features),                                        \
      .features = pb_sdk_features,                                                           \
  };                                                                                         \
  __attribute__((visibility("default"))) const pb_plugin_desc *patchbay_plugin_entry(       \
      pb_abi_version host_abi_major) {                                                       \
    (void)host_abi_major;                                                                    \
    return &pb_sdk_plugin;                                                                   \
  }

#endif /* PATCHBAY_SDK_H */
