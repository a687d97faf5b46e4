/*
 * A test fixture: a plugin that breaks one rule of the ABI, chosen by the name of the file it
 * was loaded from (tests copy libTestFixtureMisbehaving.so to `<mode>.so` or `lib<mode>.so`):
 *
 *   null          patchbay_plugin_entry returns NULL
 *   magic         the descriptor has the wrong magic
 *   abi           the descriptor claims the next ABI major
 *   small         pb_plugin_desc.struct_size is too small
 *   smallfeature  pb_feature_desc.struct_size is too small
 *   noreduce      the vtable's reduce is NULL
 *   vtable23      a vtable built against ABI 2.3: it ends before cancel_effects_keyed
 *   smallvtable   pb_feature_vtable.struct_size is too small
 *   duplicate     two features share an id
 *   counterid     declares dev.patchbay.counter, as the Counter plugin does
 *   createfails   create reports an error and returns NULL
 *   counterschema3
 *                 dev.patchbay.counter with state schema 3 and no migrate (swap refuses)
 *   countermigratefails
 *                 dev.patchbay.counter, schema 3, whose migrate reports an error
 *   countercreatefails
 *                 dev.patchbay.counter, schema 1, whose create refuses any restored state
 *   refuses       dev.patchbay.fixture-refuses: reduce reports an error and fails, always
 *   navigatesnowhere
 *                 dev.patchbay.fixture-navigates: reduce asks the host to push node "nowhere"
 *   counterbadstate
 *                 dev.patchbay.counter whose snapshot writes bytes that are not a value
 *   errorlater    dev.patchbay.fixture-errors-later: the first reduce logs, succeeds, and starts
 *                 a thread that reports an error 20 ms later (outside any call); every later
 *                 reduce fails with "this action is refused"
 *   escapes       names and summaries full of terminal escape sequences
 *   entryspins    patchbay_plugin_entry never returns: it spins
 *   crashes       reduce dereferences NULL; so does parse_action, given "explode"
 *   huge          dev.patchbay.fixture-huge: state and view as large as told (sizes.c)
 *   hugesnapshots the same without changed_fields: its changes diffed from snapshots
 *   hugeactioncount, hugefeaturecount, hugefunctioncount, nullactions, unnamedaction,
 *   smallaction, unnamedfield
 *                 counts and structs the loader must refuse before it walks them
 *   chattyprocessor, emptyprocessor, bigevents, bigparameters, noparameterwriter, noprocess
 *                 processors (processors.c)
 *   numbered<N>   a valid plugin whose ids carry the file's name (dev.patchbay.fixture.numbered7,
 *                 dev.patchbay.fixture.numbered7-plugin), so copies of one build are distinct
 *                 C plugins: the growth benchmarks load hundreds
 *   abi20, theorylite, badsignature, twofunctions
 *                 a 2.0-sized descriptor; exported functions, one whose signature is broken,
 *                 two exported under one name
 *   anything else a valid plugin with feature dev.patchbay.fixture
 */
#define _GNU_SOURCE
#include <patchbay.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <dlfcn.h>
#include <pthread.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"

static int dummy_state;
/* The host of the last instance created: the fixtures keep one instance at a time. */
static const pb_host *last_host;

