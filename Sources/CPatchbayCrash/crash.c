#define _GNU_SOURCE
#include "patchbay_crash.h"

#include <fcntl.h>
#include <link.h>
#include <sys/resource.h>
#include <pthread.h>
#include <termios.h>
#include <time.h>
#include <ucontext.h>

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Initial-exec: this library is linked into the executable, and every call into a plugin
 * touches it, so no __tls_get_addr on the way. */
_Thread_local pb_crash_context pb_crash_current __attribute__((tls_model("initial-exec")));
_Thread_local const pb_crash_context *pb_crash_noted __attribute__((tls_model("initial-exec")));
/* The plugins' code, for crashes outside any noted call: each executable segment's range. */
typedef struct {
  uintptr_t start, end;
  const char *label;
} image_range;
#define IMAGE_RANGE_CAPACITY 256
static image_range image_ranges[IMAGE_RANGE_CAPACITY];
static volatile size_t image_range_count;
static volatile int exit_code = 3;
static int installed;
static const int signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGABRT};
#define SIGNAL_COUNT (sizeof signals / sizeof signals[0])
static struct sigaction previous[SIGNAL_COUNT];

/* write(2) of a C string: the only output a signal handler may do. */
static void say(const char *text) {
  if (!text) return;
  size_t length = strlen(text);
  while (length > 0) {
    ssize_t written = write(STDERR_FILENO, text, length);
    if (written <= 0) return;
    text += written;
    length -= (size_t)written;
  }
}

/* The report being written: composed here, then said on stderr and copied, as a JSON line,
 * into the run's recording (pb_crash_copy_reports_to). One report a process: it ends. */
static char report[4096];
static size_t report_length;
static volatile int report_fd = -1;

static void put(const char *text) {
  for (; text && *text && report_length < sizeof report - 1; text++) {
    report[report_length++] = *text;
  }
}

/* Writes `length` bytes to `fd`, all of them unless it fails. */
static void write_all(int fd, const char *bytes, size_t length) {
  while (length > 0) {
    ssize_t written = write(fd, bytes, length);
    if (written <= 0) return;
    bytes += written;
    length -= (size_t)written;
  }
}

/* The call, the feature (id and file), the instance and the action, as reports name them:
 * "reduce: feature dev.patchbay.counter (…/libCounter.so), instance counter, action tick". */
static void put_call(const pb_crash_context *noted) {
  put(noted->call);
  put(": feature ");
  put(noted->feature);
  if (noted->instance) {
    put(", instance ");
    put(noted->instance);
  }
  if (noted->action) {
    put(", action ");
    put(noted->action);
  }
}

/* Says the report on stderr, and copies it into the recording as {"report": "…"}. */
static void emit(void) {
  write_all(STDERR_FILENO, report, report_length);
  int fd = report_fd;
  if (fd < 0) return;
  static char line[sizeof report * 6 + 16];
  size_t length = 0;
  static const char start[] = "{\"report\":\"", hex[] = "0123456789abcdef";
  memcpy(line, start, sizeof start - 1);
  length = sizeof start - 1;
  for (size_t i = 0; i < report_length; i++) {
    unsigned char c = (unsigned char)report[i];
    if (c == '\n' && (i == 0 || i == report_length - 1)) continue; /* the line's own breaks */
    if (c == '"' || c == '\\') {
      line[length++] = '\\';
      line[length++] = (char)c;
    } else if (c < 0x20) {
      memcpy(line + length, "\\u00", 4);
      line[length + 4] = hex[c >> 4];
      line[length + 5] = hex[c & 15];
      length += 6;
    } else {
      line[length++] = (char)c;
    }
  }
  memcpy(line + length, "\"}\n", 3);
  write_all(fd, line, length + 3);
}

void pb_crash_copy_reports_to(int fd) { report_fd = fd; }

/* The flight recorder's file, named at the end of a report; NULL for none. Each one set is a
 * copy that is never freed: a handler may be reading the one before. */
static const char *flight_file;

void pb_crash_name_flight_file(const char *path) {
  __atomic_store_n(&flight_file, path ? strdup(path) : NULL, __ATOMIC_RELEASE);
}

/* " Its last actions: FILE (patchbay repro FILE).", when the app keeps them. */
static void put_flight_file(void) {
  const char *file = __atomic_load_n(&flight_file, __ATOMIC_ACQUIRE);
  if (!file) return;
  put(" Its last actions: ");
  put(file);
  put(" (patchbay repro ");
  put(file);
  put(").");
}

