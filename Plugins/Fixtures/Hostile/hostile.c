/*
 * A test fixture: a C plugin whose processor and reducer misbehave when told, written from
 * patchbay.h alone, as a third party would. One feature,
 * dev.patchbay.fixture-hostile; its actions set what the processor does from the next period:
 *
 *   steady   adds 0.25 to every sample (a DC level a test can find in the output)
 *   quiet    adds nothing
 *   nan      writes NaN into the period's first sample of every frame, 0.25 elsewhere
 *   nanOnce  does that in one period, then adds 0.25 as `steady` does
 *   inf      writes +Inf likewise
 *   loud     adds 1000.0 to every sample (+60 dBFS)
 *   crash    dereferences NULL in process
 *   spin     never returns from process
 *
 * and some the reducer itself misbehaves on (none of them changes the state):
 *
 *   hang         reduce never returns
 *   crashThread  reduce starts a thread of its own, which sends `quiet` through host->send
 *                and dereferences NULL once the host's reduce of that `quiet` has begun (which
 *                then waits for it), or after 2 s: a crash during a call it did not cause
 *   crashRender  the next render dereferences NULL
 *   bomb         reduce allocates and touches 64 MiB blocks until malloc fails, then writes
 *                through the NULL it got, as careless code does
 *   probe        reduce tries to open a socket, exec a program and ptrace; render then says
 *                what each got ("socket EPERM, exec EPERM, ptrace EPERM" in a sandbox)
 *
 * The state is the processor's mode, as a case: `steady`. It renders as `hostile: steady`.
 */
#define _GNU_SOURCE
#include <patchbay.h>
#include <patchbay/sdk.h>

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <errno.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <unistd.h>

typedef enum { STEADY, QUIET, NAN_SAMPLES, INF_SAMPLES, LOUD, CRASH, SPIN, NAN_ONCE } mode;
static const char *const mode_names[] = {"steady", "quiet", "nan",  "inf",
                                         "loud",   "crash", "spin", "nanOnce"};
enum { MODE_COUNT = sizeof mode_names / sizeof mode_names[0] };

typedef struct {
  const pb_host *host;
  mode mode;
  int crash_render;  /* not state: gone after a restart */
  int crash_thread;  /* 1: crashThread's thread runs; 2: the reduce of its `quiet` began */
  char probed[96];   /* what `probe` got; not state */
} instance;

/* The mode `name` names, or -1. */
static int mode_named(const char *name, size_t length) {
  for (int i = 0; i < MODE_COUNT; i++) {
    if (strlen(mode_names[i]) == length && memcmp(mode_names[i], name, length) == 0) return i;
  }
  return -1;
}

enum { HANG = MODE_COUNT, CRASH_THREAD, CRASH_RENDER, BOMB, PROBE };
static const char *const special_names[] = {"hang", "crashThread", "crashRender", "bomb",
                                            "probe"};
enum { SPECIAL_COUNT = sizeof special_names / sizeof special_names[0] };

/* HANG, CRASH_THREAD, … for a special action's name; -1 for none. */
static int special_named(const char *name, size_t length) {
  for (int i = 0; i < SPECIAL_COUNT; i++) {
    if (strlen(special_names[i]) == length && memcmp(special_names[i], name, length) == 0) {
      return MODE_COUNT + i;
    }
  }
  return -1;
}

/* Reads an action or a state: a case without fields. Returns the mode, HANG, CRASH_THREAD,
 * or -1 (with `why` set). */
static int read_case(const uint8_t *bytes, size_t length, char *why, size_t size) {
  pb_reader in = {bytes, length, 0, NULL};
  const char *name;
  size_t name_length;
  uint32_t count;
  if (pb_read_case(&in, &name, &name_length, &count) || count != 0 || in.offset != length) {
    snprintf(why, size, "dev.patchbay.fixture-hostile: expected a case without fields");
    return -1;
  }
  int special = special_named(name, name_length);
  if (special >= 0) return special;
  int found = mode_named(name, name_length);
  if (found < 0) {
    snprintf(why, size, "dev.patchbay.fixture-hostile: no action '%.*s'", (int)name_length, name);
  }
  return found;
}

static void *hostile_create(const pb_feature_desc *feature, const pb_host *host,
                            const uint8_t *state, size_t length) {
  (void)feature;
  char why[160];
  int restored = STEADY;
  if (state && length > 0) {
    restored = read_case(state, length, why, sizeof why);
    if (restored < 0 || restored >= MODE_COUNT) {
      host->error(host, restored < 0 ? why : "dev.patchbay.fixture-hostile: not a state");
      return NULL;
    }
  }
  instance *created = malloc(sizeof *created);
  if (!created) {
    host->error(host, "dev.patchbay.fixture-hostile: out of memory");
    return NULL;
  }
  created->host = host;
  created->mode = (mode)restored;
  created->crash_render = 0;
  created->probed[0] = 0;
  return created;
}