static void *fixture_create(const pb_feature_desc *feature, const pb_host *host,
                            const uint8_t *state, size_t length) {
  (void)state, (void)length;
  last_host = host;
  if (strcmp(feature->id, "dev.patchbay.fixture-create-fails") == 0) {
    host->error(host, "dev.patchbay.fixture-create-fails: the fixture always refuses to start");
    return NULL;
  }
  if (feature->vtable->migrate == NULL && feature->state_schema_version == 1 && state != NULL &&
      length > 0 && strcmp(feature->id, "dev.patchbay.counter") == 0 && feature->summary &&
      strcmp(feature->summary, "refuses restored state") == 0) {
    host->error(host, "the fixture refuses every restored state");
    return NULL;
  }
  return &dummy_state;
}
static void fixture_destroy(void *instance) { (void)instance; }
static pb_status fixture_reduce(void *instance, const uint8_t *action, size_t length) {
  (void)instance, (void)action, (void)length;
  return PB_OK;
}
static pb_status fixture_reduce_refuses(void *instance, const uint8_t *action, size_t length) {
  (void)instance, (void)action, (void)length;
  last_host->error(last_host, "the fixture refuses every action");
  return PB_ERR_FAILED;
}
static pb_status fixture_reduce_navigates(void *instance, const uint8_t *action, size_t length) {
  (void)instance, (void)action, (void)length;
  const pb_navigation_service *navigation = last_host->get_service(last_host, PB_SERVICE_NAVIGATION);
  if (navigation) navigation->navigate(last_host, PB_NAVIGATE_PUSH, "nowhere", NULL, 0);
  return PB_OK;
}
static void *report_late_error(void *unused) {
  (void)unused;
  struct timespec pause = {0, 20 * 1000 * 1000};
  nanosleep(&pause, NULL);
  last_host->error(last_host, "a late error from an effect thread");
  return NULL;
}
static pb_status fixture_reduce_errors_later(void *instance, const uint8_t *action,
                                             size_t length) {
  (void)instance, (void)action, (void)length;
  static int reduced;
  if (reduced++ == 0) {
    last_host->log(last_host, PB_LOG_WARNING, "the first action starts a late error");
    pthread_t thread;
    if (pthread_create(&thread, NULL, report_late_error, NULL) == 0) pthread_detach(thread);
    return PB_OK;
  }
  last_host->error(last_host, "this action is refused");
  return PB_ERR_FAILED;
}
/* A NULL dereference, as a buggy plugin makes one. */
static pb_status fixture_reduce_crashes(void *instance, const uint8_t *action, size_t length) {
  (void)instance, (void)action, (void)length;
  volatile int *nowhere = NULL;
  return (pb_status)*nowhere;
}
/* The same, while parsing the text "explode" (any other text parses to noop). */
static pb_status fixture_parse_crashes(const pb_feature_desc *feature, const pb_host *host,
                                       const char *text, size_t length, const pb_writer *out) {
  (void)feature, (void)host;
  volatile int *nowhere = NULL;
  if (length == 7 && !memcmp(text, "explode", 7)) return (pb_status)*nowhere;
  return pb_write_case(out, "noop", 0) ? PB_ERR_FAILED : PB_OK;
}
static pb_status fixture_snapshot(void *instance, const pb_writer *out) {
  (void)instance;
  return pb_write_record(out, 0) ? PB_ERR_FAILED : PB_OK;
}
static pb_status fixture_snapshot_garbage(void *instance, const pb_writer *out) {
  (void)instance;
  static const uint8_t garbage[] = {0xFF, 0x00};
  return out->write(out->context, garbage, sizeof garbage) == sizeof garbage ? PB_OK
                                                                             : PB_ERR_FAILED;
}
static pb_status fixture_render(void *instance, const pb_writer *out) {
  (void)instance;
  return out->write(out->context, "fixture", 7) == 7 ? PB_OK : PB_ERR_FAILED;
}
static pb_status fixture_parse(const pb_feature_desc *feature, const pb_host *host,
                               const char *text, size_t length, const pb_writer *out) {
  (void)feature, (void)host, (void)text, (void)length;
  return pb_write_case(out, "noop", 0) ? PB_ERR_FAILED : PB_OK;
}
static pb_status fixture_format(const pb_feature_desc *feature, const pb_host *host,
                                const uint8_t *action, size_t length, const pb_writer *out) {
  (void)feature, (void)host, (void)action, (void)length;
  return out->write(out->context, "noop", 4) == 4 ? PB_OK : PB_ERR_FAILED;
}
static void fixture_cancel(void *instance) { (void)instance; }
static pb_status fixture_migrate_fails(const pb_feature_desc *feature, const pb_host *host,
                                       uint32_t from_schema, const uint8_t *state, size_t length,
                                       const pb_writer *out) {
  (void)feature, (void)from_schema, (void)state, (void)length, (void)out;
  host->error(host, "the fixture cannot migrate any state");
  return PB_ERR_FAILED;
}

