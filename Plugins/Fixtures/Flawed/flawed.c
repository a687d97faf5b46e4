/*
 * Flawed — a small counter feature with one flaw chosen by the name it is loaded as, for
 * `patchbay validate`'s own tests: each flaw must be caught by the test meant for it. Tests copy
 * libTestFixtureFlawed.so to `<flaw>.so`:
 *
 *   good         no flaw: passes every test
 *   shared       the count lives in a global: instances share it        → lifecycle.ten-instances
 *   clock        add(n:) adds the clock's parity too                      → determinism
 *   unstable     each snapshot writes how many snapshots came before      → state.round-trip
 *   anystate     create takes any bytes as a state                        → state.corrupt
 *   escapes      the view holds an escape sequence                        → render
 *   crashes      add(n: 13) dereferences NULL                             → fuzz.actions
 *   spins        add(n: 17) never returns                                 → fuzz.actions (hung)
 *   resetspins   reset never returns: every test that sends it hangs, named in --call-seconds
 *   processspins process never returns: every test that renders it hangs, likewise
 *   misformats   format_action writes add(n:) one higher                  → schema.round-trip
 *   halfrefuses  add(n:) below -15 changes the count, then refuses        → schema.edges
 *   badfunction  the exported percent(n) divides by n unchecked            → functions.edges
 *   allocates    process mallocs and frees a small buffer                 → processor.realtime
 *   locks        process locks and unlocks a mutex                        → processor.realtime
 *   prints       process writes a line to standard error                  → processor.realtime
 *   sends        process sends reset through host->send                   → threads
 *   keepsblock   process keeps the parameter block's pointer; render reads it → processor.parameters
 *   writesblock  process writes into the parameter block                  → processor.parameters
 *   needsnetwork add(n:) opens a UDP socket and aborts when it cannot: fine in the host's
 *                process, not in an isolated plugin's sandbox                → isolation
 *   offthread    add(n:) starts a thread that publishes the count through shared->publish,
 *                a [main-thread] function                                  → threads
 *   remembers    each load counts itself in the process's environment and starts its
 *                instances from that count                                 → load.again
 *   filters      process runs a one-pole filter over what is in its buffer: slow on
 *                subnormal input without flush-to-zero        → processor.realtime's report
 *   misreports   changed_fields says nothing changed, even when the count did
 *                                                                          → state.changed-fields
 *
 * State {count: int}; actions add(n: int) and reset; one exported function,
 * percent(int32 n) → int32, 100 / n (0 for n = 0, or -1 and INT32_MIN, which overflow). Its
 * processor's parameter block is the count; it adds nothing to the output (silence stays
 * silence).
 */
#define _GNU_SOURCE
#include <patchbay.h>
#include <patchbay/sdk.h>

#include <dlfcn.h>
#include <patchbay/shared.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define FLAWED_ID "dev.patchbay.fixture.flawed"

static char flaw[32];
static int64_t shared_count;
static int64_t snapshots;
/* remembers: how many loads of it the process has seen, this one included. */
static int64_t loads_seen;
/* keepsblock: the parameter block process got, kept past the call. */
static const int64_t *kept_block;

typedef struct flawed {
  const pb_host *host;
  int64_t count;
  /* The count when the last reduce began: changed_fields names it if it moved. */
  int64_t count_before;
} flawed;

static int64_t *count_of(flawed *self) { return strcmp(flaw, "shared") ? &self->count : &shared_count; }

/* add(n: int) or reset: 0 with the fields, or -1 with `why`. */
static int decode(const uint8_t *bytes, size_t length, int *is_add, int64_t *n, char *why,
                  size_t size) {
  pb_reader in = {bytes, length, 0, NULL};
  const char *name, *label;
  size_t name_length, label_length;
  uint32_t fields;
  if (pb_read_case(&in, &name, &name_length, &fields)) goto malformed;
  *is_add = pb_name_equals(name, name_length, "add") && fields == 1;
  if (!*is_add && !(pb_name_equals(name, name_length, "reset") && fields == 0)) {
    snprintf(why, size, FLAWED_ID ": unknown action '%.*s'. Send add(n: 1) or reset.",
             (int)name_length, name);
    return -1;
  }
  if (*is_add && (pb_read_name(&in, &label, &label_length) ||
                  !pb_name_equals(label, label_length, "n") || pb_read_int(&in, n)))
    goto malformed;
  if (in.offset == length) return 0;
malformed:
  snprintf(why, size, FLAWED_ID ": a malformed action. Send add(n: 1) or reset.");
  return -1;
}

