/*
 * patchbay/feature.h — a feature: its description and the functions the host calls.
 *
 * Part of the Patchbay plugin ABI. Include <patchbay.h>, not this file.
 */
#ifndef PATCHBAY_FEATURE_H
#define PATCHBAY_FEATURE_H

#include "process.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * One field of an action: `by` in `setStep(by: 5)`.
 *
 * `type` is one of "int", "double", "bool", "string", and (2.3) "list", "record", "case" (the
 * value tags of patchbay/value.h).
 * Unlabeled fields are named "_0", "_1", ….
 */
typedef struct pb_field_desc {
  uint32_t struct_size;
  const char *name;
  const char *type;
} pb_field_desc;

/* One action a feature understands, for `inspect`, the CLI and parents. */
typedef struct pb_action_desc {
  uint32_t struct_size;
  const char *name;    /* "setStep" */
  const char *summary; /* One line for people; may be NULL. */
  uint32_t field_count; /* At most 64: hosts refuse more; each field non-NULL, named, typed. */
  const pb_field_desc *const *fields;
  /* (2.3) Who sends it, when people should not: "host" (MIDI, shared state), "processor",
   * "effect" (the feature's own); NULL for an action people send. `inspect` shows it; tools
   * that send actions on their own (a validator's fuzzing) leave these out. */
  const char *sent_by;
} pb_action_desc;

/*
 * The functions of a feature. The host calls them; every pointer carries its thread.
 *
 * Required (a host refuses a feature whose pointer is NULL, naming it): create, destroy,
 * reduce, snapshot, render, parse_action, format_action, cancel_effects. Optional (NULL when
 * absent): migrate, running_effects, cancel_effects_keyed, resume_effects (these two from
 * ABI 2.4: a vtable whose struct_size ends before them has neither), effect_origins and
 * restart_effects (from ABI 2.5), changed_fields (from ABI 2.7).
 *
 * Every call that fails returns a pb_status other than PB_OK after reporting one line
 * through `host->error`, and leaves the instance as it was: the host keeps running it.
 *
 * Functions without an instance receive their feature's descriptor first, as `this`, so one
 * implementation can serve several features.
 *
 * Instances are opaque to the host (`void *instance`). State crosses the ABI only as bytes in
 * the value encoding (patchbay/value.h), so any version of a feature can restore any other
 * version's snapshot through `migrate`.
 */
typedef struct pb_feature_desc pb_feature_desc;

