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

/* The same, filed under `key` (`key_length` bytes): `.cancellable(id:)`. */
__attribute__((import_module("patchbay"), import_name("send_after_keyed"))) void
patchbay_send_after_keyed(uint32_t milliseconds, const uint8_t *action, uint32_t length,
                          const char *key, uint32_t key_length);

/* Stops this instance's timers filed under `key`, and its earlier generations' after a swap:
 * `.cancel(id:)`. */
__attribute__((import_module("patchbay"), import_name("cancel_keyed"))) void
patchbay_cancel_keyed(const char *key, uint32_t key_length);

/* "patchbay.navigation/1"'s navigate (kind: pb_navigation_kind; node: NULL but for push and
 * present), for the SDK's `Effect.navigate`. Inline, and called only from the closure that
 * effect makes: a plugin that never navigates never names PB_SERVICE_NAVIGATION, and so links
 * neither the service's guest half nor its import (docs/WASM.md, "Services"). */
static inline void patchbay_navigate(const pb_host *host, uint32_t kind, const char *node) {
  const pb_navigation_service *navigation = host->get_service(host, PB_SERVICE_NAVIGATION);
  if (navigation) navigation->navigate(host, (pb_navigation_kind)kind, node, NULL, 0);
}

/* The other services the SDK calls, each for one thing a feature declares, and each called
 * only from a closure that declaration makes (`static let midiChannels: MIDIChannels = 1`,
 * `SharedSubscription`, `SharedValue`, `@Shared(.inMemory(…))`, `FunctionImport`): so, as for
 * navigate, a module imports a service only when its source names what needs it. */

/* "patchbay.midi/1"'s listen: MIDI on `channel_mask`'s channels comes as `midi(…)` actions. */
static inline void patchbay_midi_listen(const pb_host *host, uint16_t channel_mask) {
  const pb_midi_service *midi = host->get_service(host, PB_SERVICE_MIDI);
  if (midi) midi->listen(host, channel_mask);
}

/* "patchbay.shared/1"'s subscribe: `name`'s value comes as the action `action(_: value)`. */
static inline void patchbay_shared_subscribe(const pb_host *host, const char *name,
                                             const char *action) {
  const pb_shared_service *shared = host->get_service(host, PB_SERVICE_SHARED);
  if (shared) shared->subscribe(host, name, action);
}

/* "patchbay.shared/1"'s publish: `value` (an encoded value) under `name`. */
static inline void patchbay_shared_publish(const pb_host *host, const char *name,
                                           const uint8_t *value, size_t length) {
  const pb_shared_service *shared = host->get_service(host, PB_SERVICE_SHARED);
  if (shared) shared->publish(host, name, value, length);
}

/* "patchbay.shared/1"'s hold: `name`, whose value is `initial` unless the app has one (then
 * the instance is sent `_shared(name:, value:)` with it). */
static inline void patchbay_shared_hold(const pb_host *host, const char *name,
                                        const uint8_t *initial, size_t length) {
  const pb_shared_service *shared = host->get_service(host, PB_SERVICE_SHARED);
  if (shared) shared->hold(host, name, initial, length);
}

/* "patchbay.shared/1"'s write: `name`, which this instance holds; every other holder is sent
 * `_shared(name:, value:)`. */
static inline void patchbay_shared_write(const pb_host *host, const char *name,
                                         const uint8_t *value, size_t length) {
  const pb_shared_service *shared = host->get_service(host, PB_SERVICE_SHARED);
  if (shared) shared->write(host, name, value, length);
}

/* "patchbay.functions/1"'s resolve: the function's index in this module's table (what a C
 * function pointer is in wasm32), or NULL after the host was told why. */
static inline const void *patchbay_resolve(const pb_host *host, const char *provider,
                                           const char *name, const char *signature) {
  const pb_functions_service *functions = host->get_service(host, PB_SERVICE_FUNCTIONS);
  return functions ? (const void *)functions->resolve(host, provider, name, signature) : NULL;
}

#endif /* PATCHBAY_EMBEDDED_H */
