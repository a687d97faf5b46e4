/*
 * patchbay_embedded.h — what the Embedded Swift SDK imports from the host beyond patchbay.h,
 * and the services it calls.
 *
 * Declared in C so that the call uses C's convention (a Swift declaration would add Swift's
 * context arguments to the import's type).
 */
#ifndef PATCHBAY_EMBEDDED_H
#define PATCHBAY_EMBEDDED_H

#include <stdint.h>

#include "../../PatchbayABI/include/patchbay.h"

/* The host's timer: `action` (`length` bytes, an encoded action) back to this instance after
 * `milliseconds` (Sources/PatchbayWasm/WasmTimers.swift). */
__attribute__((import_module("patchbay"), import_name("send_after"))) void
patchbay_send_after(uint32_t milliseconds, const uint8_t *action, uint32_t length);

/* "patchbay.navigation/1"'s navigate (kind: pb_navigation_kind; node: NULL but for push and
 * present), for the SDK's `Effect.navigate`. Inline, and called only from the closure that
 * effect makes: a plugin that never navigates never names PB_SERVICE_NAVIGATION, and so links
 * neither the service's guest half nor its import (docs/WASM.md, "Services"). */
static inline void patchbay_navigate(const pb_host *host, uint32_t kind, const char *node) {
  const pb_navigation_service *navigation = host->get_service(host, PB_SERVICE_NAVIGATION);
  if (navigation) navigation->navigate(host, (pb_navigation_kind)kind, node, NULL, 0);
}

#endif /* PATCHBAY_EMBEDDED_H */
