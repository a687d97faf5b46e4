/* One process group for what a run starts, ended with the run (patchbay_process_group.h). */
#define _GNU_SOURCE
#include "patchbay_process_group.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

/* The variable that tells a child its parent's pid, and so to die with it. */
#define PARENT_VARIABLE "PATCHBAY_PARENT"

static pid_t group;
/* Started and not yet waited for: while one is, the group's id cannot be another's. */
static int live;
/* Set by pb_group_adopt: this process is itself in a run's group, and starts into it. */
static int adopted;
static pthread_mutex_t spawning = PTHREAD_MUTEX_INITIALIZER;

static const int ending_signals[] = {SIGINT, SIGTERM, SIGHUP};
enum { ENDING_SIGNAL_COUNT = sizeof ending_signals / sizeof ending_signals[0] };
static struct sigaction previous[ENDING_SIGNAL_COUNT];

void pb_group_end(void) {
  pid_t id = __atomic_load_n(&group, __ATOMIC_ACQUIRE);
  if (id > 0 && __atomic_load_n(&live, __ATOMIC_ACQUIRE) > 0) killpg(id, SIGKILL);
}

pid_t pb_group_id(void) {
  return __atomic_load_n(&live, __ATOMIC_ACQUIRE) > 0 ? __atomic_load_n(&group, __ATOMIC_ACQUIRE)
                                                      : 0;
}

/* SIGINT, SIGTERM, SIGHUP: the group ends, then whatever was there before runs (the default
 * ends this process by the same signal). */
static void end_then_pass_on(int number, siginfo_t *info, void *context) {
  pb_group_end();
  for (int index = 0; index < ENDING_SIGNAL_COUNT; index++) {
    if (ending_signals[index] != number) continue;
    struct sigaction before = previous[index];
    if (before.sa_flags & SA_SIGINFO) {
      if (before.sa_sigaction) before.sa_sigaction(number, info, context);
      return;
    }
    if (before.sa_handler != SIG_DFL && before.sa_handler != SIG_IGN) {
      before.sa_handler(number);
      return;
    }
    signal(number, SIG_DFL);
    raise(number);
  }
}

static void end_at_exit(void) { pb_group_end(); }

static void install_handlers(void) {
  for (int index = 0; index < ENDING_SIGNAL_COUNT; index++) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = end_then_pass_on;
    action.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&action.sa_mask);
    sigaction(ending_signals[index], NULL, &previous[index]);
    /* A signal the user asked to ignore (nohup) stays ignored. */
    if (!(previous[index].sa_flags & SA_SIGINFO) && previous[index].sa_handler == SIG_IGN) {
      continue;
    }
    sigaction(ending_signals[index], &action, NULL);
  }
  atexit(end_at_exit);
}

/* envp with PATCHBAY_PARENT=<this pid> in place of any it had; NULL when out of memory. */
static char **with_parent(char *const envp[], char *variable) {
  size_t count = 0;
  while (envp[count]) count++;
  char **copy = calloc(count + 2, sizeof *copy);
  if (!copy) return NULL;
  size_t kept = 0;
  for (size_t index = 0; index < count; index++) {
    if (strncmp(envp[index], PARENT_VARIABLE "=", sizeof PARENT_VARIABLE) == 0) continue;
    copy[kept++] = envp[index];
  }
  copy[kept] = variable;
  return copy;
}

int pb_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest) {
  return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
}

int pb_group_spawn(pid_t *pid, const char *path, const posix_spawn_file_actions_t *actions,
                   char *const argv[], char *const envp[], int flags) {
  static pthread_once_t handlers_once = PTHREAD_ONCE_INIT;
  if (!adopted) pthread_once(&handlers_once, install_handlers);
  char variable[48];
  snprintf(variable, sizeof variable, PARENT_VARIABLE "=%d", (int)getpid());
  char **environment = (char **)envp;
  if (flags & PB_GROUP_DIE_WITH_PARENT) {
    environment = with_parent(envp, variable);
    if (!environment) return ENOMEM;
  }
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  pthread_mutex_lock(&spawning);
  int result;
  if (adopted) {
    /* Already in a run's group: the child stays in it. */
    result = posix_spawn(pid, path, actions, &attributes, argv, environment);
  } else {
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
    pid_t joining = pb_group_id();
    posix_spawnattr_setpgroup(&attributes, joining);
    result = posix_spawn(pid, path, actions, &attributes, argv, environment);
    if (result != 0 && joining != 0) {
      /* The group ended between the check and the spawn: a new one. */
      joining = 0;
      posix_spawnattr_setpgroup(&attributes, 0);
      result = posix_spawn(pid, path, actions, &attributes, argv, environment);
    }
    if (result == 0) {
      if (joining == 0) __atomic_store_n(&group, *pid, __ATOMIC_RELEASE);
      __atomic_add_fetch(&live, 1, __ATOMIC_ACQ_REL);
    }
  }
  pthread_mutex_unlock(&spawning);
  posix_spawnattr_destroy(&attributes);
  if (environment != envp) free(environment);
  return result;
}

void pb_group_reaped(void) {
  if (adopted) return;
  pthread_mutex_lock(&spawning);
  if (__atomic_sub_fetch(&live, 1, __ATOMIC_ACQ_REL) <= 0) {
    __atomic_store_n(&live, 0, __ATOMIC_RELEASE);
    __atomic_store_n(&group, 0, __ATOMIC_RELEASE);
  }
  pthread_mutex_unlock(&spawning);
}

int pb_group_adopt(void) {
  const char *value = getenv(PARENT_VARIABLE);
  if (!value) return 0;
  pid_t parent = (pid_t)atoi(value);
  unsetenv(PARENT_VARIABLE);
  adopted = 1;
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  /* The parent may have ended before the line above: then nothing would signal this one. */
  if (getppid() != parent) _exit(1);
  return 1;
}
