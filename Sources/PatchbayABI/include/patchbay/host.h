/*
 * patchbay/host.h — what the host gives a plugin: services, sending, errors, logging.
 *
 * Part of the Patchbay plugin ABI. Include <patchbay.h>, not this file.
 */
#ifndef PATCHBAY_HOST_H
#define PATCHBAY_HOST_H

#include "core.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum pb_log_level {
  PB_LOG_DEBUG = 0,
  PB_LOG_INFO = 1,
  PB_LOG_WARNING = 2,
  PB_LOG_ERROR = 3,
} pb_log_level;

/* Service ids a host may offer through `get_service`. Each names a table whose layout is
 * fixed for that version; a new version gets a new id ("patchbay.log/2"). */
#define PB_SERVICE_LOG "patchbay.log/1"
#define PB_SERVICE_AUDIO "patchbay.audio/1"
#define PB_SERVICE_EFFECTS "patchbay.effects/1"
#if defined(__wasm__)
/* In a plugin built as WebAssembly (wasm-cc), each of these names the id kept by its
 * service's guest half (Sources/PatchbayWasmGuest/services/), so that the module links that
 * half, and imports its host calls, only when its source asks for the service: what a wasm
 * plugin may do is exactly what it imports ([sandbox] grants it, docs/WASM.md). The text is
 * the same; pass the macro, not a literal, to get_service. */
extern const char pb_wasm_service_clock[], pb_wasm_service_midi[], pb_wasm_service_functions[],
    pb_wasm_service_navigation[];
#define PB_SERVICE_CLOCK pb_wasm_service_clock
#define PB_SERVICE_MIDI pb_wasm_service_midi
#define PB_SERVICE_FUNCTIONS pb_wasm_service_functions
#define PB_SERVICE_NAVIGATION pb_wasm_service_navigation
#else
#define PB_SERVICE_CLOCK "patchbay.clock/1"
#define PB_SERVICE_MIDI "patchbay.midi/1"
#define PB_SERVICE_FUNCTIONS "patchbay.functions/1"
#define PB_SERVICE_NAVIGATION "patchbay.navigation/1"
#endif

typedef struct pb_host pb_host;

/* "patchbay.clock/1": monotonic time. */
typedef struct pb_clock_service {
  uint32_t struct_size;
  /* [thread-safe][audio-thread] Nanoseconds of CLOCK_MONOTONIC. */
  uint64_t (*now_ns)(void);
} pb_clock_service;

/* "patchbay.midi/1": MIDI input for a feature instance.
 *
 * A listening instance's reducer gets each MIDI message as an action (value encoding) through
 * the app queue, in the order the messages arrived:
 *
 *   midi(noteOn(channel: 1, note: 60, velocity: 100))      channels are 1–16
 *   midi(noteOff(channel: 1, note: 60, velocity: 0))       also a note-on with velocity 0
 *   midi(controlChange(channel: 1, controller: 7, value: 100))
 *   midi(programChange(channel: 1, program: 5))
 *   midi(pitchBend(channel: 1, value: -8192))              -8192 to 8191
 *   midi(channelPressure(channel: 1, pressure: 64))
 *   midi(polyPressure(channel: 1, note: 60, pressure: 64))
 *   midi(start)   midi(stop)   midi(continue)
 *
 * and its processor, if it has one, gets the same messages as pb_midi_events at their frames
 * (patchbay/process.h). */
typedef struct pb_midi_service {
  uint32_t struct_size;
  /* [main-thread] From now on, messages on the channels in `channel_mask` (bit 0 = channel 1;
   * 0xFFFF: all) and system start/stop/continue reach this instance; 0 stops them. */
  void (*listen)(const pb_host *host, uint16_t channel_mask);
} pb_midi_service;

#define PB_MIDI_ALL_CHANNELS 0xFFFFu

