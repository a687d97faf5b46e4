/* pb_format_value_text: any encoded value as text (patchbay/value.h), exactly as the Swift
 * SDK's `actionText` writes it. */
#include "patchbay.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int put_text(const pb_writer *out, const char *text, size_t length) {
  return out->write(out->context, text, length) == length ? 0 : -1;
}

static int put_cstr(const pb_writer *out, const char *text) {
  return put_text(out, text, strlen(text));
}

/* A double as Swift's `description` writes it: the fewest significant digits that read back
 * to the same double (the closest such when several do), in plain decimals with at least one
 * after the point (`100.0`, `0.0001`) from 1e-4 up to 2^53, else as `d.ddde±XX`. `nan`, `inf`
 * and `-inf` do not read back. */
static void format_double(double value, char text[40]) {
  if (isnan(value) || isinf(value)) {
    strcpy(text, isnan(value) ? "nan" : value < 0 ? "-inf" : "inf");
    return;
  }
  if (value == 0) {
    strcpy(text, signbit(value) ? "-0.0" : "0.0");
    return;
  }
  /* The shortest digits: for each count, the correctly rounded ones, or a neighbour when the
   * interval that reads back to `value` lies to one side of them. */
  char digits[24];
  int exponent = 0;
  for (int count = 1; count <= 17; count++) {
    char scientific[40];
    snprintf(scientific, sizeof scientific, "%.*e", count - 1, fabs(value));
    unsigned long long rounded = 0;
    for (const char *c = scientific; *c != 'e'; c++)
      if (*c != '.') rounded = rounded * 10 + (unsigned long long)(*c - '0');
    int rounded_exponent = atoi(strchr(scientific, 'e') + 1);
    unsigned long long lowest = 1;
    for (int i = 1; i < count; i++) lowest *= 10;
    const long long steps[3] = {0, 1, -1};
    int found = 0;
    for (int i = 0; i < 3 && !found; i++) {
      unsigned long long candidate = rounded + (unsigned long long)steps[i];
      int candidate_exponent = rounded_exponent;
      if (candidate == lowest * 10) candidate = lowest, candidate_exponent++;
      if (candidate < lowest) {
        if (count == 1 && candidate == 0) continue;
        candidate = lowest * 10 - 1, candidate_exponent--;
      }
      char trial[48];
      snprintf(trial, sizeof trial, "%llue%d", candidate, candidate_exponent - (count - 1));
      if (strtod(trial, NULL) == fabs(value)) {
        snprintf(digits, sizeof digits, "%llu", candidate);
        exponent = candidate_exponent;
        found = 1;
      }
    }
    if (found || count == 17) {
      if (!found) snprintf(digits, sizeof digits, "%llu", rounded), exponent = rounded_exponent;
      break;
    }
  }
  size_t count = strlen(digits);
  while (count > 1 && digits[count - 1] == '0') digits[--count] = 0;
  char *at = text;
  if (value < 0) *at++ = '-';
  if (exponent < -4 || fabs(value) > 9007199254740992.0) {
    *at++ = digits[0];
    if (count > 1) at += sprintf(at, ".%s", digits + 1);
    sprintf(at, "e%c%02d", exponent < 0 ? '-' : '+', exponent < 0 ? -exponent : exponent);
  } else if (exponent < 0) {
    at += sprintf(at, "0.");
    for (int i = -1; i > exponent; i--) *at++ = '0';
    strcpy(at, digits);
  } else {
    for (int i = 0; i <= exponent; i++) *at++ = (size_t)i < count ? digits[i] : '0';
    sprintf(at, ".%s", (size_t)exponent + 1 < count ? digits + exponent + 1 : "0");
  }
}

/* A string in double quotes: \" \\ \n \t \r, and \u{…} for other control characters. */
static int format_string(const char *text, size_t length, const pb_writer *out) {
  if (put_cstr(out, "\"")) return -1;
  for (size_t i = 0; i < length; i++) {
    unsigned char c = (unsigned char)text[i];
    char escaped[16];
    switch (c) {
    case '"': strcpy(escaped, "\\\""); break;
    case '\\': strcpy(escaped, "\\\\"); break;
    case '\n': strcpy(escaped, "\\n"); break;
    case '\t': strcpy(escaped, "\\t"); break;
    case '\r': strcpy(escaped, "\\r"); break;
    default:
      if (c < 0x20 || c == 0x7F) snprintf(escaped, sizeof escaped, "\\u{%x}", c);
      else escaped[0] = 0;
    }
    if (escaped[0] ? put_cstr(out, escaped) : put_text(out, text + i, 1)) return -1;
  }
  return put_cstr(out, "\"");
}

static int format_value(pb_reader *in, const pb_writer *out, int depth);

/* Fields as `label: value, …`; a case leaves out the labels `_0`, `_1`, … of its position. */
static int format_fields(pb_reader *in, const pb_writer *out, uint32_t count, int depth,
                         int labels_always) {
  for (uint32_t i = 0; i < count; i++) {
    const char *label;
    size_t length;
    if (i > 0 && put_cstr(out, ", ")) return -1;
    if (pb_read_name(in, &label, &length)) return -1;
    char positional[16];
    int n = snprintf(positional, sizeof positional, "_%u", i);
    if (labels_always || length != (size_t)n || memcmp(label, positional, length)) {
      if (put_text(out, label, length) || put_cstr(out, ": ")) return -1;
    }
    if (format_value(in, out, depth + 1)) return -1;
  }
  return 0;
}

static int format_value(pb_reader *in, const pb_writer *out, int depth) {
  uint8_t tag;
  if (depth > 64 || pb_peek_tag(in, &tag)) return -1;
  switch (tag) {
  case PB_VALUE_NIL: return pb_read_nil(in) || put_cstr(out, "nil");
  case PB_VALUE_BOOL: {
    int value;
    return pb_read_bool(in, &value) || put_cstr(out, value ? "true" : "false");
  }
  case PB_VALUE_INT: {
    int64_t value;
    char text[24];
    if (pb_read_int(in, &value)) return -1;
    snprintf(text, sizeof text, "%lld", (long long)value);
    return put_cstr(out, text);
  }
  case PB_VALUE_DOUBLE: {
    double value;
    char text[40];
    if (pb_read_double(in, &value)) return -1;
    format_double(value, text);
    return put_cstr(out, text);
  }
  case PB_VALUE_STRING: {
    const char *text;
    size_t length;
    return pb_read_string(in, &text, &length) || format_string(text, length, out);
  }
  case PB_VALUE_LIST: {
    uint32_t count;
    if (pb_read_list(in, &count) || put_cstr(out, "[")) return -1;
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