static void hostile_destroy(void *self) { free(self); }

/* A writer into a small buffer, for an action the thread sends. */
typedef struct {
  uint8_t bytes[32];
  size_t length;
} small_buffer;

static size_t small_write(void *context, const void *bytes, size_t length) {
  small_buffer *buffer = context;
  if (length > sizeof buffer->bytes - buffer->length) return 0;
  memcpy(buffer->bytes + buffer->length, bytes, length);
  buffer->length += length;
  return length;
}

/* The thread `crashThread` starts: one send, then a NULL dereference once the host reduces
 * what it sent (or after 2 s, for a host that does not deliver it). */
static void *send_then_crash(void *argument) {
  instance *it = argument;
  small_buffer quiet = {{0}, 0};
  pb_writer writer = {sizeof(pb_writer), &quiet, small_write};
  if (pb_write_case(&writer, "quiet", 0) == 0) it->host->send(it->host, quiet.bytes, quiet.length);
  struct timespec pause = {0, 1000 * 1000};
  for (int waited = 0; waited < 2000 && __atomic_load_n(&it->crash_thread, __ATOMIC_ACQUIRE) < 2;
       waited++) {
    nanosleep(&pause, NULL);
  }
  volatile int *nowhere = NULL;
  return (void *)(intptr_t)*nowhere;
}

static pb_status hostile_reduce(void *self, const uint8_t *action, size_t length) {
  instance *it = self;
  char why[160];
  int read = read_case(action, length, why, sizeof why);
  if (read < 0) {
    it->host->error(it->host, why);
    return PB_ERR_DECODE;
  }
  if (read == HANG) {
    for (volatile int spinning = 1; spinning;) {
    }
  }
  if (read == CRASH_THREAD) {
    pthread_t thread;
    __atomic_store_n(&it->crash_thread, 1, __ATOMIC_RELEASE);
    if (pthread_create(&thread, NULL, send_then_crash, it) == 0) pthread_detach(thread);
    return PB_OK;
  }
  if (read == QUIET && __atomic_load_n(&it->crash_thread, __ATOMIC_ACQUIRE) == 1) {
    /* The thread's `quiet`: the crash comes during this call, which it did not cause. */
    __atomic_store_n(&it->crash_thread, 2, __ATOMIC_RELEASE);
    for (;;) pause();
  }
  if (read == CRASH_RENDER) {
    it->crash_render = 1;
    return PB_OK;
  }
  if (read == BOMB) {
    for (;;) {
      char *block = malloc(64u << 20);
      memset(block, 1, 64u << 20); /* NULL once the memory runs out: a crash */
    }
  }
  if (read == PROBE) {
    int sock = socket(AF_INET, SOCK_STREAM, 0);
    int sock_error = sock < 0 ? errno : 0;
    if (sock >= 0) close(sock);
    char *const argv[] = {"/nonexistent-patchbay-probe", NULL};
    execv(argv[0], argv); /* ENOENT where exec is allowed: the file does not exist */
    int exec_error = errno;
    errno = 0;
    ptrace(PTRACE_ATTACH, 0, NULL, NULL); /* ESRCH where ptrace is allowed: no process 0 */
    int ptrace_error = errno;
    snprintf(it->probed, sizeof it->probed, "socket %s, exec %s, ptrace %s",
             sock_error ? strerrorname_np(sock_error) : "opened", strerrorname_np(exec_error),
             strerrorname_np(ptrace_error));
    return PB_OK;
  }
  it->mode = (mode)read;
  return PB_OK;
}

static pb_status hostile_snapshot(void *self, const pb_writer *out) {
  const instance *it = self;
  return pb_write_case(out, mode_names[it->mode], 0) ? PB_ERR_FAILED : PB_OK;
}

static pb_status hostile_render(void *self, const pb_writer *out) {
  const instance *it = self;
  if (it->crash_render) {
    volatile int *nowhere = NULL;
    return (pb_status)*nowhere;
  }
  char text[160];
  int length = snprintf(text, sizeof text, "hostile: %s%s%s", mode_names[it->mode],
                        it->probed[0] ? "; " : "", it->probed);
  return out->write(out->context, text, (size_t)length) == (size_t)length ? PB_OK
                                                                            : PB_ERR_FAILED;
}

static pb_status hostile_parse_action(const pb_feature_desc *feature, const pb_host *host,
                                      const char *text, size_t length, const pb_writer *out) {
  (void)feature;
  int special = special_named(text, length) >= 0;
  if (!special && mode_named(text, length) < 0) {
    char why[200];
    snprintf(why, sizeof why,
             "dev.patchbay.fixture-hostile: no action '%.*s'; try steady, quiet, nan, "
             "nanOnce, inf, loud, crash, spin, hang, crashThread, crashRender, bomb or probe",
             (int)length, text);
    host->error(host, why);
    return PB_ERR_DECODE;
  }
  char name[16] = {0};
  memcpy(name, text, length);
  return pb_write_case(out, name, 0) ? PB_ERR_FAILED : PB_OK;
}