static const char *signal_name(int sig) {
  switch (sig) {
    case SIGSEGV: return "SIGSEGV (invalid memory access)";
    case SIGBUS: return "SIGBUS (bus error)";
    case SIGILL: return "SIGILL (illegal instruction, or a Swift runtime trap)";
    case SIGFPE: return "SIGFPE (arithmetic error)";
    case SIGTRAP: return "SIGTRAP (a Swift runtime trap)";
    case SIGABRT: return "SIGABRT (abort)";
    default: return "a crash signal";
  }
}

/* The instruction that faulted. */
static uintptr_t instruction(void *context) {
  const ucontext_t *machine = context;
#if defined(__x86_64__)
  return (uintptr_t)machine->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
  return (uintptr_t)machine->uc_mcontext.pc;
#else
  (void)machine;
  return 0;
#endif
}

/* The label of the plugin whose code holds `address`; NULL when none does. */
static const char *image_of(uintptr_t address) {
  size_t count = image_range_count;
  for (size_t i = 0; i < count; i++) {
    if (address >= image_ranges[i].start && address < image_ranges[i].end) {
      return image_ranges[i].label;
    }
  }
  return NULL;
}

/* The terminal to put back before the process ends (a full-screen UI's). */
static struct termios terminal_settings;
static const char *volatile terminal_leave;

void pb_crash_restore_terminal_on_exit(const struct termios *settings, const char *leave) {
  if (!settings) {
    terminal_leave = NULL;
    return;
  }
  terminal_settings = *settings;
  terminal_leave = leave;
}

/* Async-signal-safe: tcsetattr and write. */
static void restore_terminal(void) {
  const char *leave = terminal_leave;
  if (!leave) return;
  terminal_leave = NULL;
  int captured = pb_crash_reclaim_stderr(); /* the report goes to the terminal, not the pipe */
  tcsetattr(STDIN_FILENO, TCSAFLUSH, &terminal_settings);
  say(leave);
  if (captured) pb_crash_write_kept_stderr(); /* on the normal screen: the runtime's line */
}

/* A number in decimal, async-signal-safely. */
static void put_number(unsigned long long value) {
  char digits[24];
  int count = 0;
  do {
    digits[count++] = (char)('0' + value % 10);
    value /= 10;
  } while (value && count < 24);
  char text[25];
  for (int i = 0; i < count; i++) text[i] = digits[count - 1 - i];
  text[count] = 0;
  put(text);
}

/* When the process's address space is limited (RLIMIT_AS) and half of it or more is in use,
 * says so: a failed allocation may be the cause (one large request fails long before the
 * limit is reached). Async-signal-safe (getrlimit, open, read). */
