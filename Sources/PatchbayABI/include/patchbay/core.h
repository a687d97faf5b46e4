/*
 * patchbay/core.h — versions, status codes and the output writer.
 *
 * Part of the Patchbay plugin ABI. Include <patchbay.h>, not this file.
 */
#ifndef PATCHBAY_CORE_H
#define PATCHBAY_CORE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* "PBAY" in little-endian ASCII. Every plugin descriptor starts with it. */
#define PATCHBAY_MAGIC 0x59414250u

/*
 * The ABI version this header describes.
 *
 * MAJOR changes break compatibility: a host refuses a plugin of another major.
 * MINOR changes only append: new fields at the end of structs (found through each struct's
 * leading `struct_size`), new functions in vtables, new service ids. A host reads no field
 * past a struct's `struct_size`, so older plugins keep working with newer hosts.
 *
 * History: 2.0 gave features a realtime processor (patchbay/process.h, replacing 1.0's
 * never-called `process` slot in the vtable), added "patchbay.midi/1", and made
 * `abi_major`/`abi_minor` one type (pb_abi_version) everywhere. 2.1 appended exported
 * functions to pb_plugin_desc and added "patchbay.functions/1" (patchbay/functions.h). 2.2
 * specified the text grammar of values and added C helpers for it and for nil, lists, doubles
 * and tags (patchbay/value.h); no struct changed. 2.3 added "patchbay.shared/1"
 * (patchbay/shared.h) and MIDI a processor sends to the processors after it
 * (pb_processor_desc.max_midi_output, pb_process.midi_out), and pb_action_desc.sent_by.
 * 2.4 let effects live across a swap: "patchbay.effects/1" (patchbay/host.h), and the
 * optional pb_feature_vtable.cancel_effects_keyed and .resume_effects (a 2.3 vtable, without
 * them, still loads). 2.5 let effects live across an isolated plugin's crash: the optional
 * pb_feature_vtable.effect_origins and .restart_effects. 2.6 let any number of features hold
 * and write one shared value (TCA's @Shared between plugins): pb_shared_service.hold and
 * .write (patchbay/shared.h). 2.7 let a feature say what a reduce changed, so that showing
 * each action's change costs the change, not the state: the optional
 * pb_feature_vtable.changed_fields.
 */
#define PATCHBAY_ABI_MAJOR 2u
#define PATCHBAY_ABI_MINOR 7u

/* An ABI version number (a major or a minor), the one type every struct and call uses. */
typedef uint16_t pb_abi_version;

/*
 * Thread annotations, as in CLAP. Every function pointer in the ABI carries one:
 *
 * [main-thread]  Called from the host's serial app queue: never concurrently with another
 *                [main-thread] call into the same plugin, always in the order the host
 *                decided. Not necessarily the same OS thread each time.
 * [audio-thread] Called from the realtime audio thread. Must not lock, allocate, block, log
 *                or call back into the host, except the functions marked [audio-thread].
 * [thread-safe]  May be called from any thread, at any time, concurrently.
 */

/* Result of a call across the ABI. On failure the callee also reports a one-line reason
 * through the host's `error` function (see pb_host). */
typedef enum pb_status {
  PB_OK = 0,
  /* Bytes or text could not be decoded (an action, a state). */
  PB_ERR_DECODE = 1,
  /* An argument was out of range or NULL where not allowed. */
  PB_ERR_INVALID = 2,
  /* The callee does not support this (for example migrating from an unknown schema). */
  PB_ERR_UNSUPPORTED = 3,
  /* Anything else; the reported reason says what. */
  PB_ERR_FAILED = 4,
} pb_status;

/*
 * An output stream the caller provides; the callee writes its result into it.
 *
 * Used for every variable-size output (state bytes, rendered text, encoded actions), so no
 * buffer is ever freed by the other side's allocator. `write` returns how many bytes it took;
 * a short write is allowed and the writer is then full: the callee stops and returns
 * PB_ERR_FAILED. The writer is valid for the duration of the call it is passed to.
 */
typedef struct pb_writer {
  uint32_t struct_size; /* sizeof(pb_writer) */
  void *context;        /* The caller's; passed back to `write`. */
  /* [same thread as the call the writer was passed to] */
  size_t (*write)(void *context, const void *bytes, size_t length);
} pb_writer;

#ifdef __cplusplus
}
#endif

#endif /* PATCHBAY_CORE_H */
