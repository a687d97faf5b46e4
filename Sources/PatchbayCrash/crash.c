#define _GNU_SOURCE
#include "patchbay_crash.h"

#include <link.h>
#include <ucontext.h>

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Initial-exec: this library is linked into the executable, and every call into a plugin
 * touches it, so no __tls_get_addr on the way. */
static _Thread_local pb_crash_context current __attribute__((tls_model("initial-exec")));
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

static void handle(int sig, siginfo_t *info, void *context) {
  (void)info;
  pb_crash_context noted = current;
  if (!noted.call && pb_crash_noted) noted = *pb_crash_noted;
  if (!noted.call) {
    const char *owner = image_of(instruction(context));
    if (owner) {
      noted.feature = owner;
      noted.call = "own code, outside any call from the host (a thread the plugin started)";
    }
  }
  if (!noted.call) {
    /* Not in a plugin: the handler before ours (the Swift backtracer, or the default). */
    for (size_t index = 0; index < SIGNAL_COUNT; index++) {
      if (signals[index] == sig) sigaction(sig, &previous[index], NULL);
    }
    if (sig == SIGABRT) raise(sig);
    return; /* the faulting instruction runs again, under the previous handler */
  }
  say("\npatchbay: a plugin crashed the app with ");
  say(signal_name(sig));
  say(" in its ");
  say(noted.call);
  say(": feature ");
  say(noted.feature);
  if (noted.instance) {
    say(", instance ");
    say(noted.instance);
  }
  if (noted.action) {
    say(", action ");
    say(noted.action);
  }
  say(". The app stopped: fix that call in the plugin, or take the plugin out of the app.\n");
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

pb_crash_context pb_crash_enter(const char *feature, const char *instance, const char *call) {
  pb_crash_context before = current;
  current.feature = feature;
  current.instance = instance;
  current.call = call;
  return before;
}

void pb_crash_leave(pb_crash_context previous_context) { current = previous_context; }

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

const char *pb_crash_set_action(const char *action) {
  const char *before = current.action;
  current.action = action;
  return before;
}