static void put_memory_note(void) {
  struct rlimit limit;
  if (getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return;
  int fd = open("/proc/self/statm", O_RDONLY);
  if (fd < 0) return;
  char text[64];
  ssize_t length = read(fd, text, sizeof text - 1);
  close(fd);
  if (length <= 0) return;
  unsigned long long pages = 0;
  for (ssize_t i = 0; i < length && text[i] >= '0' && text[i] <= '9'; i++) {
    pages = pages * 10 + (unsigned long long)(text[i] - '0');
  }
  unsigned long long used = pages * (unsigned long long)sysconf(_SC_PAGESIZE);
  if (used * 2 < (unsigned long long)limit.rlim_cur) return;
  put(", with ");
  put_number(used >> 20);
  put(" MiB of its ");
  put_number((unsigned long long)limit.rlim_cur >> 20);
  put(" MiB of memory in use ([limits] isolated-memory-mb: if an allocation failed, it may be "
      "too small)");
}

/* Where an isolated plugin's process writes its reports, -1 in the host (isolated_report). */
static volatile int isolated_fd = -1;

void pb_crash_report_isolated(int fd) { isolated_fd = fd; }

static void handle(int sig, siginfo_t *info, void *context) {
  (void)info;
  pb_crash_context noted = pb_crash_current;
  if (!noted.call && pb_crash_noted) noted = *pb_crash_noted;
  if (!noted.call) {
    const char *owner = image_of(instruction(context));
    if (owner) {
      noted.feature = owner;
      noted.call = "own code, outside any call from the host (a thread the plugin started)";
    }
  }
  int isolated = isolated_fd;
  if (isolated >= 0) {
    /* The process holds one plugin: whatever crashed it, the host says so and restarts it. */
    report_length = 0;
    put(signal_name(sig));
    if (noted.call) {
      put(" in its ");
      put_call(&noted);
    } else {
      put(" outside any call from the host");
    }
    put_memory_note();
    write_all(isolated, report, report_length);
    _exit(exit_code);
  }
  if (!noted.call) {
    /* Not in a plugin: the handler before ours (the Swift backtracer, or the default), on a
     * terminal that is itself again. */
    restore_terminal();
    for (size_t index = 0; index < SIGNAL_COUNT; index++) {
      if (signals[index] == sig) sigaction(sig, &previous[index], NULL);
    }
    if (sig == SIGABRT) raise(sig);
    return; /* the faulting instruction runs again, under the previous handler */
  }
  restore_terminal();
  put("\npatchbay: a plugin crashed the app with ");
  put(signal_name(sig));
  put(" in its ");
  put_call(&noted);
  put(". The app stopped: fix that call in the plugin, or take the plugin out of the app.");
  put_flight_file();
  put("\n");
  emit();
  _exit(exit_code);
}

void pb_crash_install(int code) {
  exit_code = code;
  if (installed) return;
  installed = 1;
  /* Output written before a crash must not die in a buffer when stdout is a file or a pipe. */
  setvbuf(stdout, NULL, _IOLBF, 0);
  /* A stack of its own, so a stack overflow in a plugin is reported too. */
  static char alternate[64 * 1024];
  stack_t stack = {.ss_sp = alternate, .ss_size = sizeof alternate, .ss_flags = 0};
  sigaltstack(&stack, NULL);
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_sigaction = handle;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  for (size_t index = 0; index < SIGNAL_COUNT; index++) {
    sigaction(signals[index], &action, &previous[index]);
  }
}

/* The watchdog's view of the app queue: (thread slot << 48) | that thread's call count. */
static unsigned long long watch_calls;
int pb_crash_watch_running;
#define WATCHED_THREAD_CAPACITY 256
/* Each live watched thread's noted call (its `current`), read by the watchdog thread; a slot
 * is emptied when its thread exits (its thread-local memory goes with it), and reused. */
static const pb_crash_context *watched_contexts[WATCHED_THREAD_CAPACITY];
static _Thread_local int watched_slot __attribute__((tls_model("initial-exec")));
static _Thread_local unsigned long long watched_serial __attribute__((tls_model("initial-exec")));
static pthread_key_t watched_key;
static pthread_once_t watched_key_once = PTHREAD_ONCE_INIT;

/* A watched thread exits: its slot, which points into its thread-local memory, is emptied. */
static void forget_thread(void *slot) {
  __atomic_store_n(&watched_contexts[(intptr_t)slot - 1], NULL, __ATOMIC_RELEASE);
}

static void make_watched_key(void) { pthread_key_create(&watched_key, forget_thread); }

/* Takes a free slot for this thread (once a thread); -1 when all are taken. */
static int watch_thread(void) {
  pthread_once(&watched_key_once, make_watched_key);
  for (int index = 0; index < WATCHED_THREAD_CAPACITY; index++) {
    const pb_crash_context *expected = NULL;
    if (__atomic_compare_exchange_n(&watched_contexts[index], &expected, &pb_crash_current, 0,
                                    __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
      pthread_setspecific(watched_key, (void *)(intptr_t)(index + 1));
      return index + 1;
    }
  }
  return -1;
}

/* One store a call, once the watchdog runs: pb_crash_enter calls it only then. */
void pb_crash_watch_note_call(void) {
  if (watched_slot == 0) watched_slot = watch_thread();
  if (watched_slot < 0) return;
  watched_serial++;
  __atomic_store_n(&watch_calls,
                   ((unsigned long long)watched_slot << 48) | (watched_serial & 0xFFFFFFFFFFFFull),
                   __ATOMIC_RELAXED);
}

typedef struct {
  uintptr_t address;
  const char *label;
  int found;
} image_search;

/* dl_iterate_phdr's callback: records the executable segments of the image holding the
 * address. */
static int find_image(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size;
  image_search *search = data;
  int holds = 0;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *segment = &info->dlpi_phdr[i];
    uintptr_t start = info->dlpi_addr + segment->p_vaddr;
    if (segment->p_type == PT_LOAD && search->address >= start &&
        search->address < start + segment->p_memsz) {
      holds = 1;
    }
  }
  if (!holds) return 0;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *segment = &info->dlpi_phdr[i];
    if (segment->p_type != PT_LOAD || !(segment->p_flags & PF_X)) continue;
    size_t index = image_range_count;
    if (index >= IMAGE_RANGE_CAPACITY) return 1;
    uintptr_t start = info->dlpi_addr + segment->p_vaddr;
    image_ranges[index] = (image_range){start, start + segment->p_memsz, search->label};
    image_range_count = index + 1; /* after the entry: a handler never reads half of one */
    search->found = 1;
  }
  return 1;
}

