/* pb_parse_action_text: the text form of an action (patchbay/value.h gives the grammar) into
 * its encoding, exactly as the Swift SDK's `WireValue(parsingAction:)` reads it. */
#include "patchbay.h"

#include <errno.h>
#include <math.h>
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

/* The deepest a value nests, as in the encoding: the action is level 0. */
enum { MAXIMUM_DEPTH = 64 };

static int fail(parser *p, const char *error) {
  if (!p->error) p->error = error;
  return -1;
}

static int out_of_memory(parser *p) { return fail(p, "out of memory"); }

static int peek(const parser *p) {
  return p->at < p->length ? (unsigned char)p->text[p->at] : -1;
}

static void skip_spaces(parser *p) {
  while (peek(p) == ' ' || peek(p) == '\t') p->at++;
}

static int is_digit(int c) { return c >= '0' && c <= '9'; }
/* Whether `c` is one of `set` (never the NUL that ends it). */
static int is_one_of(int c, const char *set) { return c > 0 && strchr(set, c) != NULL; }
static int is_name_start(int c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
static int is_name_char(int c) { return is_name_start(c) || is_digit(c); }
static int is_hex_digit(int c) {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* The length of the well-formed UTF-8 sequence at `s` (Unicode's table 3-7), or 0. */
static size_t utf8_sequence(const unsigned char *s, size_t left) {
  unsigned char c = s[0], low = 0x80, high = 0xBF;
  size_t n;
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) n = 2;
  else if (c == 0xE0) n = 3, low = 0xA0;
  else if (c == 0xED) n = 3, high = 0x9F; /* no surrogates */
  else if (c >= 0xE1 && c <= 0xEF) n = 3;
  else if (c == 0xF0) n = 4, low = 0x90;
  else if (c >= 0xF1 && c <= 0xF3) n = 4;
  else if (c == 0xF4) n = 4, high = 0x8F; /* nothing past U+10FFFF */
  else return 0;
  if (left < n || s[1] < low || s[1] > high) return 0;
  for (size_t i = 2; i < n; i++)
    if (s[i] < 0x80 || s[i] > 0xBF) return 0;
  return n;
}

static int append_utf8(buffer *b, uint32_t code) {
  uint8_t utf8[4];
  size_t n = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  if (n == 1) {
    utf8[0] = (uint8_t)code;
  } else {
    for (size_t i = n - 1; i > 0; i--, code >>= 6) utf8[i] = (uint8_t)(0x80 | (code & 0x3F));
    utf8[0] = (uint8_t)((n == 2 ? 0xC0 : n == 3 ? 0xE0 : 0xF0) | code);
  }
  return append(b, utf8, n);
}

/* name = [A-Za-z_][A-Za-z0-9_]* */
static int parse_name(parser *p, const char **name, size_t *length) {
  if (!is_name_start(peek(p))) return fail(p, "expected a name");
  size_t start = p->at;
  while (is_name_char(peek(p))) p->at++;
  *name = p->text + start;
  *length = p->at - start;
  return 0;
}

static int append_name(buffer *b, const char *name, size_t length) {
  return length > UINT16_MAX || append_uint(b, length, 2) || append(b, name, length) ? -1 : 0;
}

static int parse_value(parser *p, int depth);

/* Whether the label just written at `at` (u16 length, bytes) repeats one at `labels`. */
static int repeats_label(const buffer *out, const size_t *labels, uint32_t count, size_t at) {
  size_t length = (size_t)out->bytes[at] | (size_t)out->bytes[at + 1] << 8;
  for (uint32_t i = 0; i < count; i++) {
    const uint8_t *other = out->bytes + labels[i];
    size_t other_length = (size_t)other[0] | (size_t)other[1] << 8;
    if (other_length == length && !memcmp(other + 2, out->bytes + at + 2, length)) return 1;
  }
  return 0;
}

/* fields = [ field { "," field } ] up to `close`, of a value at `depth`; field = [ label ":" ]
 * value. Unlabeled fields of a case are `_0`, `_1`, … by position; a record needs labels. */
static int parse_fields(parser *p, char close, int depth, uint32_t *count) {
  *count = 0;
  skip_spaces(p);
  if (peek(p) == close) {
    p->at++;
    return 0;
  }
  size_t *labels = NULL; /* where each label was written in p->out, to refuse repeats */
  int status = -1;
  for (;;) {
    skip_spaces(p);
    size_t mark = p->at;
    const char *label = NULL;
    size_t label_length = 0;
    if (is_name_start(peek(p))) {
      parse_name(p, &label, &label_length);
      skip_spaces(p);
      if (peek(p) == ':') {
        p->at++;
      } else {
        p->at = mark; /* a value that starts like a name: a case, true, false, nil */
        label = NULL;
      }
    }
    if (!label && close == '}') {
      fail(p, "expected 'label: value' in a record");
      break;
    }
    size_t *more = realloc(labels, sizeof *labels * (*count + 1));
    if (!more) {
      out_of_memory(p);
      break;
    }
    labels = more;
    labels[*count] = p->out.length;
    char positional[16];
    if (!label) {
      label_length = (size_t)snprintf(positional, sizeof positional, "_%u", *count);
      label = positional;
    }
    if (append_name(&p->out, label, label_length)) {
      out_of_memory(p);
      break;
    }
    if (repeats_label(&p->out, labels, *count, labels[*count])) {
      p->at = mark;
      fail(p, "a label is given twice");
      break;
    }
    skip_spaces(p);
    if (parse_value(p, depth + 1)) break;
    (*count)++;
    skip_spaces(p);
    if (peek(p) == ',') {
      p->at++;
      continue;
    }
    if (peek(p) == close) {
      p->at++;
      status = 0;
    } else {
      fail(p, close == ')' ? "expected ',' or ')'" : "expected ',' or '}'");
    }
    break;
  }
  free(labels);
  return status;
}

/* case = name [ "(" fields ")" ] */
static int parse_case(parser *p, int depth) {
  const char *name;
  size_t length;
  if (parse_name(p, &name, &length)) return -1;
  if (append_uint(&p->out, PB_VALUE_CASE, 1) || append_name(&p->out, name, length))
    return out_of_memory(p);
  size_t count_at = p->out.length;
  if (append_uint(&p->out, 0, 4)) return out_of_memory(p);
  uint32_t count = 0;
  skip_spaces(p);
  if (peek(p) == '(') {
    p->at++;
    if (parse_fields(p, ')', depth, &count)) return -1;
  }
  patch_u32(&p->out, count_at, count);
  return 0;
}

/* "\u{" 1 to 8 hex digits "}" naming a Unicode scalar, after the backslash and the u. */
static int parse_unicode_escape(parser *p, uint32_t *code) {
  if (peek(p) != '{') return fail(p, "expected '{' after '\\u'");
  p->at++;
  uint64_t value = 0;
  int digits = 0;
  for (; is_hex_digit(peek(p)) && digits < 8; digits++, p->at++) {
    int c = peek(p);
    value = value * 16 + (uint64_t)(is_digit(c) ? c - '0' : (c | 0x20) - 'a' + 10);
  }
  if (!digits || peek(p) != '}' || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF))
    return fail(p, "expected a hexadecimal Unicode scalar in '\\u{…}'");
  p->at++;
  *code = (uint32_t)value;
  return 0;
}

/* string = '"' { UTF-8 | escape } '"'; escapes \" \\ \n \t \r \u{…} */
static int parse_string(parser *p) {
  size_t start = p->at++;
  buffer text = {0};
  int status = -1;
  for (;;) {
    int c = peek(p);
    if (c < 0) {
      p->at = start;
      fail(p, "a string is not closed with '\"'");
      break;
    }
    if (c == '"') {
      p->at++;
      status = append_uint(&p->out, PB_VALUE_STRING, 1) ||
                       append_uint(&p->out, text.length, 4) ||
                       append(&p->out, text.bytes, text.length)
                   ? out_of_memory(p)
                   : 0;
      break;
    }
    if (c == '\\') {
      p->at++;
      int e = peek(p);
      if (e < 0) continue; /* not closed */
      p->at++;
      uint32_t code = e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e == '"' ? '"' : '\\';
      if (e == 'u') {
        if (parse_unicode_escape(p, &code)) break;
      } else if (!is_one_of(e, "nrt\"\\")) {
        fail(p, "unknown escape in a string");
        break;
      }
      if (append_utf8(&text, code)) {
        out_of_memory(p);
        break;
      }
      continue;
    }
    size_t n = utf8_sequence((const unsigned char *)p->text + p->at, p->length - p->at);
    if (!n) {
      fail(p, "a string is not valid UTF-8");
      break;
    }
    if (append(&text, p->text + p->at, n)) {
      out_of_memory(p);
      break;
    }
    p->at += n;
  }
  free(text.bytes);
  return status;
}

/* number = the longest run of 0-9 + - . e E _, underscores dropped: an int64 when it has no
 * '.', 'e' or 'E', else a finite decimal as strtod reads it. */
static int parse_number(parser *p) {
  size_t start = p->at;
  while (is_digit(peek(p)) || is_one_of(peek(p), "+-.eE_")) p->at++;
  char *scratch = malloc(p->at - start + 1);
  if (!scratch) return out_of_memory(p);
  size_t n = 0;
  int decimal = 0;
  for (size_t i = start; i < p->at; i++) {
    char c = p->text[i];
    if (c == '_') continue;
    decimal |= c == '.' || c == 'e' || c == 'E';
    scratch[n++] = c;
  }
  scratch[n] = 0;
  char *end;
  int status;
  errno = 0;
  if (!decimal) {
    long long value = strtoll(scratch, &end, 10);
    int whole = n && end == scratch + n;
    status = whole && errno != ERANGE
                 ? (append_uint(&p->out, PB_VALUE_INT, 1) ||
                            append_uint(&p->out, (uint64_t)value, 8)
                        ? out_of_memory(p)
                        : 0)
                 : fail(p, whole ? "the number does not fit in a 64-bit integer; write it with "
                                   "'.0' for a decimal"
                                 : "expected a number");
  } else {
    double value = strtod(scratch, &end);
    uint64_t bits;
    memcpy(&bits, &value, sizeof bits);
    status = n && end == scratch + n && isfinite(value)
                 ? (append_uint(&p->out, PB_VALUE_DOUBLE, 1) || append_uint(&p->out, bits, 8)
                        ? out_of_memory(p)
                        : 0)
                 : fail(p, "expected a number");
  }
  free(scratch);
  if (status) p->at = start;
  return status;
}

/* Whether the text at p is `word` as a value: not part of a longer name, and not a case
 * (a name followed by "(" is a case, even `true(…)`). */
static int keyword_is(const parser *p, const char *word) {
  size_t n = strlen(word);
  if (p->length - p->at < n || memcmp(p->text + p->at, word, n)) return 0;
  size_t after = p->at + n;
  if (after < p->length && is_name_char((unsigned char)p->text[after])) return 0;
  while (after < p->length && (p->text[after] == ' ' || p->text[after] == '\t')) after++;
  return after == p->length || p->text[after] != '(';
}

static int parse_list(parser *p, int depth, uint32_t *count) {
  *count = 0;
  skip_spaces(p);
  if (peek(p) == ']') {
    p->at++;
    return 0;
  }
  for (;;) {
    skip_spaces(p);
    if (parse_value(p, depth + 1)) return -1;
    (*count)++;
    skip_spaces(p);
    if (peek(p) == ',') {
      p->at++;
    } else if (peek(p) == ']') {
      p->at++;
      return 0;
    } else {
      return fail(p, "expected ',' or ']'");
    }
  }
}

/* value = number | string | true | false | nil | list | record | case */
static int parse_value(parser *p, int depth) {
  if (depth > MAXIMUM_DEPTH) return fail(p, "values nest deeper than 64 levels");
  int c = peek(p);
  if (c < 0) return fail(p, "expected a value");
  if (c == '"') return parse_string(p);
  if (is_digit(c) || c == '-' || c == '+' || c == '.') return parse_number(p);
  if (c == '[' || c == '{') {
    p->at++;
    if (append_uint(&p->out, c == '[' ? PB_VALUE_LIST : PB_VALUE_RECORD, 1))
      return out_of_memory(p);
    size_t count_at = p->out.length;
    uint32_t count;
    if (append_uint(&p->out, 0, 4)) return out_of_memory(p);
    if (c == '[' ? parse_list(p, depth, &count) : parse_fields(p, '}', depth, &count)) return -1;
    patch_u32(&p->out, count_at, count);
    return 0;
  }
  if (keyword_is(p, "true") || keyword_is(p, "false")) {
    int value = c == 't';
    p->at += value ? 4 : 5;
    return append_uint(&p->out, PB_VALUE_BOOL, 1) || append_uint(&p->out, (uint64_t)value, 1)
               ? out_of_memory(p)
               : 0;
  }
  if (keyword_is(p, "nil")) {
    p->at += 3;
    return append_uint(&p->out, PB_VALUE_NIL, 1) ? out_of_memory(p) : 0;
  }
  if (is_name_start(c)) return parse_case(p, depth);
  return fail(p, "expected a value (number, \"string\", true, false, nil, [list], {record} or "
                 "a case)");
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
