/*
 * patchbay/shared.h — "patchbay.shared/1": state one feature publishes and others read,
 * without importing each other.
 *
 * Part of the Patchbay plugin ABI. Include <patchbay.h>, not this file.
 *
 * The Metronome publishes its transport; the Drums follow it without knowing which plugin
 * keeps time:
 *
 *   Metronome, after every action:    shared->publish(host, "transport", value, length)
 *                                      value: {tempo: 120.0, running: true, run: 3, ...}
 *   Drums, in create:                 shared->subscribe(host, "transport", "transport")
 *   Drums' reducer then receives:     transport(_: {tempo: 120.0, running: true, run: 3, ...})
 *
 * The rules:
 *
 *   Who may publish.  A name has one owner: the first instance to publish it. Another
 *     instance's publish of that name is refused (PB_ERR_INVALID, with a line through
 *     host->error naming the owner). The name is free again when its owner is destroyed; the
 *     last value stays readable. A swap keeps the owner (the instance is the same).
 *   How a reader is told.  A subscriber receives the value as an action of its own: the case
 *     it named, with the value as its one unlabeled field (`transport(_: value)`, in Swift
 *     `case transport(Transport)`). It gets the current value right after it subscribes (when
 *     one is published), then each changed value after the action that published it, before
 *     any later action reaches the publisher. Publishing the same bytes again tells no one.
 *     These actions go through the app queue like any other: recorded, replayed, tested.
 *   What the audio thread sees.  Nothing new, and so nothing that locks: a reader's processor
 *     sees shared state through its own parameter block, which the host writes after the
 *     reader's reducer took the value (process.h, channel 1). Offline, publisher and readers
 *     reduce between the same two periods, so their processors see a change in the same
 *     period; live, a reader's block follows at most one period later.
 *
 * Holders (2.6), TCA's @Shared between plugins.  A name nobody publishes may have any number
 *   of holders, each of which may write it. `hold` makes an instance a holder: when the name
 *   has no value yet, the holder's `initial` becomes it; else the holder receives the value,
 *   right after the call, when it differs from `initial`. A holder receives each value another
 *   holder writes (or the publisher publishes) as the action
 *       _shared(name: "tally", value: 3)
 *   which is recorded, replayed and tested like any other action. Writes are ordered on the
 *   app queue: the last one wins, and every holder and reader is told each one, in order,
 *   before anything later reaches the writer. Writing the value the name has tells no one. A
 *   name a live instance publishes, or a `host.` name, may be held (to read it) but not
 *   written. Holding ends when the instance is destroyed; a swap keeps it.
 *
 * Compared with TCA's @Shared: there, any holder may mutate a reference, and readers see it
 * change under them. With `publish`, the publisher alone writes; with `hold`, any holder does.
 * Either way the others get each change as an action, so their tests send the value as they
 * would send any action, and a recording replays what each one saw. The Swift SDK does this
 * for `@Shared(.inMemory("tally"))` of a Codable value.
 */
#ifndef PATCHBAY_SHARED_H
#define PATCHBAY_SHARED_H

#include "host.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__wasm__)
extern const char pb_wasm_service_shared[]; /* as PB_SERVICE_MIDI in host.h */
#define PB_SERVICE_SHARED pb_wasm_service_shared
#else
#define PB_SERVICE_SHARED "patchbay.shared/1"
#endif

typedef struct pb_shared_service {
  uint32_t struct_size;
  /* [main-thread] Publishes `value` (value encoding, any value) under `name` (1 to 64 ASCII
   * letters, digits, '.', '-' or '_'). Call it from create or reduce; readers are told after
   * that call returns. PB_OK, or PB_ERR_INVALID for a bad name or a name another instance owns
   * (the host says which). */
  pb_status (*publish)(const pb_host *host, const char *name, const uint8_t *value,
                       size_t length);
  /* [main-thread] From now on this instance receives `name`'s value as the action
   * `action(_: value)`. Call it from create. Subscribing again replaces `action`; NULL stops
   * the subscription. PB_OK, or PB_ERR_INVALID for a bad name. */
  pb_status (*subscribe)(const pb_host *host, const char *name, const char *action);

  /* 2.6 (a host before 2.6 has a smaller struct_size: check it) */

  /* [main-thread] Makes this instance a holder of `name`, whose value is `initial` (value
   * encoding) unless the name has one. Call it from create or reduce. PB_OK, or
   * PB_ERR_INVALID for a bad name or a value that does not decode. */
  pb_status (*hold)(const pb_host *host, const char *name, const uint8_t *initial,
                    size_t length);
  /* [main-thread] Writes `value` (value encoding) under `name`, which this instance holds.
   * Call it from create or reduce; holders and readers are told after that call returns.
   * PB_OK, or PB_ERR_INVALID for a bad name, a name it does not hold, or a name a live
   * instance publishes (the host says which). */
  pb_status (*write)(const pb_host *host, const char *name, const uint8_t *value,
                     size_t length);
} pb_shared_service;

#ifdef __cplusplus
}
#endif

#endif /* PATCHBAY_SHARED_H */
