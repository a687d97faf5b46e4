/*
 * navigation.c — "patchbay.navigation/1" inside a WebAssembly plugin: it asks the app to push,
 * present, pop or dismiss, as a native plugin does.
 *
 * Linked only into a module whose source names PB_SERVICE_NAVIGATION, so only such a module
 * imports patchbay.navigate, which host-config must grant ([sandbox] "Mine.wasm" =
 * ["navigation"]).
 */
#include <patchbay.h>

#include <string.h>

__attribute__((import_module("patchbay"), import_name("navigate"))) void pbw_host_navigate(
    uint32_t kind, const char *node, uint32_t node_length, const uint8_t *state,
    uint32_t state_length, uint32_t has_state);

const char pb_wasm_service_navigation[] = "patchbay.navigation/1";

static void pbw_navigate(const pb_host *host, pb_navigation_kind kind, const char *node,
                         const uint8_t *state, size_t length) {
  (void)host;
  pbw_host_navigate((uint32_t)kind, node, node ? (uint32_t)strlen(node) : 0, state,
                    state ? (uint32_t)length : 0, state != NULL);
}

const pb_navigation_service pbw_navigation = {sizeof(pb_navigation_service), pbw_navigate};