/* What a navigation request asks for. */
typedef enum pb_navigation_kind {
  PB_NAVIGATE_PUSH = 0,
  PB_NAVIGATE_POP = 1,
  PB_NAVIGATE_POP_TO_ROOT = 2,
  PB_NAVIGATE_PRESENT = 3,
  PB_NAVIGATE_DISMISS = 4,
} pb_navigation_kind;

/* "patchbay.navigation/1": features ask the host to navigate; they never navigate directly. */
typedef struct pb_navigation_service {
  uint32_t struct_size;
  /* [thread-safe] Asks the host to navigate. For push and present, `node` names a feature of
   * the app's config ("results") and `state` (value encoding, may be NULL) the new instance's
   * initial state; both are ignored for the other kinds. Copied before return; applied after
   * the action being reduced, never during it. A refused request is logged by the host. */
  void (*navigate)(const pb_host *host, pb_navigation_kind kind, const char *node,
                   const uint8_t *state, size_t length);
} pb_navigation_service;

/* "patchbay.effects/1" (ABI 2.4): effects that outlive their code. After a swap the old
 * code's instance goes on running its effects (see pb_feature_vtable.cancel_effects_keyed);
 * these calls let the new code reach them. Keys are the stable text of a cancellation id
 * (the SDK uses the id's type name and value: "Timer.CancelID.tick"). */
typedef struct pb_effects_service {
  uint32_t struct_size;
  /* [thread-safe] How many generations of this instance the host runs, this one included:
   * 1, or more after a swap while an earlier generation's effects run. At 1, `cancelled` and
   * `send_from` have nothing to do (a plugin may skip making keys, and use `host->send`). */
  uint32_t (*generations)(const pb_host *host);
  /* [thread-safe] The instance cancelled its effects filed under `key` (`.cancel(id:)`, or a
   * cancel-in-flight): the host cancels the same key in the earlier generations. */
  void (*cancelled)(const pb_host *host, const char *key, size_t length);
  /* [thread-safe] `host->send` from an effect filed under `keys` (newline-separated): when
   * the action reaches code that no longer has it, the host cancels those effects and names
   * them and the action in its log, once. */
  void (*send_from)(const pb_host *host, const char *keys, size_t keys_length,
                    const uint8_t *action, size_t length);
} pb_effects_service;

/*
 * The host, as one feature instance sees it.
 *
 * The host passes one to `create` (for that instance, valid until `destroy` returns) and to
 * the instance-free calls (`parse_action`, `format_action`, `migrate`; valid for the call).
 * The plugin keeps the pointer; it never copies or frees the struct.
 */
struct pb_host {
  uint32_t struct_size; /* sizeof(pb_host) at the host's ABI version */
  pb_abi_version abi_major;
  pb_abi_version abi_minor;
  void *host_data; /* The host's; the plugin must not touch it. */

  /* [thread-safe] The table of a service by versioned id, or NULL when the host does not
   * offer it. The table lives as long as the host. */
  const void *(*get_service)(const struct pb_host *host, const char *service_id);

  /* [thread-safe] Sends an encoded action (see patchbay/value.h) to this instance through the
   * host's queue: it is reduced later, in order with everything else the host queues. The
   * bytes are copied before `send` returns.
   *
   * It never re-enters the plugin: called from inside `reduce` (or any other call), the
   * action waits until that call has returned. It never waits for the queue either, only for
   * a short lock while it appends, so it is not for the [audio-thread] (a processor pushes
   * output events instead, patchbay/process.h). Does nothing after the instance was destroyed
   * or its effects cancelled. */
  void (*send)(const struct pb_host *host, const uint8_t *action, size_t length);

  /* [thread-safe] Reports why the current call failed: one line, UTF-8, naming what was
   * wrong and what to do. Copied before return. */
  void (*error)(const struct pb_host *host, const char *message);

  /* [thread-safe] Writes a line to the host's log. Copied before return. */
  void (*log)(const struct pb_host *host, pb_log_level level, const char *message);
};

#ifdef __cplusplus
}
#endif

#endif /* PATCHBAY_HOST_H */