const pb_feature_vtable fixture_vtable = {
    sizeof(pb_feature_vtable), fixture_create, fixture_destroy, fixture_reduce, fixture_snapshot,
    fixture_render, fixture_parse, fixture_format, fixture_cancel, NULL, NULL};
static const pb_feature_vtable vtable_migrate_fails = {
    sizeof(pb_feature_vtable), fixture_create, fixture_destroy, fixture_reduce, fixture_snapshot,
    fixture_render, fixture_parse, fixture_format, fixture_cancel, fixture_migrate_fails, NULL};
static const pb_feature_vtable vtable_crashes = {
    sizeof(pb_feature_vtable), fixture_create, fixture_destroy, fixture_reduce_crashes,
    fixture_snapshot, fixture_render, fixture_parse_crashes, fixture_format, fixture_cancel, NULL,
    NULL};
static const pb_feature_vtable vtable_refuses = {
    sizeof(pb_feature_vtable), fixture_create, fixture_destroy, fixture_reduce_refuses,
    fixture_snapshot, fixture_render, fixture_parse, fixture_format, fixture_cancel, NULL, NULL};
static const pb_feature_vtable vtable_navigates = {
    sizeof(pb_feature_vtable), fixture_create, fixture_destroy, fixture_reduce_navigates,
    fixture_snapshot, fixture_render, fixture_parse, fixture_format, fixture_cancel, NULL, NULL};
static const pb_feature_vtable vtable_errors_later = {
    sizeof(pb_feature_vtable), fixture_create, fixture_destroy, fixture_reduce_errors_later,
    fixture_snapshot, fixture_render, fixture_parse, fixture_format, fixture_cancel, NULL, NULL};
static const pb_feature_vtable vtable_bad_state = {
    sizeof(pb_feature_vtable), fixture_create, fixture_destroy, fixture_reduce,
    fixture_snapshot_garbage, fixture_render, fixture_parse, fixture_format, fixture_cancel, NULL,
    NULL};
static const pb_feature_vtable vtable_no_reduce = {
    sizeof(pb_feature_vtable), fixture_create, fixture_destroy, NULL, fixture_snapshot,
    fixture_render, fixture_parse, fixture_format, fixture_cancel, NULL, NULL};
/* A vtable built against ABI 2.3 (it ends before cancel_effects_keyed), and one that ends
 * before what every 2.x vtable has. */
static const pb_feature_vtable vtable_23 = {
    offsetof(pb_feature_vtable, cancel_effects_keyed), fixture_create, fixture_destroy,
    fixture_reduce, fixture_snapshot, fixture_render, fixture_parse, fixture_format,
    fixture_cancel, NULL, NULL};
static const pb_feature_vtable vtable_small = {
    offsetof(pb_feature_vtable, migrate), fixture_create, fixture_destroy, fixture_reduce,
    fixture_snapshot, fixture_render, fixture_parse, fixture_format, fixture_cancel, NULL, NULL};

#define FEATURE(name, feature_id, size, table)                                                 \
  static const pb_feature_desc name = {size, feature_id, "Fixture", NULL, 1, 0, NULL, table};
#define COUNTER(name, summary, schema, table)                                                  \
  static const pb_feature_desc name = {sizeof(pb_feature_desc), "dev.patchbay.counter",        \
                                       "Fixture", summary, schema, 0, NULL, table};

