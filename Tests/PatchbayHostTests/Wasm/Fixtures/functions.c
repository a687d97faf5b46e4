/*
 * functions.c — a WebAssembly plugin's exported functions, some of which misbehave: the host
 * must carry every C type across the module's edge, name each failure, return zero to the
 * caller, and call the next one in a fresh module instance.
 */
#include <patchbay.h>

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static volatile int32_t sink;

/* Works: each narrow type in, a sum out. */
static int64_t mix(int8_t a, uint16_t b, bool c, int64_t d, float e) {
  return (int64_t)a + b + (c ? 1 : 0) + d + (int64_t)e;
}

/* Works: a narrow signed result, which the host must sign-extend. */
static int8_t negate(int8_t value) { return (int8_t)-value; }

/* Works: the largest uint32, which the host must not sign-extend. */
static uint32_t largest(void) { return UINT32_MAX; }

/* Works: a string's length (0 for NULL). */
static size_t length(const char *text) { return text ? strlen(text) : 0; }

/* Works: `bytes` written `times` times, as snprintf would (the length it needs back). */
static int32_t repeat(const uint8_t *bytes, size_t count, int32_t times, char *out,
                      size_t capacity) {
  size_t needed = count * (size_t)times;
  for (size_t i = 0; capacity > 0 && i < needed && i < capacity - 1; i++) out[i] = (char)bytes[i % count];
  if (capacity > 0) out[needed < capacity - 1 ? needed : capacity - 1] = 0;
  return (int32_t)needed;
}

/* Spins: the fuel runs out. */
static int32_t spin(int32_t step) {
  for (;;) sink += step;
}

/* Takes memory until there is none, then aborts. */
static char *volatile hoarded;
static int32_t hoard(int32_t step) {
  for (;;) {
    char *block = malloc(1 << 20);
    if (!block) abort();
    block[0] = (char)step;
    hoarded = block;
  }
}

/* Declared double(int32) below, but an int32(int32): the guest's call_indirect refuses it. */
static int32_t mismatched(int32_t value) { return value; }

#define FUNCTION(fn, text) \
  static const pb_function_desc fn##_desc = {sizeof(pb_function_desc), #fn, text, NULL, \
                                             (void (*)(void))fn}
FUNCTION(mix, "int64(int8, uint16, bool, int64, float)");
FUNCTION(negate, "int8(int8)");
FUNCTION(largest, "uint32()");
FUNCTION(length, "size(string)");
FUNCTION(repeat, "int32(buffer, int32, out_string)");
FUNCTION(spin, "int32(int32)");
FUNCTION(hoard, "int32(int32)");
FUNCTION(mismatched, "double(int32)");
static const pb_function_desc *const functions[] = {&mix_desc,    &negate_desc, &largest_desc,
                                                    &length_desc, &repeat_desc, &spin_desc,
                                                    &hoard_desc,  &mismatched_desc};

static const pb_plugin_desc plugin = {
    .magic = PATCHBAY_MAGIC,
    .abi_major = PATCHBAY_ABI_MAJOR,
    .abi_minor = PATCHBAY_ABI_MINOR,
    .struct_size = sizeof(pb_plugin_desc),
    .id = "dev.patchbay.functions-plugin",
    .name = "Functions",
    .version = "1.0.0",
    .function_count = sizeof functions / sizeof functions[0],
    .functions = functions,
};

__attribute__((visibility("default"))) const pb_plugin_desc *patchbay_plugin_entry(
    pb_abi_version host_abi_major) {
  (void)host_abi_major;
  return &plugin;
}
