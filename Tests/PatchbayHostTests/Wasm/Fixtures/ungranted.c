/*
 * ungranted.c — a WebAssembly plugin that imports what the host does not give: the host must
 * refuse it at load, naming the import, before any of its code runs.
 */
#include <patchbay.h>
#include <patchbay/sdk.h>

__attribute__((import_module("env"), import_name("open_socket"))) int open_socket(int port);

/* Never called: its import alone is refused. */
__attribute__((export_name("connect_out"))) int connect_out(void) { return open_socket(80); }

PB_SDK_PLUGIN("dev.patchbay.ungranted-plugin", "Ungranted", "1.0.0")