FEATURE(valid, "dev.patchbay.fixture", sizeof(pb_feature_desc), &fixture_vtable)
FEATURE(small_feature, "dev.patchbay.fixture", 12, &fixture_vtable)
FEATURE(no_reduce, "dev.patchbay.fixture", sizeof(pb_feature_desc), &vtable_no_reduce)
FEATURE(vtable23, "dev.patchbay.fixture", sizeof(pb_feature_desc), &vtable_23)
FEATURE(small_vtable, "dev.patchbay.fixture", sizeof(pb_feature_desc), &vtable_small)
FEATURE(counter_id, "dev.patchbay.counter", sizeof(pb_feature_desc), &fixture_vtable)
FEATURE(create_fails, "dev.patchbay.fixture-create-fails", sizeof(pb_feature_desc), &fixture_vtable)
FEATURE(refuses, "dev.patchbay.fixture-refuses", sizeof(pb_feature_desc), &vtable_refuses)
FEATURE(navigates, "dev.patchbay.fixture-navigates", sizeof(pb_feature_desc), &vtable_navigates)
FEATURE(errors_later, "dev.patchbay.fixture-errors-later", sizeof(pb_feature_desc),
        &vtable_errors_later)
COUNTER(counter_bad_state, NULL, 1, &vtable_bad_state)
COUNTER(counter_schema3, NULL, 3, &fixture_vtable)
COUNTER(counter_migrate_fails, NULL, 3, &vtable_migrate_fails)
COUNTER(counter_create_fails, "refuses restored state", 1, &fixture_vtable)

/* Descriptors the loader must refuse before it walks them. */
static const pb_field_desc unnamed_field = {sizeof(pb_field_desc), NULL, "int"};
static const pb_field_desc *const unnamed_fields[] = {&unnamed_field};
static const pb_action_desc one_action = {sizeof(pb_action_desc), "noop", NULL, 0, NULL};
static const pb_action_desc unnamed_action = {sizeof(pb_action_desc), NULL, NULL, 0, NULL};
static const pb_action_desc small_action = {8, "noop", NULL, 0, NULL};
static const pb_action_desc field_unnamed = {sizeof(pb_action_desc), "set", NULL, 1,
                                             unnamed_fields};
static const pb_action_desc *const one_actions[] = {&one_action};
static const pb_action_desc *const unnamed_actions[] = {&unnamed_action};
static const pb_action_desc *const small_actions[] = {&small_action};
static const pb_action_desc *const field_unnamed_actions[] = {&field_unnamed};
#define WITH_ACTIONS(name, count, actions)                                                     \
  static const pb_feature_desc name = {sizeof(pb_feature_desc), "dev.patchbay.fixture",       \
                                       "Fixture", NULL, 1, count, actions, &fixture_vtable};
WITH_ACTIONS(huge_action_count, 0x7fffffffu, one_actions)
WITH_ACTIONS(null_actions, 3, NULL)
WITH_ACTIONS(unnamed_action_feature, 1, unnamed_actions)
WITH_ACTIONS(small_action_feature, 1, small_actions)
WITH_ACTIONS(field_unnamed_feature, 1, field_unnamed_actions)

/* Strings that would drive a terminal if printed raw. */
static const pb_feature_desc escapes = {sizeof(pb_feature_desc), "dev.patchbay.fixture",
                                        "Fixture\x1b[2J", "wipes\x1b]0;pwned\x07 the screen\r",
                                        1, 0, NULL, &fixture_vtable};
static const pb_feature_desc *const escapes_features[] = {&escapes};
FEATURE(crashes, "dev.patchbay.fixture", sizeof(pb_feature_desc), &vtable_crashes)
static const pb_feature_desc *const crashes_features[] = {&crashes};

