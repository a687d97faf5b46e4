/*
 * functions.c — "patchbay.functions/1" inside a WebAssembly plugin: it calls other plugins'
 * functions (patchbay/functions.h), native or wasm, as a native plugin does.
 *
 * Linked only into a module whose source names PB_SERVICE_FUNCTIONS, so only such a module
 * imports patchbay.resolve, which host-config must grant ([sandbox] "Mine.wasm" =
 * ["functions"]).
 */
#include <patchbay.h>

#include <stdint.h>
#include <string.h>

__attribute__((import_module("patchbay"), import_name("resolve"))) uint32_t pbw_host_resolve(
    const char *provider, uint32_t provider_length, const char *name, uint32_t name_length,
    const char *signature, uint32_t signature_length);

const char pb_wasm_service_functions[] = "patchbay.functions/1";

/* The host puts a function of the signature's wasm type into this module's table (it grows by
 * one) and answers its index, which is what a C function pointer is in wasm32; 0 (NULL) after
 * saying why through error. */
static void (*pbw_resolve(const pb_host *host, const char *provider, const char *name,
                          const char *signature))(void) {
  (void)host;
  if (!provider || !name || !signature) return NULL;
  uint32_t index = pbw_host_resolve(provider, (uint32_t)strlen(provider), name,
                                    (uint32_t)strlen(name), signature, (uint32_t)strlen(signature));
  return (void (*)(void))(uintptr_t)index;
}

const pb_functions_service pbw_functions = {sizeof(pb_functions_service), pbw_resolve};