static pb_status hostile_format_action(const pb_feature_desc *feature, const pb_host *host,
                                       const uint8_t *bytes, size_t length,
                                       const pb_writer *out) {
  (void)feature, (void)host;
  return pb_format_value_text(bytes, length, out) ? PB_ERR_FAILED : PB_OK;
}

static void hostile_cancel_effects(void *self) { (void)self; }

/* The processor: its mode comes in the parameter block. */
static void hostile_write_parameters(void *self, void *block) {
  const instance *it = self;
  int32_t value = (int32_t)it->mode;
  memcpy(block, &value, sizeof value);
}

/* The processor's own state: whether `nanOnce` has written its NaN. */
typedef struct {
  int wrote_nan_once;
} processor_state;

static void *hostile_processor_create(void *self, const pb_processor_config *config) {
  (void)config;
  processor_state *state = calloc(1, sizeof *state);
  if (!state) {
    const instance *it = self;
    it->host->error(it->host, "dev.patchbay.fixture-hostile: out of memory");
  }
  return state;
}

static void hostile_process(void *processor, const pb_process *process) {
  processor_state *state = processor;
  int32_t current = STEADY;
  if (process->parameters) memcpy(&current, process->parameters, sizeof current);
  if (current == NAN_ONCE) {
    current = state->wrote_nan_once ? STEADY : NAN_SAMPLES;
    state->wrote_nan_once = 1;
  }
  size_t samples = (size_t)process->frame_count * process->channel_count;
  float *output = process->output;
  switch ((mode)current) {
  case QUIET: return;
  case CRASH: {
    volatile float *nowhere = NULL;
    *nowhere = 1.0f;
    return;
  }
  case SPIN:
    for (volatile int spinning = 1; spinning;) {
    }
    return;
  case LOUD:
    for (size_t i = 0; i < samples; i++) output[i] += 1000.0f;
    return;
  case NAN_SAMPLES:
  case INF_SAMPLES:
    for (size_t i = 0; i < samples; i++) {
      output[i] += i % process->channel_count == 0 ? (current == NAN_SAMPLES ? NAN : INFINITY)
                                                   : 0.25f;
    }
    return;
  case STEADY:
  default:
    for (size_t i = 0; i < samples; i++) output[i] += 0.25f;
    return;
  }
}

static void hostile_processor_destroy(void *processor) { free(processor); }

static const pb_processor_desc processor = {
    .struct_size = sizeof(pb_processor_desc),
    .parameter_size = sizeof(int32_t),
    .max_output_events = 0,
    .write_parameters = hostile_write_parameters,
    .create = hostile_processor_create,
    .process = hostile_process,
    .destroy = hostile_processor_destroy,
    .event_action = NULL,
};

#define ACTION(variable, name, summary)                                                       \
  static const pb_action_desc variable = {sizeof(pb_action_desc), name, summary, 0, NULL};
ACTION(steady_action, "steady", "The processor adds 0.25 to every sample")
ACTION(quiet_action, "quiet", "The processor adds nothing")
ACTION(nan_action, "nan", "The processor writes NaN")
ACTION(nan_once_action, "nanOnce", "The processor writes NaN in one period")
ACTION(inf_action, "inf", "The processor writes +Inf")
ACTION(loud_action, "loud", "The processor adds 1000.0 (+60 dBFS)")
ACTION(crash_action, "crash", "The processor dereferences NULL")
ACTION(spin_action, "spin", "The processor never returns")
ACTION(hang_action, "hang", "This reduce never returns")
ACTION(crash_thread_action, "crashThread", "A thread of the plugin's sends, then crashes")
static const pb_action_desc *const actions[] = {
    &steady_action, &quiet_action, &nan_action,  &nan_once_action,    &inf_action,
    &loud_action,   &crash_action, &spin_action, &hang_action, &crash_thread_action};

static const pb_feature_vtable vtable = {
    .struct_size = sizeof(pb_feature_vtable),
    .create = hostile_create,
    .destroy = hostile_destroy,
    .reduce = hostile_reduce,
    .snapshot = hostile_snapshot,
    .render = hostile_render,
    .parse_action = hostile_parse_action,
    .format_action = hostile_format_action,
    .cancel_effects = hostile_cancel_effects,
};

static const pb_feature_desc feature = {
    .struct_size = sizeof(pb_feature_desc),
    .id = "dev.patchbay.fixture-hostile",
    .name = "Hostile",
    .summary = "A processor and a reducer that misbehave when told.",
    .state_schema_version = 1,
    .action_count = sizeof actions / sizeof actions[0],
    .actions = actions,
    .vtable = &vtable,
    .processor = &processor,
};

PB_SDK_PLUGIN("dev.patchbay.fixture-hostile-plugin", "Hostile fixture", "1.0.0", &feature)
