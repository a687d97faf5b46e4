/* The fixture's exported functions (patchbay/functions.h): one of every type the signature
 * grammar has, for the libffi round trips, and the broken lists its modes export instead. */
#include <patchbay.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fixture.h"

/* Functions of every type the signature grammar has, for the libffi round trips. */
static bool fn_not(bool value) { return !value; }
static int8_t fn_int8(int8_t value) { return value; }
static uint8_t fn_uint8(uint8_t value) { return value; }
static int16_t fn_int16(int16_t value) { return value; }
static uint16_t fn_uint16(uint16_t value) { return value; }
static int32_t fn_int32(int32_t value) { return value; }
static uint32_t fn_uint32(uint32_t value) { return value; }
static int64_t fn_int64(int64_t value) { return value; }
static uint64_t fn_uint64(uint64_t value) { return value; }
static size_t fn_size(size_t value) { return value; }
static float fn_float(float value) { return value; }
static double fn_mix(int8_t a, uint16_t b, int32_t c, int64_t d, float e, double f) {
  return a + b + c + (double)d + e + f;
}
static void *fn_pointer(void *value) { return value; }
static uint64_t fn_sum(const uint8_t *bytes, size_t count) {
  uint64_t sum = 0;
  for (size_t i = 0; i < count; i++) sum += bytes[i];
  return sum;
}
static int32_t fn_greet(const char *name, char *out, size_t capacity) {
  return snprintf(out, capacity, "hello, %s", name);
}
static void fn_nothing(void) {}
static float fn_float_only(int32_t note) { return (float)note; }
#define FUNCTION(name, signature, function)                                                    \
  static const pb_function_desc name = {sizeof(pb_function_desc), #name, signature, NULL,      \
                                        (void (*)(void))function};
FUNCTION(not, "bool(bool)", fn_not)
FUNCTION(int8, "int8(int8)", fn_int8)
FUNCTION(uint8, "uint8(uint8)", fn_uint8)
FUNCTION(int16, "int16(int16)", fn_int16)
FUNCTION(uint16, "uint16(uint16)", fn_uint16)
FUNCTION(int32, "int32(int32)", fn_int32)
FUNCTION(uint32, "uint32(uint32)", fn_uint32)
FUNCTION(int64, "int64(int64)", fn_int64)
FUNCTION(uint64, "uint64(uint64)", fn_uint64)
FUNCTION(size, "size(size)", fn_size)
FUNCTION(float_, "float(float)", fn_float)
FUNCTION(mix, "double(int8, uint16, int32, int64, float, double)", fn_mix)
FUNCTION(pointer, "pointer(pointer)", fn_pointer)
FUNCTION(sum, "uint64(buffer)", fn_sum)
FUNCTION(greet, "int32(string, out_string)", fn_greet)
FUNCTION(nothing, "void()", fn_nothing)
const pb_function_desc *const all_functions[16] = {
    &not, &int8, &uint8, &int16, &uint16, &int32, &uint32, &int64, &uint64, &size, &float_,
    &mix, &pointer, &sum, &greet, &nothing};
/* "theorylite": a Theory whose note_frequency has another signature, and no note_name. */
static const pb_function_desc lite_frequency = {sizeof(pb_function_desc), "note_frequency",
                                                "float(int32)", NULL,
                                                (void (*)(void))fn_float_only};
const pb_function_desc *const lite_functions[1] = {&lite_frequency};
static const pb_function_desc bad_signature = {sizeof(pb_function_desc), "broken",
                                               "double(int32,, double)", NULL,
                                               (void (*)(void))fn_mix};
const pb_function_desc *const bad_functions[1] = {&bad_signature};
const pb_function_desc *const twice_functions[2] = {&lite_frequency, &lite_frequency};