static int check(const uint8_t *bytes, size_t length, char *why, size_t size) {
  int is_add;
  int64_t n;
  return decode(bytes, length, &is_add, &n, why, size);
}

static void *flawed_create(const pb_feature_desc *feature, const pb_host *host,
                           const uint8_t *state, size_t length) {
  (void)feature;
  flawed *self = calloc(1, sizeof *self);
  if (!self) return NULL;
  self->host = host;
  if (!strcmp(flaw, "remembers")) self->count = loads_seen;
  if (state && strcmp(flaw, "anystate")) {
    pb_reader in = {state, length, 0, NULL};
    const char *label;
    size_t label_length;
    uint32_t fields;
    int64_t taken;
    int bad = pb_read_record(&in, &fields) || fields < 1 || fields > 2 ||
              pb_read_name(&in, &label, &label_length) ||
              !pb_name_equals(label, label_length, "count") || pb_read_int(&in, &self->count);
    /* `unstable` writes how many snapshots came before as a second field, `taken`. */
    if (!bad && fields == 2)
      bad = pb_read_name(&in, &label, &label_length) ||
            !pb_name_equals(label, label_length, "taken") || pb_read_int(&in, &taken);
    if (bad || in.offset != length) {
      pb_sdk_report(host, FLAWED_ID ": the state is not {count: int}; start from none.");
      free(self);
      return NULL;
    }
  }
  return self;
}

static void flawed_destroy(void *instance) { free(instance); }

/* offthread: what the thread it starts publishes, and through which host. */
typedef struct {
  const pb_host *host;
  pb_sdk_buffer value;
} publication;

static void *publish_off_thread(void *argument) {
  publication *it = argument;
  const pb_shared_service *shared = it->host->get_service(it->host, PB_SERVICE_SHARED);
  if (shared) shared->publish(it->host, "flawed.count", it->value.bytes, it->value.length);
  return NULL;
}

static pb_status flawed_reduce(void *instance, const uint8_t *action, size_t length) {
  flawed *self = instance;
  self->count_before = *count_of(self);
  char why[160];
  int is_add;
  int64_t n = 0;
  if (decode(action, length, &is_add, &n, why, sizeof why)) {
    pb_sdk_report(self->host, why);
    return PB_ERR_DECODE;
  }
  if (!is_add) {
    if (!strcmp(flaw, "resetspins"))
      for (volatile int forever = 1; forever;) {}
    *count_of(self) = 0;
    return PB_OK;
  }
  if (!strcmp(flaw, "crashes") && n == 13) {
    volatile int *nowhere = NULL;
    return (pb_status)*nowhere;
  }
  if (!strcmp(flaw, "offthread")) {
    publication it = {self->host, {0}};
    pb_writer writer = {sizeof(pb_writer), &it.value, pb_sdk_buffer_write};
    pthread_t thread;
    if (pb_write_int(&writer, n) == 0 && pthread_create(&thread, NULL, publish_off_thread, &it) == 0)
      pthread_join(thread, NULL);
    free(it.value.bytes);
  }
  if (!strcmp(flaw, "needsnetwork")) {
    int sock = socket(AF_INET, SOCK_DGRAM, 0);
    if (sock < 0) abort();
    close(sock);
  }
  if (!strcmp(flaw, "spins") && n == 17)
    for (volatile int forever = 1; forever;) {}
  if (!strcmp(flaw, "clock")) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    n += now.tv_nsec & 1;
  }
  if (!strcmp(flaw, "halfrefuses") && n < -15) {
    *count_of(self) += 1;
    pb_sdk_report(self->host, FLAWED_ID ": add(n:) takes -15 or more.");
    return PB_ERR_FAILED;
  }
  *count_of(self) = (int64_t)((uint64_t)*count_of(self) + (uint64_t)n);
  return PB_OK;
}

