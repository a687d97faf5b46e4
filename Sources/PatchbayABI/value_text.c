/* The text form of values (patchbay/value.h): parse an action's text into its encoding, and
 * write any encoded value as text. What the Swift SDK does for Swift features, for C ones. */
#include "patchbay.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A growable byte buffer: counts are patched in after a list, record or case is parsed. */
typedef struct buffer {
  uint8_t *bytes;
  size_t length, capacity;
} buffer;

static int grow(buffer *b, size_t more) {
  if (b->length + more <= b->capacity) return 0;
  size_t capacity = b->capacity ? b->capacity * 2 : 64;
  while (capacity < b->length + more) capacity *= 2;
  uint8_t *bytes = realloc(b->bytes, capacity);
  if (!bytes) return -1;
  b->bytes = bytes;
  b->capacity = capacity;
  return 0;
}

static int append(buffer *b, const void *bytes, size_t length) {
  if (grow(b, length)) return -1;
  memcpy(b->bytes + b->length, bytes, length);
  b->length += length;
  return 0;
}

static int append_uint(buffer *b, uint64_t value, int size) {
  uint8_t bytes[8];
  for (int i = 0; i < size; i++) bytes[i] = (uint8_t)(value >> (8 * i));
  return append(b, bytes, (size_t)size);
}

static void patch_u32(buffer *b, size_t at, uint32_t value) {
  for (int i = 0; i < 4; i++) b->bytes[at + (size_t)i] = (uint8_t)(value >> (8 * i));
}

typedef struct parser {
  const char *text;
  size_t length, at;
  const char *error;
  buffer out;
} parser;

static void skip_spaces(parser *p) {
  while (p->at < p->length && isspace((unsigned char)p->text[p->at])) p->at++;
}

static int fail(parser *p, const char *error) {
  if (!p->error) p->error = error;
  return -1;
}

static int is_name_start(char c) { return isalpha((unsigned char)c) || c == '_'; }
static int is_name_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* A name or label: u16 length, bytes. */
static int parse_name(parser *p, const char **name, size_t *length) {
  if (p->at >= p->length || !is_name_start(p->text[p->at])) return fail(p, "expected a name");
  size_t start = p->at;
  while (p->at < p->length && is_name_char(p->text[p->at])) p->at++;
  *name = p->text + start;
  *length = p->at - start;
  return 0;
}

static int append_name(buffer *b, const char *name, size_t length) {
  return length > UINT16_MAX || append_uint(b, length, 2) || append(b, name, length) ? -1 : 0;
}

static int parse_value(parser *p, int depth);

/* `(label: value, value, …)` after a case name, or `{label: value, …}`: labels are required
 * in a record; unlabeled fields of a case are `_0`, `_1`, …. */
static int parse_fields(parser *p, char close, int labels_required, int depth, uint32_t *count) {
  *count = 0;
  skip_spaces(p);
  if (p->at < p->length && p->text[p->at] == close) {
    p->at++;
    return 0;
  }
  for (;;) {
    skip_spaces(p);
    size_t mark = p->at;
    const char *label = NULL;
    size_t label_length = 0;
    if (p->at < p->length && is_name_start(p->text[p->at])) {
      parse_name(p, &label, &label_length);
      skip_spaces(p);
      if (p->at < p->length && p->text[p->at] == ':') {
        p->at++;
      } else {
        p->at = mark; /* a value that starts like a name: a case, true, false, nil */
        label = NULL;
      }
    }
    if (!label) {
      if (labels_required) return fail(p, "expected 'label: value' in a record");
      char positional[16];
      int n = snprintf(positional, sizeof positional, "_%u", *count);
      if (append_name(&p->out, positional, (size_t)n)) return fail(p, "out of memory");
    } else if (append_name(&p->out, label, label_length)) {
      return fail(p, "out of memory");
    }
    skip_spaces(p);
    if (parse_value(p, depth + 1)) return -1;
    (*count)++;
    skip_spaces(p);
    if (p->at < p->length && p->text[p->at] == ',') {
      p->at++;
      continue;
    }
    if (p->at < p->length && p->text[p->at] == close) {
      p->at++;
      return 0;
    }
    return fail(p, close == ')' ? "expected ',' or ')'" : "expected ',' or '}'");
  }
}

