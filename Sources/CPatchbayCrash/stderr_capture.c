#define _GNU_SOURCE
#include "patchbay_crash.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/*
 * What the process writes to stderr while a full-screen UI runs — a plugin's prints, and the
 * line the Swift runtime writes before it traps ("Pomodoro.swift:69: Fatal error: …") — would
 * be drawn over the screen and lost with it. Instead fd 2 is a pipe while the UI runs; a
 * thread keeps the last KEPT bytes of it, and they are written to the real stderr after the
 * terminal is put back: when the UI ends, and before a crash or hang report.
 */

#define KEPT 8192
static char kept[KEPT];
static volatile size_t kept_total; /* bytes ever kept; the newest end at kept_total % KEPT */
static volatile int draining;      /* held by whoever takes bytes out of the pipe */
static volatile int original = -1; /* the real stderr, while captured */
static int pipe_read = -1;
static pthread_t reader;

static void keep(const char *bytes, size_t length) {
  for (size_t i = 0; i < length; i++) kept[(kept_total + i) % KEPT] = bytes[i];
  __atomic_store_n(&kept_total, kept_total + length, __ATOMIC_RELEASE);
}

/*
 * Takes what the pipe holds now into `kept` (the pipe is non-blocking), holding `draining`:
 * bytes are in the pipe or in `kept`, never in between where a crash report would miss them
 * (the reader only waits for the pipe in poll, outside it). `patient`: wait up to 200 ms for
 * the reader to let go (a signal handler); else give up at once. Async-signal-safe.
 */
static int drain(int patient) {
  struct timespec pause = {0, 1000000};
  for (int waited = 0; __atomic_exchange_n(&draining, 1, __ATOMIC_ACQUIRE); waited++) {
    if (!patient || waited >= 200) return 0;
    nanosleep(&pause, NULL);
  }
  char buffer[1024];
  ssize_t length;
  int ended = 0;
  for (;;) {
    length = read(pipe_read, buffer, sizeof buffer);
    if (length > 0) {
      keep(buffer, (size_t)length);
      continue;
    }
    if (length < 0 && errno == EINTR) continue;
    ended = length == 0 || errno != EAGAIN;  /* no writer left, or the pipe is gone */
    break;
  }
  __atomic_store_n(&draining, 0, __ATOMIC_RELEASE);
  return ended ? -1 : 1;
}

/* Until the pipe ends, or the capture ended and the pipe is empty. */
static void *read_pipe(void *unused) {
  (void)unused;
  struct pollfd ready = {pipe_read, POLLIN, 0};
  for (;;) {
    int polled = poll(&ready, 1, 100);
    if (polled < 0 && errno != EINTR) return NULL;
    if (drain(1) < 0) return NULL;
    if (original < 0 && polled == 0) return NULL;
  }
}

int pb_crash_capture_stderr(void) {
  if (original >= 0) return 0;
  int ends[2];
  if (pipe2(ends, O_CLOEXEC) != 0) return -1;
  fcntl(ends[0], F_SETFL, O_NONBLOCK);
  int saved = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
  if (saved < 0 || dup2(ends[1], STDERR_FILENO) < 0) {
    close(ends[0]);
    close(ends[1]);
    if (saved >= 0) close(saved);
    return -1;
  }
  close(ends[1]);
  pipe_read = ends[0];
  kept_total = 0;
  original = saved;
  if (pthread_create(&reader, NULL, read_pipe, NULL) != 0) {
    dup2(saved, STDERR_FILENO);
    close(saved);
    close(pipe_read);
    original = -1;
    return -1;
  }
  pthread_detach(reader);
  return 0;
}

int pb_crash_reclaim_stderr(void);

/* Writes what was kept to fd, with a line before it; async-signal-safe. */
static void write_kept(int fd) {
  size_t total = __atomic_load_n(&kept_total, __ATOMIC_ACQUIRE);
  if (total == 0) return;
  static const char header[] = "patchbay: written to stderr while the terminal UI ran:\n";
  (void)!write(fd, header, sizeof header - 1);
  size_t count = total < KEPT ? total : KEPT;
  size_t start = (total - count) % KEPT;
  if (start + count <= KEPT) {
    (void)!write(fd, kept + start, count);
  } else {
    (void)!write(fd, kept + start, KEPT - start);
    (void)!write(fd, kept, count - (KEPT - start));
  }
  if (kept[(total - 1) % KEPT] != '\n') (void)!write(fd, "\n", 1);
}

void pb_crash_release_stderr(void) {
  /* Not a join: a child process (an isolated plugin's) may hold the pipe's write end open. */
  if (pb_crash_reclaim_stderr()) write_kept(STDERR_FILENO);
  kept_total = 0;
}

int pb_crash_reclaim_stderr(void) {
  int saved = original;
  if (saved < 0) return 0;
  original = -1;
  /* What is still in the pipe (the runtime's line, written just before the trap). */
  drain(1);
  dup2(saved, STDERR_FILENO);
  return 1;
}

void pb_crash_write_kept_stderr(void) { write_kept(STDERR_FILENO); }
