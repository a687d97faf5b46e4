/*
 * patchbay/value.h — the value encoding of actions and state, and helpers to write it from C.
 *
 * Part of the Patchbay plugin ABI. Include <patchbay.h>, not this file.
 *
 * A value is one tag byte followed by its payload. Integers are little-endian.
 *
 *   'n'  nil        no payload
 *   'b'  bool       1 byte, 0 or 1
 *   'i'  int        8 bytes, two's complement
 *   'f'  double     8 bytes, IEEE 754 binary64
 *   's'  string     u32 byte length, then UTF-8 bytes (not NUL-terminated)
 *   'l'  list       u32 count, then that many values
 *   'r'  record     u32 count, then that many (name, value) pairs
 *   'c'  case       name, u32 count, then that many (label, value) pairs
 *
 * A name or label is a u16 byte length then UTF-8 bytes. An action is a case:
 * `setStep(by: 5)` is  'c' 07 00 "setStep" 01 00 00 00  02 00 "by" 'i' 05 00 00 00 00 00 00 00.
 * Unlabeled fields are labeled "_0", "_1", …. A state is any value, usually a record.
 *
 * The encoding describes itself, so a host can show any state as JSON and any action as text
 * without the plugin's help; the text form is: name, or name(label: value, …), with strings in
 * double quotes (\" \\ \n \t \u{XXXX} escapes), `true`/`false`, `nil`, numbers as written.
 */
#ifndef PATCHBAY_VALUE_H
#define PATCHBAY_VALUE_H

#include "core.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PB_VALUE_NIL 'n'
#define PB_VALUE_BOOL 'b'
#define PB_VALUE_INT 'i'
#define PB_VALUE_DOUBLE 'f'
#define PB_VALUE_STRING 's'
#define PB_VALUE_LIST 'l'
#define PB_VALUE_RECORD 'r'
#define PB_VALUE_CASE 'c'

/* Writing. Each returns 0 on success, -1 when the writer is full. */
int pb_write_bool(const pb_writer *out, int value);
int pb_write_int(const pb_writer *out, int64_t value);
int pb_write_double(const pb_writer *out, double value);
int pb_write_string(const pb_writer *out, const char *utf8, size_t length);
/* Starts a record of `count` fields; follow with `count` pb_write_name + value pairs. */
int pb_write_record(const pb_writer *out, uint32_t count);
/* Starts a case `name` with `count` fields; follow with `count` pb_write_name + value pairs. */
int pb_write_case(const pb_writer *out, const char *name, uint32_t count);
int pb_write_name(const pb_writer *out, const char *name);

/* Reading: a cursor over borrowed bytes. Each returns 0 on success, -1 on malformed or
 * unexpected input (the cursor's `error` then says where and what). */
typedef struct pb_reader {
  const uint8_t *bytes;
  size_t length;
  size_t offset;
  const char *error; /* Static string; NULL while all is well. */
} pb_reader;

int pb_read_bool(pb_reader *in, int *value);
int pb_read_int(pb_reader *in, int64_t *value);
/* The string is borrowed from the input bytes: not NUL-terminated, valid as long as they are. */
int pb_read_string(pb_reader *in, const char **utf8, size_t *length);
int pb_read_record(pb_reader *in, uint32_t *count);
/* Reads a case header: its name (borrowed) and field count. */
int pb_read_case(pb_reader *in, const char **name, size_t *name_length, uint32_t *count);
/* Reads a name or label (borrowed). */
int pb_read_name(pb_reader *in, const char **name, size_t *length);
/* Skips one value of any type. */
int pb_skip_value(pb_reader *in);
/* 1 when the borrowed name equals the NUL-terminated `expected`. */
int pb_name_equals(const char *name, size_t length, const char *expected);

/* Text. `pb_parse_action_text` writes the encoding of an action's text form
 * (`midi(noteOn(channel: 1, note: 60, velocity: 100))`; see above) to `out`. It returns 0, or
 * -1 with a static `*error` and the byte `*offset` where the text went wrong (either may be
 * NULL). `pb_format_value_text` writes any encoded value as text; 0 or -1 (malformed bytes, or
 * `out` full). Both are what the Swift SDK does for its features, for plugins written in C. */
int pb_parse_action_text(const char *text, size_t length, const pb_writer *out,
                         const char **error, size_t *offset);
int pb_format_value_text(const uint8_t *bytes, size_t length, const pb_writer *out);

#ifdef __cplusplus
}
#endif

#endif /* PATCHBAY_VALUE_H */