int pb_crash_register_image(const void *address, const char *label) {
  image_search search = {(uintptr_t)address, label, 0};
  dl_iterate_phdr(find_image, &search);
  return search.found ? 0 : -1;
}

const char *pb_crash_action(void) { return pb_crash_current.action; }

const char *pb_crash_set_action(const char *action) {
  const char *before = pb_crash_current.action;
  pb_crash_current.action = action;
  return before;
}

/* The watchdog. */
unsigned long long pb_watch_periods;
/* The audio thread's pb_crash_noted, read by the watchdog thread. */
static const pb_crash_context *const *audio_noted;
static int audio_running;
static char call_limit_text[48], audio_limit_text[48];
static double call_limit = 5, audio_limit = 0.128;


/* Reports the call a thread that has not moved on is in, and ends the process; returns when
 * it is in none (an idle thread). On the watchdog thread: the stuck thread is not
 * interrupted (the runtime's threads block signals), its noted call is read. */
static void report_stuck(const pb_crash_context *context, int audio) {
  if (!context) return;
  pb_crash_context noted = *context;
  if (!noted.call) return;
  restore_terminal();
  put("\npatchbay: a plugin call did not return within ");
  put(audio ? audio_limit_text : call_limit_text);
  put(": in its ");
  put_call(&noted);
  put(". The app stopped: fix that call in the plugin, raise [limits] ");
  put(audio ? "audio-periods" : "call-seconds");
  put(" if it is only slow, or take the plugin out of the app.");
  put_flight_file();
  put("\n");
  emit();
  _exit(exit_code);
}

static void *watch(void *unused) {
  (void)unused;
  const double tick = 0.025;
  unsigned long long last_calls = 0, last_periods = 0, signaled_calls = 0, signaled_periods = 0;
  double calls_still = 0, periods_still = 0;
  struct timespec pause = {0, (long)(tick * 1e9)};
  for (;;) {
    nanosleep(&pause, NULL);
    unsigned long long calls = __atomic_load_n(&watch_calls, __ATOMIC_RELAXED);
    if (calls != last_calls) {
      last_calls = calls;
      calls_still = 0;
    } else if (calls != 0 && (calls_still += tick) >= call_limit && calls != signaled_calls) {
      signaled_calls = calls;
      int index = (int)(calls >> 48);
      if (index > 0 && index <= WATCHED_THREAD_CAPACITY) {
        /* NULL when that thread has exited: it is in no call then. */
        report_stuck(__atomic_load_n(&watched_contexts[index - 1], __ATOMIC_ACQUIRE), 0);
      }
    }
    unsigned long long periods = __atomic_load_n(&pb_watch_periods, __ATOMIC_RELAXED);
    if (periods != last_periods || !__atomic_load_n(&audio_running, __ATOMIC_ACQUIRE)) {
      last_periods = periods;
      periods_still = 0;
    } else if ((periods_still += tick) >= audio_limit && periods != signaled_periods) {
      signaled_periods = periods;
      const pb_crash_context *const *noted = __atomic_load_n(&audio_noted, __ATOMIC_ACQUIRE);
      if (noted) report_stuck(__atomic_load_n(noted, __ATOMIC_RELAXED), 1);
    }
  }
  return NULL;
}

void pb_watch_start(unsigned call_seconds, unsigned audio_periods, double audio_seconds) {
  if (__atomic_load_n(&pb_crash_watch_running, __ATOMIC_ACQUIRE)) return;
  call_limit = call_seconds;
  audio_limit = audio_seconds;
  snprintf(call_limit_text, sizeof call_limit_text, "%u s", call_seconds);
  if (audio_periods == 0) {
    snprintf(audio_limit_text, sizeof audio_limit_text, "%.0f s", audio_seconds);
  } else {
    snprintf(audio_limit_text, sizeof audio_limit_text, "%u periods (%.3f s)", audio_periods,
             audio_seconds);
  }
  pthread_t thread;
  if (pthread_create(&thread, NULL, watch, NULL) != 0) return;
  pthread_detach(thread);
  __atomic_store_n(&pb_crash_watch_running, 1, __ATOMIC_RELEASE);
}

void pb_watch_audio_thread(int running) {
  if (running) __atomic_store_n(&audio_noted, &pb_crash_noted, __ATOMIC_RELEASE);
  __atomic_store_n(&audio_running, running, __ATOMIC_RELEASE);
}
