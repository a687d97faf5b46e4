#include "patchbay_crash.h"

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Initial-exec: this library is linked into the executable, and every call into a plugin
 * touches it, so no __tls_get_addr on the way. */
static _Thread_local pb_crash_context current __attribute__((tls_model("initial-exec")));
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

static void handle(int sig, siginfo_t *info, void *context) {
  (void)info, (void)context;
  pb_crash_context noted = current;
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

const char *pb_crash_set_action(const char *action) {
  const char *before = current.action;
  current.action = action;
  return before;
}
