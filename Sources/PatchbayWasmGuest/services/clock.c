/*
 * clock.c — "patchbay.clock/1" inside a WebAssembly plugin: the host's monotonic clock.
 *
 * Linked only into a module whose source names PB_SERVICE_CLOCK (wasm-cc links this folder as
 * a library), so only such a module imports patchbay.clock_now.
 */
#include <patchbay.h>

__attribute__((import_module("patchbay"), import_name("clock_now"))) uint64_t
pbw_host_clock_now(void);

const char pb_wasm_service_clock[] = "patchbay.clock/1";

static uint64_t pbw_now_ns(void) { return pbw_host_clock_now(); }

const pb_clock_service pbw_clock = {sizeof(pb_clock_service), pbw_now_ns};