typedef struct pb_feature_vtable {
  uint32_t struct_size;

  /* [main-thread] Creates an instance of `feature` (the descriptor this vtable belongs to):
   * from the feature's initial state when `state` is NULL, else from snapshot bytes of this
   * feature's current schema. Returns NULL on failure, after reporting why through
   * `host->error` (out of memory included: a NULL without a reason leaves the user guessing).
   *
   * `host` stays valid until `destroy` returns; keep it for `send`, `log` and services. Calls
   * through it after `destroy` (or, for `send`, after `cancel_effects`) are dropped: this host
   * keeps the table mapped so a late effect thread does not crash, but a plugin must stop its
   * threads in `cancel_effects` and `destroy` rather than rely on that. */
  void *(*create)(const pb_feature_desc *feature, const pb_host *host,
                  const uint8_t *state, size_t length);

  /* [main-thread] Cancels the instance's effects and frees it. After it returns, no thread of
   * the plugin may use the instance or its `host`. */
  void (*destroy)(void *instance);

  /* [main-thread] Applies an encoded action. Effects the reducer starts run inside the plugin
   * and send their actions back through `host->send`, which may be called from here too: the
   * action is queued, never reduced before this call returns. On PB_ERR_DECODE (an action
   * this feature does not know, or malformed bytes) the state is unchanged. */
  pb_status (*reduce)(void *instance, const uint8_t *action, size_t length);

  /* [main-thread] Writes the state, in the value encoding, to `out`. */
  pb_status (*snapshot)(void *instance, const pb_writer *out);

  /* [main-thread] Writes the state as text for people (the view) to `out`: UTF-8, lines. */
  pb_status (*render)(void *instance, const pb_writer *out);

  /* [thread-safe] Turns the text form of an action (`setStep(by: 5)`) into its encoding.
   * The text follows the grammar of patchbay/value.h; `pb_parse_action_text` reads it. A
   * feature should refuse here (PB_ERR_DECODE, with a reason) what `reduce` would refuse. */
  pb_status (*parse_action)(const pb_feature_desc *feature, const pb_host *host,
                            const char *text, size_t length, const pb_writer *out);

  /* [thread-safe] Turns an encoded action into its text form (`pb_format_value_text` writes
   * it), which `parse_action` reads back to the same bytes. */
  pb_status (*format_action)(const pb_feature_desc *feature, const pb_host *host,
                             const uint8_t *action, size_t length, const pb_writer *out);

  /* [main-thread] Cancels every effect the instance is running; later sends from them are
   * dropped. The state is kept. */
  void (*cancel_effects)(void *instance);

  /* [main-thread] Optional (NULL when absent). Turns snapshot bytes of schema `from_schema`
   * into bytes of this feature's schema, written to `out`. It runs in both directions:
   * `from_schema` is older on an upgrade, and newer when a user swaps back to an older build
   * (a downgrade); a feature that cannot go back returns PB_ERR_UNSUPPORTED with a reason, and
   * the host keeps the running instance. Without `migrate`, a swap between schemas fails
   * the same way. */
  pb_status (*migrate)(const pb_feature_desc *feature, const pb_host *host,
                       uint32_t from_schema, const uint8_t *state, size_t length,
                       const pb_writer *out);

  /* [thread-safe] Optional (NULL when the feature starts no effects). How many of the
   * instance's effects are still running. With the host's queue empty, 0 means the instance
   * is quiet: nothing more will arrive through `host->send` until the host sends again. */
  uint32_t (*running_effects)(void *instance);

  /* Effects across a swap (ABI 2.4). When a swap (or a rollback) gives an instance new code,
   * the host keeps the old code's instance alive while its effects run, and their actions go
   * to the new code: a timer keeps ticking. When the new code cancels an id ("patchbay.effects/1"
   * `cancelled`), the host cancels it in the old one too, through `cancel_effects_keyed`. */

  /* [main-thread] Optional. Cancels the instance's effects filed under `key`: the stable text
   * of a cancellation id, as a later generation of the instance gave it to `cancelled`. */
  void (*cancel_effects_keyed)(void *instance, const char *key, size_t length);

  /* [main-thread] Optional. The instance was created from another generation's state (a
   * swap, a rollback, a restart after a crash): start the long-lived effects its state calls
   * for (the tick of a running timer). PB_OK: it did, and the host cancels the old
   * generation's effects instead of keeping them. PB_ERR_UNSUPPORTED: it has none to start,
   * and the old generation's effects go on. Actions it sends are queued as from `reduce`. */
  pb_status (*resume_effects)(void *instance);

  /* Effects after a crash (ABI 2.5). An isolated plugin's crash ends its process, and the
   * effects running in it. For each action whose effects still run, the host keeps the state
   * the action was reduced on; the new process reduces the action again on a copy of that
   * state and starts only the effects that were still running: a timer keeps ticking, and
   * nothing that finished runs twice. A feature with `resume_effects` is resumed instead.
   *
   * Calls to `reduce` and `restart_effects` on an instance are numbered from 1. An action's
   * effects are numbered from 0 in the order its reducer's effect lists them: each `run` and
   * each concatenation is one; a merge or a cancellable is not. */

  /* [main-thread] Optional. Writes to `out` the instance's actions whose effects still run,
   * as little-endian integers: u64 the number of the last call, u32 the count of actions, and
   * for each, u64 its call's number, u32 the count of its effects still running, and each
   * effect's u32 number. With no effect running: the number and a 0. */
  pb_status (*effect_origins)(void *instance, const pb_writer *out);

  /* [main-thread] Optional. Starts again the effects `effects` (numbered as in
   * effect_origins) that `action` started when it was reduced on `state` (snapshot bytes of
   * this feature's schema). The reducer runs on a copy of `state`, which is dropped: the
   * instance's state is not changed, and nothing it sends, requests or cancels happens again.
   * The call is numbered as a `reduce` is; its effects are filed under its own number. */
  pb_status (*restart_effects)(void *instance, const uint8_t *state, size_t state_length,
                               const uint8_t *action, size_t action_length,
                               const uint32_t *effects, size_t effect_count);

  /* [main-thread] Optional (ABI 2.7). Right after a `reduce`, writes what changed in a state
   * that is a record since the previous `reduce` returned (by this one, or between the two: a
   * shared value the host delivered): a record of the top-level fields that changed, each
   * with its value now, encoded as `snapshot` encodes it (an empty record: nothing changed).
   * A field it leaves out must be as the previous `reduce` left it. A host calls it in place
   * of `snapshot` to say what each action changed (`patchbay run --print-changes`), so that
   * the cost is the change's, not the state's: one counter changed in a 100 MB state writes
   * one field. PB_ERR_UNSUPPORTED: the host takes a snapshot instead, as it does without the
   * function. Example: after `touch` bumps `count`, write {count: 2}. */
  pb_status (*changed_fields)(void *instance, const pb_writer *out);
} pb_feature_vtable;

/* A feature a plugin provides. */
struct pb_feature_desc {
  uint32_t struct_size;
  const char *id;      /* Reverse-DNS, unique among loaded plugins: "dev.patchbay.counter". */
  const char *name;    /* For people: "Counter". */
  const char *summary; /* One line for people; may be NULL. */
  uint32_t state_schema_version; /* Bumped when the state's encoding changes. */
  uint32_t action_count; /* At most 1024; each action non-NULL and named. */
  const pb_action_desc *const *actions;
  const pb_feature_vtable *vtable;
  /* The feature's realtime half (patchbay/process.h); NULL for a feature without sound. */
  const pb_processor_desc *processor;
};

#ifdef __cplusplus
}
#endif

#endif /* PATCHBAY_FEATURE_H */