static int parse_case(parser *p, int depth) {
  const char *name;
  size_t length;
  if (parse_name(p, &name, &length)) return -1;
  if (append_uint(&p->out, PB_VALUE_CASE, 1) || append_name(&p->out, name, length))
    return fail(p, "out of memory");
  size_t count_at = p->out.length;
  if (append_uint(&p->out, 0, 4)) return fail(p, "out of memory");
  uint32_t count = 0;
  if (p->at < p->length && p->text[p->at] == '(') {
    p->at++;
    if (parse_fields(p, ')', 0, depth, &count)) return -1;
  }
  patch_u32(&p->out, count_at, count);
  return 0;
}

static int parse_string(parser *p) {
  p->at++; /* the opening quote */
  buffer text = {0};
  int status = -1;
  while (p->at < p->length && p->text[p->at] != '"') {
    char c = p->text[p->at++];
    if (c == '\\') {
      if (p->at >= p->length) break;
      char e = p->text[p->at++];
      if (e == 'u' && p->at < p->length && p->text[p->at] == '{') {
        char *end;
        unsigned long code = strtoul(p->text + p->at + 1, &end, 16);
        if (*end != '}' || code > 0x10FFFF) {
          fail(p, "bad \\u{…} escape in a string");
          goto done;
        }
        p->at = (size_t)(end - p->text) + 1;
        uint8_t utf8[4];
        size_t n = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
        if (n == 1) utf8[0] = (uint8_t)code;
        else {
          for (size_t i = n - 1; i > 0; i--) utf8[i] = 0x80 | (code & 0x3F), code >>= 6;
          utf8[0] = (uint8_t)((n == 2 ? 0xC0 : n == 3 ? 0xE0 : 0xF0) | code);
        }
        if (append(&text, utf8, n)) goto done;
        continue;
      }
      c = e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e == '"' || e == '\\' ? e : 0;
      if (!c) {
        fail(p, "unknown escape in a string");
        goto done;
      }
    }
    if (append(&text, &c, 1)) goto done;
  }
  if (p->at >= p->length) {
    fail(p, "a string is not closed with '\"'");
    goto done;
  }
  p->at++;
  status = append_uint(&p->out, PB_VALUE_STRING, 1) || append_uint(&p->out, text.length, 4) ||
                   append(&p->out, text.bytes, text.length)
               ? fail(p, "out of memory")
               : 0;
done:
  free(text.bytes);
  return status;
}

static int parse_number(parser *p) {
  const char *start = p->text + p->at;
  char scratch[64];
  size_t n = 0;
  while (p->at < p->length && n < sizeof scratch - 1 &&
         (isdigit((unsigned char)p->text[p->at]) || strchr("+-.eE", p->text[p->at]))) {
    scratch[n++] = p->text[p->at++];
  }
  scratch[n] = 0;
  char *end;
  if (!memchr(scratch, '.', n) && !memchr(scratch, 'e', n) && !memchr(scratch, 'E', n)) {
    long long value = strtoll(scratch, &end, 10);
    if (end == scratch || *end) return fail(p, "expected a number");
    (void)start;
    return append_uint(&p->out, PB_VALUE_INT, 1) || append_uint(&p->out, (uint64_t)value, 8)
               ? fail(p, "out of memory")
               : 0;
  }
  double value = strtod(scratch, &end);
  if (end == scratch || *end) return fail(p, "expected a number");
  uint64_t bits;
  memcpy(&bits, &value, sizeof bits);
  return append_uint(&p->out, PB_VALUE_DOUBLE, 1) || append_uint(&p->out, bits, 8)
             ? fail(p, "out of memory")
             : 0;
}

