/*
 * addressed.c — a WebAssembly plugin exporting a function that returns a pointer: an address
 * in the module's own memory means nothing to the host, so the host refuses it at load.
 */
#include <patchbay.h>

static int32_t cell;

static void *address_of_cell(void) { return &cell; }

static const pb_function_desc address_desc = {sizeof(pb_function_desc), "address_of_cell",
                                              "pointer()", NULL, (void (*)(void))address_of_cell};
static const pb_function_desc *const functions[] = {&address_desc};

static const pb_plugin_desc plugin = {
    .magic = PATCHBAY_MAGIC,
    .abi_major = PATCHBAY_ABI_MAJOR,
    .abi_minor = PATCHBAY_ABI_MINOR,
    .struct_size = sizeof(pb_plugin_desc),
    .id = "dev.patchbay.addressed-plugin",
    .name = "Addressed",
    .version = "1.0.0",
    .function_count = 1,
    .functions = functions,
};

__attribute__((visibility("default"))) const pb_plugin_desc *patchbay_plugin_entry(
    pb_abi_version host_abi_major) {
  (void)host_abi_major;
  return &plugin;
}
