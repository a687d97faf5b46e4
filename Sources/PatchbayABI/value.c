/* The C helpers of patchbay/value.h: write and read the value encoding. */
#include "patchbay.h"

#include <string.h>

static int put(const pb_writer *out, const void *bytes, size_t length) {
  return out->write(out->context, bytes, length) == length ? 0 : -1;
}

static int put_u8(const pb_writer *out, uint8_t value) { return put(out, &value, 1); }

static int put_u16(const pb_writer *out, uint16_t value) {
  uint8_t bytes[2] = {(uint8_t)value, (uint8_t)(value >> 8)};
  return put(out, bytes, 2);
}

static int put_u32(const pb_writer *out, uint32_t value) {
  uint8_t bytes[4];
  for (int i = 0; i < 4; i++) bytes[i] = (uint8_t)(value >> (8 * i));
  return put(out, bytes, 4);
}

static int put_u64(const pb_writer *out, uint64_t value) {
  uint8_t bytes[8];
  for (int i = 0; i < 8; i++) bytes[i] = (uint8_t)(value >> (8 * i));
  return put(out, bytes, 8);
}

int pb_write_nil(const pb_writer *out) { return put_u8(out, PB_VALUE_NIL); }

int pb_write_bool(const pb_writer *out, int value) {
  return put_u8(out, PB_VALUE_BOOL) || put_u8(out, value ? 1 : 0) ? -1 : 0;
}

int pb_write_int(const pb_writer *out, int64_t value) {
  return put_u8(out, PB_VALUE_INT) || put_u64(out, (uint64_t)value) ? -1 : 0;
}

int pb_write_double(const pb_writer *out, double value) {
  uint64_t bits;
  memcpy(&bits, &value, sizeof bits);
  return put_u8(out, PB_VALUE_DOUBLE) || put_u64(out, bits) ? -1 : 0;
}

int pb_write_string(const pb_writer *out, const char *utf8, size_t length) {
  if (length > UINT32_MAX) return -1;
  return put_u8(out, PB_VALUE_STRING) || put_u32(out, (uint32_t)length) || put(out, utf8, length)
             ? -1
             : 0;
}

int pb_write_name(const pb_writer *out, const char *name) {
  size_t length = strlen(name);
  if (length > UINT16_MAX) return -1;
  return put_u16(out, (uint16_t)length) || put(out, name, length) ? -1 : 0;
}

int pb_write_list(const pb_writer *out, uint32_t count) {
  return put_u8(out, PB_VALUE_LIST) || put_u32(out, count) ? -1 : 0;
}

int pb_write_record(const pb_writer *out, uint32_t count) {
  return put_u8(out, PB_VALUE_RECORD) || put_u32(out, count) ? -1 : 0;
}

int pb_write_case(const pb_writer *out, const char *name, uint32_t count) {
  return put_u8(out, PB_VALUE_CASE) || pb_write_name(out, name) || put_u32(out, count) ? -1 : 0;
}

/* Reading */

static int fail(pb_reader *in, const char *why) {
  if (!in->error) in->error = why;
  return -1;
}

static int take(pb_reader *in, size_t length, const uint8_t **bytes) {
  if (in->error) return -1;
  if (in->length - in->offset < length) return fail(in, "value ends early");
  *bytes = in->bytes + in->offset;
  in->offset += length;
  return 0;
}

static uint64_t le(const uint8_t *bytes, int count) {
  uint64_t value = 0;
  for (int i = 0; i < count; i++) value |= (uint64_t)bytes[i] << (8 * i);
  return value;
}

static int expect_tag(pb_reader *in, uint8_t tag, const char *why) {
  const uint8_t *bytes;
  if (take(in, 1, &bytes)) return -1;
  if (bytes[0] != tag) {
    in->offset -= 1;
    return fail(in, why);
  }
  return 0;
}

int pb_peek_tag(pb_reader *in, uint8_t *tag) {
  if (in->error) return -1;
  if (in->offset >= in->length) return fail(in, "value ends early");
  *tag = in->bytes[in->offset];
  return 0;
}

int pb_read_nil(pb_reader *in) { return expect_tag(in, PB_VALUE_NIL, "expected nil"); }