static int word_is(parser *p, const char *word) {
  size_t n = strlen(word);
  return p->length - p->at >= n && !memcmp(p->text + p->at, word, n) &&
         (p->at + n == p->length || !is_name_char(p->text[p->at + n]));
}

static int parse_value(parser *p, int depth) {
  if (depth > 64) return fail(p, "values nest deeper than 64");
  skip_spaces(p);
  if (p->at >= p->length) return fail(p, "expected a value");
  char c = p->text[p->at];
  if (c == '"') return parse_string(p);
  if (isdigit((unsigned char)c) || c == '-' || c == '+') return parse_number(p);
  if (c == '[' || c == '{') {
    p->at++;
    if (append_uint(&p->out, c == '[' ? PB_VALUE_LIST : PB_VALUE_RECORD, 1))
      return fail(p, "out of memory");
    size_t count_at = p->out.length;
    if (append_uint(&p->out, 0, 4)) return fail(p, "out of memory");
    uint32_t count = 0;
    if (c == '{') {
      if (parse_fields(p, '}', 1, depth, &count)) return -1;
    } else {
      skip_spaces(p);
      if (p->at < p->length && p->text[p->at] == ']') {
        p->at++;
      } else {
        for (;;) {
          if (parse_value(p, depth + 1)) return -1;
          count++;
          skip_spaces(p);
          if (p->at < p->length && p->text[p->at] == ',') {
            p->at++;
            continue;
          }
          if (p->at < p->length && p->text[p->at] == ']') {
            p->at++;
            break;
          }
          return fail(p, "expected ',' or ']'");
        }
      }
    }
    patch_u32(&p->out, count_at, count);
    return 0;
  }
  if (word_is(p, "true") || word_is(p, "false")) {
    int value = p->text[p->at] == 't';
    p->at += value ? 4 : 5;
    return append_uint(&p->out, PB_VALUE_BOOL, 1) || append_uint(&p->out, (uint64_t)value, 1)
               ? fail(p, "out of memory")
               : 0;
  }
  if (word_is(p, "nil")) {
    p->at += 3;
    return append_uint(&p->out, PB_VALUE_NIL, 1) ? fail(p, "out of memory") : 0;
  }
  if (is_name_start(c)) return parse_case(p, depth);
  return fail(p, "expected a value");
}

int pb_parse_action_text(const char *text, size_t length, const pb_writer *out,
                         const char **error, size_t *offset) {
  parser p = {text, length, 0, NULL, {0}};
  skip_spaces(&p);
  int status = p.at < p.length ? parse_case(&p, 0) : fail(&p, "expected an action name");
  if (!status) {
    skip_spaces(&p);
    if (p.at < p.length) status = fail(&p, "unexpected text after the action");
  }
  if (!status && out->write(out->context, p.out.bytes, p.out.length) != p.out.length) {
    status = fail(&p, "the output is full");
  }
  if (status) {
    if (error) *error = p.error;
    if (offset) *offset = p.at;
  }
  free(p.out.bytes);
  return status;
}

/* Writing text. */

static int put_text(const pb_writer *out, const char *text, size_t length) {
  return out->write(out->context, text, length) == length ? 0 : -1;
}

static int put_cstr(const pb_writer *out, const char *text) {
  return put_text(out, text, strlen(text));
}

static int format_value(pb_reader *in, const pb_writer *out, int depth);

static int format_fields(pb_reader *in, const pb_writer *out, uint32_t count, int depth,
                         int always_label) {
  for (uint32_t i = 0; i < count; i++) {
    const char *label;
    size_t length;
    if (i > 0 && put_cstr(out, ", ")) return -1;
    if (pb_read_name(in, &label, &length)) return -1;
    char positional[16];
    int n = snprintf(positional, sizeof positional, "_%u", i);
    if (always_label || length != (size_t)n || memcmp(label, positional, length)) {
      if (put_text(out, label, length) || put_cstr(out, ": ")) return -1;
    }
    if (format_value(in, out, depth + 1)) return -1;
  }
  return 0;
}

