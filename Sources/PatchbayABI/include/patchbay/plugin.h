/*
 * patchbay/plugin.h — the plugin descriptor and the one exported function.
 *
 * Part of the Patchbay plugin ABI. Include <patchbay.h>, not this file.
 */
#ifndef PATCHBAY_PLUGIN_H
#define PATCHBAY_PLUGIN_H

#include "feature.h"
#include "functions.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * What a plugin library contains. Static, `const`, alive as long as the library is loaded
 * (hosts never unload plugins).
 *
 * The first four fields are fixed forever, so a host can check any descriptor: `magic` is
 * PATCHBAY_MAGIC, `abi_major`/`abi_minor` are the PATCHBAY_ABI_* the plugin was built with,
 * and `struct_size` is sizeof(pb_plugin_desc) at that version.
 */
typedef struct pb_plugin_desc {
  uint32_t magic;
  pb_abi_version abi_major;
  pb_abi_version abi_minor;
  uint32_t struct_size;

  const char *id;      /* Reverse-DNS: "dev.patchbay.counter-plugin". */
  const char *name;    /* For people: "Counter". */
  const char *version; /* Semantic version of the plugin: "1.2.0". */
  uint32_t feature_count; /* At most 64: hosts refuse more. */
  const pb_feature_desc *const *features;

  /* Since 2.1 (a 2.0 descriptor ends before them): plain C functions the plugin exports
   * (patchbay/functions.h). 0 and NULL for none. */
  uint32_t function_count; /* At most 1024. */
  const pb_function_desc *const *functions;
} pb_plugin_desc;

/* The name of the one function a plugin library exports. */
#define PATCHBAY_PLUGIN_ENTRY "patchbay_plugin_entry"

/*
 * [main-thread] The plugin's entry point.
 *
 * Returns the plugin's descriptor, or NULL when the plugin cannot start at all. On an ABI
 * mismatch (`host_abi_major` is not the PATCHBAY_ABI_MAJOR the plugin was built with), return
 * the descriptor all the same: the host compares `abi_major` itself and tells the user both
 * versions and what to rebuild; from a NULL it can only say that the plugin refused. Called
 * once per load; must not allocate anything the host would have to free. A function, not a
 * data symbol, because only functions are guaranteed through dlsym.
 */
typedef const pb_plugin_desc *(*pb_plugin_entry_fn)(pb_abi_version host_abi_major);

#ifdef __cplusplus
}
#endif

#endif /* PATCHBAY_PLUGIN_H */
