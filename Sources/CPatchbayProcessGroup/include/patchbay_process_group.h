#ifndef PATCHBAY_PROCESS_GROUP_H
#define PATCHBAY_PROCESS_GROUP_H

#include <spawn.h>
#include <sys/types.h>

/*
 * The processes a run of Patchbay starts (the validator's test children, isolated plugins'
 * processes, and theirs), kept in one process group that this process ends when it exits,
 * and on SIGINT, SIGTERM and SIGHUP: a run leaves no process behind.
 *
 *   pid_t pid;
 *   if (pb_group_spawn(&pid, "/usr/bin/patchbay", &actions, argv, environ,
 *                      PB_GROUP_DIE_WITH_PARENT) != 0) { … }
 *   …                                   // waitpid(pid, …)
 *   pb_group_reaped();
 *
 * The group's id is its first process's; the processes started while one of them lives join
 * it. A process started by pb_group_spawn that starts processes of its own (the validator's
 * child loading a plugin isolated) keeps them in the group it is in.
 *
 * A SIGKILL runs no handler: a process started with PB_GROUP_DIE_WITH_PARENT, once it has
 * called pb_group_adopt, is killed by the kernel when the thread that started it ends
 * (PR_SET_PDEATHSIG), so start it from a thread that outlives it. One whose parent is already
 * gone by then exits at once.
 */

enum {
  /* The child is sent SIGKILL when its parent's starting thread ends (see pb_group_adopt). */
  PB_GROUP_DIE_WITH_PARENT = 1,
};

/* posix_spawn into the run's process group; 0, or the error posix_spawn gave. Installs the
 * signal handlers and the exit handler that end the group, once. */
int pb_group_spawn(pid_t *pid, const char *path, const posix_spawn_file_actions_t *actions,
                   char *const argv[], char *const envp[], int flags);

/* Adds to `actions` the closing of every descriptor from `lowest` on, in the child before it
 * runs: it gets only what the actions gave it, nothing else the parent had open. 0, or an
 * errno. */
int pb_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest);

/* Says that a process pb_group_spawn started has been waited for: once none is left, the
 * next one starts a new group (the old id may belong to another process by then). */
void pb_group_reaped(void);

/* Ends every process of the group now (SIGKILL). Async-signal-safe. */
void pb_group_end(void);

/* The group's id; 0 while it has no process. */
pid_t pb_group_id(void);

/* Called first thing by an executable pb_group_spawn may start: when it was started with
 * PB_GROUP_DIE_WITH_PARENT, it asks the kernel for SIGKILL when its parent ends, and exits
 * with status 1 if the parent has already ended. Returns 1 when it was, 0 otherwise. */
int pb_group_adopt(void);

#endif