static const pb_feature_desc *const valid_features[] = {&valid};
static const pb_feature_desc *const huge_action_count_features[] = {&huge_action_count};
static const pb_feature_desc *const null_actions_features[] = {&null_actions};
static const pb_feature_desc *const unnamed_action_features[] = {&unnamed_action_feature};
static const pb_feature_desc *const small_action_features[] = {&small_action_feature};
static const pb_feature_desc *const field_unnamed_features[] = {&field_unnamed_feature};
static const pb_feature_desc *const small_features[] = {&small_feature};
static const pb_feature_desc *const no_reduce_features[] = {&no_reduce};
static const pb_feature_desc *const vtable23_features[] = {&vtable23};
static const pb_feature_desc *const small_vtable_features[] = {&small_vtable};
static const pb_feature_desc *const duplicate_features[] = {&valid, &valid};
static const pb_feature_desc *const counter_features[] = {&counter_id};
static const pb_feature_desc *const create_fails_features[] = {&create_fails};
static const pb_feature_desc *const refuses_features[] = {&refuses};
static const pb_feature_desc *const navigates_features[] = {&navigates};
static const pb_feature_desc *const errors_later_features[] = {&errors_later};
static const pb_feature_desc *const counter_bad_state_features[] = {&counter_bad_state};
static const pb_feature_desc *const counter_schema3_features[] = {&counter_schema3};
static const pb_feature_desc *const counter_migrate_fails_features[] = {&counter_migrate_fails};
static const pb_feature_desc *const counter_create_fails_features[] = {&counter_create_fails};



static pb_plugin_desc descriptor(uint32_t count, const pb_feature_desc *const *features) {
  pb_plugin_desc plugin = {PATCHBAY_MAGIC, PATCHBAY_ABI_MAJOR, PATCHBAY_ABI_MINOR,
                           sizeof(pb_plugin_desc), "dev.patchbay.fixture-plugin", "Fixture",
                           "0.0.1", count, features, 16, all_functions};
  return plugin;
}

static pb_plugin_desc plugin;

/* numbered<N>: the valid feature under ids made from the file's name (each loaded copy is an
 * image of its own, with its own statics). */
static char numbered_feature_id[96], numbered_plugin_id[112];
static pb_feature_desc numbered;
static const pb_feature_desc *numbered_features[1];

static pb_plugin_desc numbered_descriptor(const char *name) {
  snprintf(numbered_feature_id, sizeof numbered_feature_id, "dev.patchbay.fixture.%s", name);
  snprintf(numbered_plugin_id, sizeof numbered_plugin_id, "dev.patchbay.fixture.%s-plugin", name);
  numbered = valid;
  numbered.id = numbered_feature_id;
  numbered_features[0] = &numbered;
  pb_plugin_desc described = descriptor(1, numbered_features);
  described.id = numbered_plugin_id;
  described.function_count = 0;
  described.functions = NULL;
  return described;
}

/* The mode: the loaded file's name up to its first dot, without a leading "lib". */
static void mode(char *out, size_t size) {
  Dl_info info;
  out[0] = 0;
  if (!dladdr((void *)&mode, &info) || !info.dli_fname) return;
  const char *name = strrchr(info.dli_fname, '/');
  name = name ? name + 1 : info.dli_fname;
  if (!strncmp(name, "lib", 3)) name += 3;
  size_t length = strcspn(name, ".");
  if (length >= size) length = size - 1;
  memcpy(out, name, length);
  out[length] = 0;
}

