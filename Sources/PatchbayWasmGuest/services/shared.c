/*
 * shared.c — "patchbay.shared/1" inside a WebAssembly plugin: it publishes, subscribes to,
 * holds and writes shared state, as a native plugin does (patchbay/shared.h).
 *
 * Linked only into a module whose source names PB_SERVICE_SHARED, so only such a module
 * imports patchbay.shared_*, which host-config must grant ([sandbox] "Mine.wasm" =
 * ["shared"]).
 */
#include <patchbay.h>

#include <string.h>

#define PBW_IMPORT(name) __attribute__((import_module("patchbay"), import_name(#name)))

PBW_IMPORT(shared_publish)
uint32_t pbw_host_shared_publish(const char *name, uint32_t name_length, const uint8_t *value,
                                 uint32_t length);
PBW_IMPORT(shared_subscribe)
uint32_t pbw_host_shared_subscribe(const char *name, uint32_t name_length, const char *action,
                                   uint32_t action_length, uint32_t has_action);
PBW_IMPORT(shared_hold)
uint32_t pbw_host_shared_hold(const char *name, uint32_t name_length, const uint8_t *initial,
                              uint32_t length);
PBW_IMPORT(shared_write)
uint32_t pbw_host_shared_write(const char *name, uint32_t name_length, const uint8_t *value,
                               uint32_t length);

const char pb_wasm_service_shared[] = "patchbay.shared/1";

static uint32_t pbw_length(const char *text) { return text ? (uint32_t)strlen(text) : 0; }

static pb_status pbw_publish(const pb_host *host, const char *name, const uint8_t *value,
                             size_t length) {
  (void)host;
  return (pb_status)pbw_host_shared_publish(name, pbw_length(name), value, (uint32_t)length);
}

static pb_status pbw_subscribe(const pb_host *host, const char *name, const char *action) {
  (void)host;
  return (pb_status)pbw_host_shared_subscribe(name, pbw_length(name), action,
                                              pbw_length(action), action != NULL);
}

static pb_status pbw_hold(const pb_host *host, const char *name, const uint8_t *initial,
                          size_t length) {
  (void)host;
  return (pb_status)pbw_host_shared_hold(name, pbw_length(name), initial, (uint32_t)length);
}

static pb_status pbw_write(const pb_host *host, const char *name, const uint8_t *value,
                           size_t length) {
  (void)host;
  return (pb_status)pbw_host_shared_write(name, pbw_length(name), value, (uint32_t)length);
}

const pb_shared_service pbw_shared = {sizeof(pb_shared_service), pbw_publish, pbw_subscribe,
                                      pbw_hold, pbw_write};