static pb_status flawed_snapshot(void *instance, const pb_writer *out) {
  int unstable = !strcmp(flaw, "unstable");
  if (pb_write_record(out, unstable ? 2 : 1) || pb_write_name(out, "count") ||
      pb_write_int(out, *count_of(instance)))
    return PB_ERR_FAILED;
  if (unstable && (pb_write_name(out, "taken") || pb_write_int(out, snapshots++)))
    return PB_ERR_FAILED;
  return PB_OK;
}

/* The fields the last reduce changed: {count: n} when the count moved, else {}. */
static pb_status flawed_changed_fields(void *instance, const pb_writer *out) {
  flawed *self = instance;
  int moved = *count_of(self) != self->count_before && strcmp(flaw, "misreports");
  if (pb_write_record(out, moved ? 1 : 0)) return PB_ERR_FAILED;
  if (moved && (pb_write_name(out, "count") || pb_write_int(out, *count_of(self))))
    return PB_ERR_FAILED;
  return PB_OK;
}

static pb_status flawed_render(void *instance, const pb_writer *out) {
  char line[64];
  int64_t count = *count_of(instance);
  if (kept_block) count = *kept_block; /* keepsblock: the processor's copy, read too late */
  int length = snprintf(line, sizeof line, "%sCount: %lld", strcmp(flaw, "escapes") ? "" : "\x1b[1m",
                        (long long)count);
  return pb_sdk_write_all(out, line, (size_t)length) ? PB_ERR_FAILED : PB_OK;
}

static pb_status flawed_parse_action(const pb_feature_desc *feature, const pb_host *host,
                                     const char *text, size_t length, const pb_writer *out) {
  (void)feature;
  return pb_sdk_parse_action(FLAWED_ID, host, text, length, out, check,
                             "Send add(n: 1) or reset.");
}

static pb_status flawed_format_action(const pb_feature_desc *feature, const pb_host *host,
                                      const uint8_t *action, size_t length, const pb_writer *out) {
  (void)feature;
  int is_add;
  int64_t n;
  char why[160];
  if (!strcmp(flaw, "misformats") && !decode(action, length, &is_add, &n, why, sizeof why) &&
      is_add) {
    char text[64];
    int written = snprintf(text, sizeof text, "add(n: %lld)", (long long)(n + 1));
    return pb_sdk_write_all(out, text, (size_t)written) ? PB_ERR_FAILED : PB_OK;
  }
  return pb_sdk_format_action(FLAWED_ID, host, action, length, out, check);
}

static void flawed_cancel_effects(void *instance) { (void)instance; }

/* The processor: the count as its parameter block; it adds nothing, but for its flaw. */
static void flawed_write_parameters(void *instance, void *block) {
  int64_t count = *count_of(instance);
  memcpy(block, &count, sizeof count);
}

typedef struct {
  const pb_host *host;
  pb_sdk_buffer reset; /* `reset`, encoded when the processor is made */
} flawed_processor;

static void *flawed_processor_create(void *instance, const pb_processor_config *config) {
  (void)config;
  flawed_processor *processor = calloc(1, sizeof *processor);
  if (!processor) return NULL;
  processor->host = ((flawed *)instance)->host;
  pb_writer writer = {sizeof(pb_writer), &processor->reset, pb_sdk_buffer_write};
  pb_write_case(&writer, "reset", 0);
  return processor;
}

static pthread_mutex_t process_lock = PTHREAD_MUTEX_INITIALIZER;

static void flawed_process(void *self, const pb_process *process) {
  flawed_processor *processor = self;
  if (!strcmp(flaw, "processspins")) {
    for (volatile int forever = 1; forever;) {}
  } else if (!strcmp(flaw, "allocates")) {
    char *volatile scratch = malloc(64);
    free(scratch);
  } else if (!strcmp(flaw, "locks")) {
    pthread_mutex_lock(&process_lock);
    pthread_mutex_unlock(&process_lock);
  } else if (!strcmp(flaw, "prints")) {
    fputs("flawed: a period\n", stderr);
  } else if (!strcmp(flaw, "sends")) {
    processor->host->send(processor->host, processor->reset.bytes, processor->reset.length);
  } else if (!strcmp(flaw, "keepsblock")) {
    kept_block = process->parameters;
  } else if (!strcmp(flaw, "writesblock")) {
    *(int64_t *)process->parameters = 0;
  } else if (!strcmp(flaw, "filters")) {
    size_t samples = (size_t)process->frame_count * process->channel_count;
    float *output = process->output;
    for (int pass = 0; pass < 8; pass++)
      for (size_t i = 1; i < samples; i++) output[i] = 0.5f * output[i] + 0.25f * output[i - 1];
  }
}