static int format_value(pb_reader *in, const pb_writer *out, int depth) {
  if (depth > 64 || in->offset >= in->length) return -1;
  uint8_t tag = in->bytes[in->offset];
  char scratch[40];
  switch (tag) {
  case PB_VALUE_NIL: in->offset++; return put_cstr(out, "nil");
  case PB_VALUE_BOOL: {
    int value;
    return pb_read_bool(in, &value) || put_cstr(out, value ? "true" : "false");
  }
  case PB_VALUE_INT: {
    int64_t value;
    if (pb_read_int(in, &value)) return -1;
    snprintf(scratch, sizeof scratch, "%lld", (long long)value);
    return put_cstr(out, scratch);
  }
  case PB_VALUE_DOUBLE: {
    if (in->length - in->offset < 9) return -1;
    double value;
    memcpy(&value, in->bytes + in->offset + 1, 8);
    in->offset += 9;
    snprintf(scratch, sizeof scratch, "%.17g", value);
    for (int digits = 1; digits < 17; digits++) { /* the shortest text that reads back */
      char shorter[40];
      snprintf(shorter, sizeof shorter, "%.*g", digits, value);
      if (strtod(shorter, NULL) == value) {
        memcpy(scratch, shorter, sizeof shorter);
        break;
      }
    }
    if (!strpbrk(scratch, ".eEni")) strcat(scratch, ".0"); /* still a double when read back */
    return put_cstr(out, scratch);
  }
  case PB_VALUE_STRING: {
    const char *text;
    size_t length;
    if (pb_read_string(in, &text, &length) || put_cstr(out, "\"")) return -1;
    for (size_t i = 0; i < length; i++) {
      char c = text[i];
      const char *escaped = c == '"'    ? "\\\""
                            : c == '\\' ? "\\\\"
                            : c == '\n' ? "\\n"
                            : c == '\t' ? "\\t"
                            : c == '\r' ? "\\r"
                                        : NULL;
      if (escaped ? put_cstr(out, escaped) : put_text(out, &c, 1)) return -1;
    }
    return put_cstr(out, "\"");
  }
  case PB_VALUE_LIST: {
    if (in->length - in->offset < 5) return -1;
    uint32_t count = 0;
    for (int i = 0; i < 4; i++) count |= (uint32_t)in->bytes[in->offset + 1 + (size_t)i] << (8 * i);
    in->offset += 5;
    if (put_cstr(out, "[")) return -1;
    for (uint32_t i = 0; i < count; i++) {
      if ((i > 0 && put_cstr(out, ", ")) || format_value(in, out, depth + 1)) return -1;
    }
    return put_cstr(out, "]");
  }
  case PB_VALUE_RECORD: {
    uint32_t count;
    return pb_read_record(in, &count) || put_cstr(out, "{") ||
                   format_fields(in, out, count, depth, 1) || put_cstr(out, "}")
               ? -1
               : 0;
  }
  case PB_VALUE_CASE: {
    const char *name;
    size_t length;
    uint32_t count;
    if (pb_read_case(in, &name, &length, &count) || put_text(out, name, length)) return -1;
    if (count == 0) return 0;
    return put_cstr(out, "(") || format_fields(in, out, count, depth, 0) || put_cstr(out, ")")
               ? -1
               : 0;
  }
  default: return -1;
  }
}

int pb_format_value_text(const uint8_t *bytes, size_t length, const pb_writer *out) {
  pb_reader in = {bytes, length, 0, NULL};
  return format_value(&in, out, 0) || in.offset != length ? -1 : 0;
}
