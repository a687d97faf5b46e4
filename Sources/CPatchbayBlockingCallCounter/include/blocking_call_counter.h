/*
 * blocking_call_counter.h — counts the calls that can block, made by one watched thread: locks
 * (pthread mutexes, read-write locks, spin locks, condition variables, semaphores, futexes)
 * and system calls (file and socket I/O, sleeps, memory maps, threads, stdio).
 *
 * Linked into an executable that exports its symbols (`--export-dynamic`), the functions
 * below take the place of libc's for the whole process, plugins loaded with dlopen included:
 * each forwards to libc's and, on the watched thread only, counts the call first. Nothing
 * here allocates or locks.
 *
 *   pb_blocking_watch(1);              // on the thread to check
 *   processor->process(p, &period);
 *   pb_blocking_watch(0);
 *   for (size_t i = 0; i < pb_blocking_function_count(); i++)
 *     if (pb_blocking_calls(i)) printf("%s × %lu\n", pb_blocking_function_name(i), …);
 *
 * Calls a library makes inside libc (glibc's own stdio locks) are not seen: the calls counted
 * are the ones that go through the dynamic linker, from the plugin, the Swift runtime or any
 * other library.
 */
#ifndef BLOCKING_CALL_COUNTER_H
#define BLOCKING_CALL_COUNTER_H

#include <stddef.h>

/* What a counted function is. */
typedef enum { PB_BLOCKING_LOCK = 0, PB_BLOCKING_SYSTEM_CALL = 1 } pb_blocking_kind;

/* Starts (1) or stops (0) counting the calling thread's calls. One thread at a time. */
void pb_blocking_watch(int on);

/* Whether the counter is linked so that it sees calls: a call made on purpose was counted. */
int pb_blocking_self_test(void);

/* The counted functions, by index: their names, kinds and calls since the last reset. */
size_t pb_blocking_function_count(void);
const char *pb_blocking_function_name(size_t index);
pb_blocking_kind pb_blocking_function_kind(size_t index);
unsigned long pb_blocking_calls(size_t index);

/* Sets every count to 0. */
void pb_blocking_reset(void);

#endif