static void flawed_processor_destroy(void *self) {
  flawed_processor *processor = self;
  free(processor->reset.bytes);
  free(processor);
}

static const pb_processor_desc processor = {
    .struct_size = sizeof(pb_processor_desc),
    .parameter_size = sizeof(int64_t),
    .write_parameters = flawed_write_parameters,
    .create = flawed_processor_create,
    .process = flawed_process,
    .destroy = flawed_processor_destroy,
};

PB_SDK_ACTIONS(actions, PB_SDK_ACTION("add", "Adds n", PB_SDK_FIELD("n", "int")),
               PB_SDK_ACTION0("reset", "Back to zero"));

static const pb_feature_vtable vtable = {
    .struct_size = sizeof(pb_feature_vtable),
    .create = flawed_create,
    .destroy = flawed_destroy,
    .reduce = flawed_reduce,
    .snapshot = flawed_snapshot,
    .render = flawed_render,
    .parse_action = flawed_parse_action,
    .format_action = flawed_format_action,
    .cancel_effects = flawed_cancel_effects,
    .changed_fields = flawed_changed_fields,
};

static const pb_feature_desc feature = {
    .struct_size = sizeof(pb_feature_desc),
    .id = FLAWED_ID,
    .name = "Flawed",
    .summary = "A counter with one flaw, named by its file.",
    .state_schema_version = 1,
    .action_count = PB_SDK_COUNT(actions),
    .actions = actions,
    .vtable = &vtable,
    .processor = &processor,
};

/* 100 / n; unguarded under `badfunction` (n = 0 is SIGFPE, as is INT32_MIN / -1's kin). */
static int32_t flawed_percent(int32_t n) {
  if (strcmp(flaw, "badfunction") && (n == 0 || n == -1)) return 0;
  volatile int32_t hundred = 100;
  return hundred / n;
}

static const pb_function_desc percent = {sizeof(pb_function_desc), "percent", "int32(int32)",
                                         "100 divided by n", (void (*)(void))flawed_percent};
static const pb_function_desc *const functions[] = {&percent};

static const pb_feature_desc *const features[] = {&feature};
static const pb_plugin_desc plugin = {
    .magic = PATCHBAY_MAGIC,
    .abi_major = PATCHBAY_ABI_MAJOR,
    .abi_minor = PATCHBAY_ABI_MINOR,
    .struct_size = sizeof(pb_plugin_desc),
    .id = "dev.patchbay.fixture.flawed-plugin",
    .name = "Flawed",
    .version = "1.0.0",
    .feature_count = 1,
    .features = features,
    .function_count = 1,
    .functions = functions,
};

/* The flaw: the loaded file's name up to its first dot. */
__attribute__((visibility("default"))) const pb_plugin_desc *patchbay_plugin_entry(
    pb_abi_version host_abi_major) {
  (void)host_abi_major;
  Dl_info info;
  if (dladdr((void *)&patchbay_plugin_entry, &info) && info.dli_fname) {
    const char *name = strrchr(info.dli_fname, '/');
    name = name ? name + 1 : info.dli_fname;
    size_t length = strcspn(name, ".");
    if (length >= sizeof flaw) length = sizeof flaw - 1;
    memcpy(flaw, name, length);
    flaw[length] = 0;
  }
  if (!strcmp(flaw, "remembers")) {
    /* A global that outlives the load: the environment. */
    const char *before = getenv("FLAWED_LOADS");
    loads_seen = (before ? atoll(before) : 0) + 1;
    char text[24];
    snprintf(text, sizeof text, "%lld", (long long)loads_seen);
    setenv("FLAWED_LOADS", text, 1);
  }
  return &plugin;
}
