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
 * A value nests at most 64 levels deep (the outermost value is level 0); readers refuse deeper
 * ones. Names and labels are unique within one record or case.
 *
 * The encoding describes itself, so a host can show any state as JSON and any action as text
 * without the plugin's help.
 *
 * THE TEXT FORM (what people type at `send`, and what logs and recordings show). The grammar,
 * which the Swift SDK and pb_parse_action_text / pb_format_value_text both follow exactly:
 *
 *   action  = case                                  the whole text
 *   case    = name [ "(" fields ")" ]               increment   setStep(by: 5)
 *   fields  = [ field { "," field } ]
 *   field   = [ label ":" ] value                   unlabeled fields are "_0", "_1", … by
 *                                                   position among all the fields
 *   value   = number | string | "true" | "false" | "nil" | list | record | case
 *   list    = "[" [ value { "," value } ] "]"       [1, 2.5, "three"]
 *   record  = "{" fields "}"                        {count: 1, step: 2}: labels required
 *   name, label = [A-Za-z_][A-Za-z0-9_]*            ASCII
 *
 *   - Spaces and tabs may stand between any two tokens; nothing else is blank.
 *   - A name followed by "(" is a case, even `true(…)`; alone, true, false and nil are values.
 *   - number: the longest run of the characters 0-9 + - . e E _ ; every "_" is dropped
 *     (1_000). Without ".", "e" or "E" it is an int: an optional sign and digits that fit in
 *     64 bits (a larger one is an error, not a double). Otherwise a double in C's strtod
 *     syntax (sign, digits, point, exponent: -2.5, .5, 5., 1e-3, +6.02E23), finite.
 *   - string: double quotes around UTF-8, with the escapes \" \\ \n \t \r and \u{1F600}
 *     (1 to 8 hex digits naming a Unicode scalar, surrogates excluded). Other characters,
 *     control characters included, stand for themselves.
 *
 * Written as text, an int is decimal; a double takes the fewest digits that read back to the
 * same double, plain from 1e-4 up to 2^53 with at least one decimal (2.5, 100.0, 0.0001),
 * else with an exponent of at least two digits (1e-05, 1e+16); nan, inf and -inf are written
 * so but cannot be read. A string escapes ", \, newline, tab and return as above and other
 * control characters (below 0x20, and 0x7F) as \u{1b}. A record writes every label; a case
 * leaves out the label "_N" of the field at position N.
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
int pb_write_nil(const pb_writer *out);
int pb_write_bool(const pb_writer *out, int value);
int pb_write_int(const pb_writer *out, int64_t value);
int pb_write_double(const pb_writer *out, double value);
int pb_write_string(const pb_writer *out, const char *utf8, size_t length);
/* Starts a list of `count` values; follow with the `count` values. */
int pb_write_list(const pb_writer *out, uint32_t count);
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

/* The tag of the next value (PB_VALUE_…), without reading it: for a field of several types,
 * or an optional (nil or a value). */
int pb_peek_tag(pb_reader *in, uint8_t *tag);
int pb_read_nil(pb_reader *in);
int pb_read_bool(pb_reader *in, int *value);
int pb_read_int(pb_reader *in, int64_t *value);
int pb_read_double(pb_reader *in, double *value);
/* The string is borrowed from the input bytes: not NUL-terminated, valid as long as they are. */
int pb_read_string(pb_reader *in, const char **utf8, size_t *length);
/* Reads a list header: its count; the values follow. */
int pb_read_list(pb_reader *in, uint32_t *count);
/* Reads a record header: its count; the (name, value) pairs follow. */
int pb_read_record(pb_reader *in, uint32_t *count);
/* Reads a case header: its name (borrowed) and field count. */
int pb_read_case(pb_reader *in, const char **name, size_t *name_length, uint32_t *count);
/* Reads a name or label (borrowed). */
int pb_read_name(pb_reader *in, const char **name, size_t *length);
/* Skips one value of any type. */
int pb_skip_value(pb_reader *in);
/* 1 when the borrowed name equals the NUL-terminated `expected`. */
int pb_name_equals(const char *name, size_t length, const char *expected);

/* Text (the grammar above). `pb_parse_action_text` writes the encoding of an action's text
 * form (`midi(noteOn(channel: 1, note: 60, velocity: 100))`) to `out`: 0, or -1 with a static
 * `*error` and the byte `*offset` where the text went wrong (either may be NULL), and nothing
 * written. It allocates (and frees) while it parses. `pb_format_value_text` writes any encoded
 * value as text: 0, or -1 for malformed bytes or a full `out`. They are what the Swift SDK does
 * for its features, for plugins written in C: a C feature's parse_action and format_action
 * can be these two calls (see Plugins/Echo). [thread-safe] */
int pb_parse_action_text(const char *text, size_t length, const pb_writer *out,
                         const char **error, size_t *offset);
int pb_format_value_text(const uint8_t *bytes, size_t length, const pb_writer *out);

#ifdef __cplusplus
}
#endif

#endif /* PATCHBAY_VALUE_H */