int pb_read_bool(pb_reader *in, int *value) {
  const uint8_t *bytes;
  if (expect_tag(in, PB_VALUE_BOOL, "expected a bool") || take(in, 1, &bytes)) return -1;
  if (bytes[0] > 1) return fail(in, "a bool must be 0 or 1");
  *value = bytes[0];
  return 0;
}

int pb_read_int(pb_reader *in, int64_t *value) {
  const uint8_t *bytes;
  if (expect_tag(in, PB_VALUE_INT, "expected an int") || take(in, 8, &bytes)) return -1;
  *value = (int64_t)le(bytes, 8);
  return 0;
}

int pb_read_double(pb_reader *in, double *value) {
  const uint8_t *bytes;
  if (expect_tag(in, PB_VALUE_DOUBLE, "expected a double") || take(in, 8, &bytes)) return -1;
  uint64_t bits = le(bytes, 8);
  memcpy(value, &bits, sizeof bits);
  return 0;
}

int pb_read_string(pb_reader *in, const char **utf8, size_t *length) {
  const uint8_t *bytes;
  if (expect_tag(in, PB_VALUE_STRING, "expected a string") || take(in, 4, &bytes)) return -1;
  size_t count = (size_t)le(bytes, 4);
  if (take(in, count, &bytes)) return -1;
  *utf8 = (const char *)bytes;
  *length = count;
  return 0;
}

int pb_read_name(pb_reader *in, const char **name, size_t *length) {
  const uint8_t *bytes;
  if (take(in, 2, &bytes)) return -1;
  size_t count = (size_t)le(bytes, 2);
  if (take(in, count, &bytes)) return -1;
  *name = (const char *)bytes;
  *length = count;
  return 0;
}

int pb_read_list(pb_reader *in, uint32_t *count) {
  const uint8_t *bytes;
  if (expect_tag(in, PB_VALUE_LIST, "expected a list") || take(in, 4, &bytes)) return -1;
  *count = (uint32_t)le(bytes, 4);
  return 0;
}

int pb_read_record(pb_reader *in, uint32_t *count) {
  const uint8_t *bytes;
  if (expect_tag(in, PB_VALUE_RECORD, "expected a record") || take(in, 4, &bytes)) return -1;
  *count = (uint32_t)le(bytes, 4);
  return 0;
}

int pb_read_case(pb_reader *in, const char **name, size_t *name_length, uint32_t *count) {
  const uint8_t *bytes;
  if (expect_tag(in, PB_VALUE_CASE, "expected an action (a case value)")) return -1;
  if (pb_read_name(in, name, name_length) || take(in, 4, &bytes)) return -1;
  *count = (uint32_t)le(bytes, 4);
  return 0;
}

static int skip(pb_reader *in, int depth) {
  const uint8_t *bytes;
  if (depth > 64) return fail(in, "value nested deeper than 64 levels");
  if (take(in, 1, &bytes)) return -1;
  switch (bytes[0]) {
  case PB_VALUE_NIL: return 0;
  case PB_VALUE_BOOL: return take(in, 1, &bytes);
  case PB_VALUE_INT:
  case PB_VALUE_DOUBLE: return take(in, 8, &bytes);
  case PB_VALUE_STRING:
    if (take(in, 4, &bytes)) return -1;
    return take(in, (size_t)le(bytes, 4), &bytes);
  case PB_VALUE_LIST: {
    if (take(in, 4, &bytes)) return -1;
    uint32_t count = (uint32_t)le(bytes, 4);
    for (uint32_t i = 0; i < count; i++)
      if (skip(in, depth + 1)) return -1;
    return 0;
  }
  case PB_VALUE_RECORD:
  case PB_VALUE_CASE: {
    const char *name;
    size_t length;
    if (bytes[0] == PB_VALUE_CASE && pb_read_name(in, &name, &length)) return -1;
    if (take(in, 4, &bytes)) return -1;
    uint32_t count = (uint32_t)le(bytes, 4);
    for (uint32_t i = 0; i < count; i++)
      if (pb_read_name(in, &name, &length) || skip(in, depth + 1)) return -1;
    return 0;
  }
  default:
    in->offset -= 1;
    return fail(in, "unknown value tag");
  }
}

int pb_skip_value(pb_reader *in) { return skip(in, 0); }

int pb_name_equals(const char *name, size_t length, const char *expected) {
  return strlen(expected) == length && memcmp(name, expected, length) == 0;
}
