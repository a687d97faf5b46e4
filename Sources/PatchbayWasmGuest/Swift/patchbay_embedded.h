/*
 * patchbay_embedded.h — what the Embedded Swift SDK imports from the host beyond patchbay.h.
 *
 * Declared in C so that the call uses C's convention (a Swift declaration would add Swift's
 * context arguments to the import's type).
 */
#ifndef PATCHBAY_EMBEDDED_H
#define PATCHBAY_EMBEDDED_H

#include <stdint.h>

/* The host's timer: `action` (`length` bytes, an encoded action) back to this instance after
 * `milliseconds` (Sources/PatchbayWasm/WasmTimers.swift). */
__attribute__((import_module("patchbay"), import_name("send_after"))) void
patchbay_send_after(uint32_t milliseconds, const uint8_t *action, uint32_t length);

#endif /* PATCHBAY_EMBEDDED_H */