__attribute__((visibility("default"))) const pb_plugin_desc *patchbay_plugin_entry(
    pb_abi_version host_abi_major) {
  (void)host_abi_major;
  char name[64];
  mode(name, sizeof name);
  plugin = descriptor(1, valid_features);
  if (!strcmp(name, "entryspins")) {
    for (volatile unsigned long spins = 0;; spins++) {
    }
  }
  if (!strcmp(name, "null")) return NULL;
  if (!strcmp(name, "magic")) plugin.magic = 0x12345678u;
  if (!strcmp(name, "abi")) plugin.abi_major = PATCHBAY_ABI_MAJOR + 1;
  if (!strcmp(name, "small")) plugin.struct_size = 16;
  if (!strcmp(name, "smallfeature")) plugin = descriptor(1, small_features);
  if (!strcmp(name, "noreduce")) plugin = descriptor(1, no_reduce_features);
  if (!strcmp(name, "vtable23")) plugin = descriptor(1, vtable23_features);
  if (!strcmp(name, "smallvtable")) plugin = descriptor(1, small_vtable_features);
  if (!strcmp(name, "duplicate")) plugin = descriptor(2, duplicate_features);
  if (!strcmp(name, "counterid")) plugin = descriptor(1, counter_features);
  if (!strcmp(name, "createfails")) plugin = descriptor(1, create_fails_features);
  if (!strcmp(name, "refuses")) plugin = descriptor(1, refuses_features);
  if (!strcmp(name, "navigatesnowhere")) plugin = descriptor(1, navigates_features);
  if (!strcmp(name, "errorlater")) plugin = descriptor(1, errors_later_features);
  if (!strcmp(name, "counterbadstate")) plugin = descriptor(1, counter_bad_state_features);
  if (!strcmp(name, "counterschema3")) plugin = descriptor(1, counter_schema3_features);
  if (!strcmp(name, "countermigratefails")) plugin = descriptor(1, counter_migrate_fails_features);
  if (!strcmp(name, "countercreatefails")) plugin = descriptor(1, counter_create_fails_features);
  if (!strcmp(name, "chattyprocessor")) plugin = descriptor(1, chatty_features);
  if (!strcmp(name, "emptyprocessor")) plugin = descriptor(1, empty_features);
  if (!strcmp(name, "abi20")) { /* built against 2.0: its descriptor ends before functions */
    plugin.abi_minor = 0;
    plugin.struct_size = (uint32_t)offsetof(pb_plugin_desc, function_count);
  }
  if (!strcmp(name, "theorylite")) {
    plugin = descriptor(0, NULL);
    plugin.id = "dev.patchbay.theory-plugin";
    plugin.function_count = 1;
    plugin.functions = lite_functions;
  }
  if (!strcmp(name, "twofunctions")) {
    plugin.function_count = 2;
    plugin.functions = twice_functions;
  }
  if (!strcmp(name, "badsignature")) {
    plugin.function_count = 1;
    plugin.functions = bad_functions;
  }
  if (!strcmp(name, "bigevents")) plugin = descriptor(1, big_events_features);
  if (!strcmp(name, "bigparameters")) plugin = descriptor(1, big_params_features);
  if (!strcmp(name, "noparameterwriter")) plugin = descriptor(1, no_writer_features);
  if (!strcmp(name, "noprocess")) plugin = descriptor(1, no_process_features);
  if (!strcmp(name, "escapes")) plugin = descriptor(1, escapes_features);
  if (!strcmp(name, "crashes")) plugin = descriptor(1, crashes_features);
  if (!strcmp(name, "huge")) plugin = descriptor(1, huge_features);
  if (!strcmp(name, "hugesnapshots")) plugin = descriptor(1, huge_snapshots_features);
  if (!strcmp(name, "hugeactioncount")) plugin = descriptor(1, huge_action_count_features);
  if (!strcmp(name, "nullactions")) plugin = descriptor(1, null_actions_features);
  if (!strcmp(name, "unnamedaction")) plugin = descriptor(1, unnamed_action_features);
  if (!strcmp(name, "smallaction")) plugin = descriptor(1, small_action_features);
  if (!strcmp(name, "unnamedfield")) plugin = descriptor(1, field_unnamed_features);
  if (!strcmp(name, "hugefeaturecount")) plugin = descriptor(0x7fffffffu, valid_features);
  if (!strcmp(name, "hugefunctioncount")) plugin.function_count = 0x7fffffffu;
  if (!strncmp(name, "numbered", 8)) plugin = numbered_descriptor(name);
  return &plugin;
}
