/*
 * patchbay.h — the Patchbay plugin ABI.
 *
 * The one contract between a Patchbay host and its plugins. A plugin is a shared library
 * exporting one function, `patchbay_plugin_entry` (patchbay/plugin.h), which returns a static
 * descriptor of the plugin and its features (patchbay/feature.h). The host calls each
 * feature's functions to create instances, reduce actions, snapshot and render state; the
 * plugin calls back through the host table (patchbay/host.h). Actions and state cross as
 * bytes in a small self-describing encoding (patchbay/value.h).
 *
 * Rules (learned from CLAP, LV2, OBS, PostgreSQL and SQLite):
 * - Magic and versions first; the host refuses another ABI major and reads no field past a
 *   struct's `struct_size`. Structs only grow, at the end.
 * - Every function is annotated [main-thread], [audio-thread] or [thread-safe] (core.h).
 * - Whoever allocates frees. Borrowed (pointer, length) arguments live for the call only;
 *   outputs go through pb_writer, so no buffer is freed by the other side's allocator.
 * - Errors cross as pb_status plus one line through `host->error`. No exception, Swift trap
 *   or longjmp crosses the boundary.
 * - Hosts never unload a plugin; a new build is loaded as a new generation from a copy of the
 *   file, and state moves between generations only as bytes.
 *
 * A minimal plugin in C: Plugins/Echo/echo.c in the Patchbay repository.
 */
#ifndef PATCHBAY_H
#define PATCHBAY_H

#include "patchbay/core.h"
#include "patchbay/host.h"
#include "patchbay/process.h"
#include "patchbay/shared.h"
#include "patchbay/functions.h"
#include "patchbay/feature.h"
#include "patchbay/plugin.h"
#include "patchbay/value.h"

#endif /* PATCHBAY_H */
