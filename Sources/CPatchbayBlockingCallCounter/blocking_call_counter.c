/* The counted functions: each forwards to the next definition (libc's), counting the call
 * first when the calling thread is watched. See blocking_call_counter.h. */
#define _GNU_SOURCE
#include "blocking_call_counter.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/select.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* Every counted function: its name and kind, in index order. */
#define PB_BLOCKING_FUNCTIONS(X)                                                               \
  X(pthread_mutex_lock, LOCK)                                                                  \
  X(pthread_mutex_trylock, LOCK)                                                               \
  X(pthread_mutex_timedlock, LOCK)                                                             \
  X(pthread_rwlock_rdlock, LOCK)                                                               \
  X(pthread_rwlock_wrlock, LOCK)                                                               \
  X(pthread_rwlock_tryrdlock, LOCK)                                                            \
  X(pthread_rwlock_trywrlock, LOCK)                                                            \
  X(pthread_spin_lock, LOCK)                                                                   \
  X(pthread_cond_wait, LOCK)                                                                   \
  X(pthread_cond_timedwait, LOCK)                                                              \
  X(pthread_cond_signal, LOCK)                                                                 \
  X(pthread_cond_broadcast, LOCK)                                                              \
  X(sem_wait, LOCK)                                                                            \
  X(sem_timedwait, LOCK)                                                                       \
  X(sem_post, LOCK)                                                                            \
  X(futex, LOCK)                                                                               \
  X(syscall, SYSTEM_CALL)                                                                      \
  X(read, SYSTEM_CALL)                                                                         \
  X(write, SYSTEM_CALL)                                                                        \
  X(pread, SYSTEM_CALL)                                                                        \
  X(pwrite, SYSTEM_CALL)                                                                       \
  X(open, SYSTEM_CALL)                                                                         \
  X(openat, SYSTEM_CALL)                                                                       \
  X(close, SYSTEM_CALL)                                                                        \
  X(nanosleep, SYSTEM_CALL)                                                                    \
  X(clock_nanosleep, SYSTEM_CALL)                                                              \
  X(usleep, SYSTEM_CALL)                                                                       \
  X(sleep, SYSTEM_CALL)                                                                        \
  X(sched_yield, SYSTEM_CALL)                                                                  \
  X(poll, SYSTEM_CALL)                                                                         \
  X(select, SYSTEM_CALL)                                                                       \
  X(ioctl, SYSTEM_CALL)                                                                        \
  X(mmap, SYSTEM_CALL)                                                                         \
  X(munmap, SYSTEM_CALL)                                                                       \
  X(mprotect, SYSTEM_CALL)                                                                     \
  X(pthread_create, SYSTEM_CALL)                                                               \
  X(fopen, SYSTEM_CALL)                                                                        \
  X(fwrite, SYSTEM_CALL)                                                                       \
  X(fputs, SYSTEM_CALL)                                                                        \
  X(puts, SYSTEM_CALL)                                                                         \
  X(printf, SYSTEM_CALL)                                                                       \
  X(fprintf, SYSTEM_CALL)                                                                      \
  X(fflush, SYSTEM_CALL)

#define PB_INDEX(name, kind) INDEX_##name,
enum { PB_BLOCKING_FUNCTIONS(PB_INDEX) FUNCTION_COUNT };
#define PB_NAME(name, kind) #name,
static const char *const names[] = {PB_BLOCKING_FUNCTIONS(PB_NAME)};
#define PB_KIND(name, kind) PB_BLOCKING_##kind,
static const pb_blocking_kind kinds[] = {PB_BLOCKING_FUNCTIONS(PB_KIND)};

static unsigned long counts[FUNCTION_COUNT];
static __thread int watched;

void pb_blocking_watch(int on) { watched = on; }
size_t pb_blocking_function_count(void) { return FUNCTION_COUNT; }
const char *pb_blocking_function_name(size_t index) {
  return index < FUNCTION_COUNT ? names[index] : "";
}
pb_blocking_kind pb_blocking_function_kind(size_t index) {
  return index < FUNCTION_COUNT ? kinds[index] : PB_BLOCKING_SYSTEM_CALL;
}
unsigned long pb_blocking_calls(size_t index) {
  return index < FUNCTION_COUNT ? __atomic_load_n(&counts[index], __ATOMIC_RELAXED) : 0;
}
void pb_blocking_reset(void) {
  for (size_t i = 0; i < FUNCTION_COUNT; i++) __atomic_store_n(&counts[i], 0, __ATOMIC_RELAXED);
}

#define COUNT(name)                                                                            \
  do {                                                                                         \
    if (watched) __atomic_fetch_add(&counts[INDEX_##name], 1, __ATOMIC_RELAXED);               \
  } while (0)

/* libc's definition of `name`: looked up once (all of them at start, below, so that no lookup
 * happens on a watched thread), by a library's constructor if it calls first. */
#define REAL(name, type) static __typeof__(type) real_##name;
#define LOOKUP(name)                                                                           \
  (real_##name ? real_##name                                                                   \
               : (real_##name = (__typeof__(real_##name))dlsym(RTLD_NEXT, #name)))

/* A lock function of one argument, `int name(type *)`, counted. */
#define ONE_ARGUMENT_LOCK(name, type)                                                          \
  static int (*real_##name)(type *);                                                           \
  int name(type *lock) {                                                                       \
    COUNT(name);                                                                               \
    return LOOKUP(name)(lock);                                                                 \
  }

ONE_ARGUMENT_LOCK(pthread_mutex_lock, pthread_mutex_t)
ONE_ARGUMENT_LOCK(pthread_mutex_trylock, pthread_mutex_t)
ONE_ARGUMENT_LOCK(pthread_rwlock_rdlock, pthread_rwlock_t)
ONE_ARGUMENT_LOCK(pthread_rwlock_wrlock, pthread_rwlock_t)
ONE_ARGUMENT_LOCK(pthread_rwlock_tryrdlock, pthread_rwlock_t)
ONE_ARGUMENT_LOCK(pthread_rwlock_trywrlock, pthread_rwlock_t)
ONE_ARGUMENT_LOCK(pthread_spin_lock, pthread_spinlock_t)
ONE_ARGUMENT_LOCK(pthread_cond_signal, pthread_cond_t)
ONE_ARGUMENT_LOCK(pthread_cond_broadcast, pthread_cond_t)
ONE_ARGUMENT_LOCK(sem_wait, sem_t)
ONE_ARGUMENT_LOCK(sem_post, sem_t)

REAL(pthread_mutex_timedlock, int (*)(pthread_mutex_t *, const struct timespec *))
int pthread_mutex_timedlock(pthread_mutex_t *mutex, const struct timespec *until) {
  COUNT(pthread_mutex_timedlock);
  return LOOKUP(pthread_mutex_timedlock)(mutex, until);
}
REAL(pthread_cond_wait, int (*)(pthread_cond_t *, pthread_mutex_t *))
int pthread_cond_wait(pthread_cond_t *cond, pthread_mutex_t *mutex) {
  COUNT(pthread_cond_wait);
  return LOOKUP(pthread_cond_wait)(cond, mutex);
}
REAL(pthread_cond_timedwait,
     int (*)(pthread_cond_t *, pthread_mutex_t *, const struct timespec *))
int pthread_cond_timedwait(pthread_cond_t *cond, pthread_mutex_t *mutex,
                           const struct timespec *until) {
  COUNT(pthread_cond_timedwait);
  return LOOKUP(pthread_cond_timedwait)(cond, mutex, until);
}
REAL(sem_timedwait, int (*)(sem_t *, const struct timespec *))
int sem_timedwait(sem_t *sem, const struct timespec *until) {
  COUNT(sem_timedwait);
  return LOOKUP(sem_timedwait)(sem, until);
}

/* syscall(2): a futex is a lock; anything else a system call. Six arguments are passed on,
 * as many as any system call takes. */
REAL(syscall, long (*)(long, ...))
long syscall(long number, ...) {
  va_list arguments;
  va_start(arguments, number);
  long a = va_arg(arguments, long), b = va_arg(arguments, long), c = va_arg(arguments, long),
       d = va_arg(arguments, long), e = va_arg(arguments, long), f = va_arg(arguments, long);
  va_end(arguments);
  if (number == SYS_futex) {
    COUNT(futex);
  } else {
    COUNT(syscall);
  }
  return LOOKUP(syscall)(number, a, b, c, d, e, f);
}

REAL(read, ssize_t (*)(int, void *, size_t))
ssize_t read(int fd, void *bytes, size_t count) {
  COUNT(read);
  return LOOKUP(read)(fd, bytes, count);
}
REAL(write, ssize_t (*)(int, const void *, size_t))
ssize_t write(int fd, const void *bytes, size_t count) {
  COUNT(write);
  return LOOKUP(write)(fd, bytes, count);
}
REAL(pread, ssize_t (*)(int, void *, size_t, off_t))
ssize_t pread(int fd, void *bytes, size_t count, off_t offset) {
  COUNT(pread);
  return LOOKUP(pread)(fd, bytes, count, offset);
}
REAL(pwrite, ssize_t (*)(int, const void *, size_t, off_t))
ssize_t pwrite(int fd, const void *bytes, size_t count, off_t offset) {
  COUNT(pwrite);
  return LOOKUP(pwrite)(fd, bytes, count, offset);
}
/* open and openat take a mode only with O_CREAT or O_TMPFILE. */
REAL(open, int (*)(const char *, int, ...))
int open(const char *path, int flags, ...) {
  COUNT(open);
  mode_t mode = 0;
  if (flags & (O_CREAT | O_TMPFILE)) {
    va_list arguments;
    va_start(arguments, flags);
    mode = va_arg(arguments, mode_t);
    va_end(arguments);
  }
  return LOOKUP(open)(path, flags, mode);
}
REAL(openat, int (*)(int, const char *, int, ...))
int openat(int directory, const char *path, int flags, ...) {
  COUNT(openat);
  mode_t mode = 0;
  if (flags & (O_CREAT | O_TMPFILE)) {
    va_list arguments;
    va_start(arguments, flags);
    mode = va_arg(arguments, mode_t);
    va_end(arguments);
  }
  return LOOKUP(openat)(directory, path, flags, mode);
}
REAL(close, int (*)(int))
int close(int fd) {
  COUNT(close);
  return LOOKUP(close)(fd);
}
REAL(nanosleep, int (*)(const struct timespec *, struct timespec *))
int nanosleep(const struct timespec *duration, struct timespec *left) {
  COUNT(nanosleep);
  return LOOKUP(nanosleep)(duration, left);
}
REAL(clock_nanosleep, int (*)(clockid_t, int, const struct timespec *, struct timespec *))
int clock_nanosleep(clockid_t clock, int flags, const struct timespec *duration,
                    struct timespec *left) {
  COUNT(clock_nanosleep);
  return LOOKUP(clock_nanosleep)(clock, flags, duration, left);
}
REAL(usleep, int (*)(useconds_t))
int usleep(useconds_t microseconds) {
  COUNT(usleep);
  return LOOKUP(usleep)(microseconds);
}
REAL(sleep, unsigned (*)(unsigned))
unsigned sleep(unsigned seconds) {
  COUNT(sleep);
  return LOOKUP(sleep)(seconds);
}
REAL(sched_yield, int (*)(void))
int sched_yield(void) {
  COUNT(sched_yield);
  return LOOKUP(sched_yield)();
}
REAL(poll, int (*)(struct pollfd *, nfds_t, int))
int poll(struct pollfd *fds, nfds_t count, int timeout) {
  COUNT(poll);
  return LOOKUP(poll)(fds, count, timeout);
}
REAL(select, int (*)(int, fd_set *, fd_set *, fd_set *, struct timeval *))
int select(int count, fd_set *reads, fd_set *writes, fd_set *errors, struct timeval *timeout) {
  COUNT(select);
  return LOOKUP(select)(count, reads, writes, errors, timeout);
}
REAL(ioctl, int (*)(int, unsigned long, ...))
int ioctl(int fd, unsigned long request, ...) {
  va_list arguments;
  va_start(arguments, request);
  void *argument = va_arg(arguments, void *);
  va_end(arguments);
  COUNT(ioctl);
  return LOOKUP(ioctl)(fd, request, argument);
}
REAL(mmap, void *(*)(void *, size_t, int, int, int, off_t))
void *mmap(void *address, size_t length, int protection, int flags, int fd, off_t offset) {
  COUNT(mmap);
  return LOOKUP(mmap)(address, length, protection, flags, fd, offset);
}
REAL(munmap, int (*)(void *, size_t))
int munmap(void *address, size_t length) {
  COUNT(munmap);
  return LOOKUP(munmap)(address, length);
}
REAL(mprotect, int (*)(void *, size_t, int))
int mprotect(void *address, size_t length, int protection) {
  COUNT(mprotect);
  return LOOKUP(mprotect)(address, length, protection);
}
REAL(pthread_create, int (*)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *))
int pthread_create(pthread_t *thread, const pthread_attr_t *attributes, void *(*start)(void *),
                   void *argument) {
  COUNT(pthread_create);
  return LOOKUP(pthread_create)(thread, attributes, start, argument);
}
REAL(fopen, FILE *(*)(const char *, const char *))
FILE *fopen(const char *path, const char *mode) {
  COUNT(fopen);
  return LOOKUP(fopen)(path, mode);
}
REAL(fwrite, size_t (*)(const void *, size_t, size_t, FILE *))
size_t fwrite(const void *bytes, size_t size, size_t count, FILE *file) {
  COUNT(fwrite);
  return LOOKUP(fwrite)(bytes, size, count, file);
}
REAL(fputs, int (*)(const char *, FILE *))
int fputs(const char *text, FILE *file) {
  COUNT(fputs);
  return LOOKUP(fputs)(text, file);
}
REAL(puts, int (*)(const char *))
int puts(const char *text) {
  COUNT(puts);
  return LOOKUP(puts)(text);
}
REAL(fflush, int (*)(FILE *))
int fflush(FILE *file) {
  COUNT(fflush);
  return LOOKUP(fflush)(file);
}
/* printf and fprintf pass their arguments on to libc's vprintf and vfprintf. */
static int (*real_vprintf)(const char *, va_list);
static int (*real_vfprintf)(FILE *, const char *, va_list);
int printf(const char *format, ...) {
  COUNT(printf);
  va_list arguments;
  va_start(arguments, format);
  int written = LOOKUP(vprintf)(format, arguments);
  va_end(arguments);
  return written;
}
int fprintf(FILE *file, const char *format, ...) {
  COUNT(fprintf);
  va_list arguments;
  va_start(arguments, format);
  int written = LOOKUP(vfprintf)(file, format, arguments);
  va_end(arguments);
  return written;
}

/* Looks every function up at start, so that no watched thread looks one up. */
__attribute__((constructor)) static void look_up_all(void) {
  (void)LOOKUP(pthread_mutex_lock);
  (void)LOOKUP(pthread_mutex_trylock);
  (void)LOOKUP(pthread_mutex_timedlock);
  (void)LOOKUP(pthread_rwlock_rdlock);
  (void)LOOKUP(pthread_rwlock_wrlock);
  (void)LOOKUP(pthread_rwlock_tryrdlock);
  (void)LOOKUP(pthread_rwlock_trywrlock);
  (void)LOOKUP(pthread_spin_lock);
  (void)LOOKUP(pthread_cond_wait);
  (void)LOOKUP(pthread_cond_timedwait);
  (void)LOOKUP(pthread_cond_signal);
  (void)LOOKUP(pthread_cond_broadcast);
  (void)LOOKUP(sem_wait);
  (void)LOOKUP(sem_timedwait);
  (void)LOOKUP(sem_post);
  (void)LOOKUP(syscall);
  (void)LOOKUP(read);
  (void)LOOKUP(write);
  (void)LOOKUP(pread);
  (void)LOOKUP(pwrite);
  (void)LOOKUP(open);
  (void)LOOKUP(openat);
  (void)LOOKUP(close);
  (void)LOOKUP(nanosleep);
  (void)LOOKUP(clock_nanosleep);
  (void)LOOKUP(usleep);
  (void)LOOKUP(sleep);
  (void)LOOKUP(sched_yield);
  (void)LOOKUP(poll);
  (void)LOOKUP(select);
  (void)LOOKUP(ioctl);
  (void)LOOKUP(mmap);
  (void)LOOKUP(munmap);
  (void)LOOKUP(mprotect);
  (void)LOOKUP(pthread_create);
  (void)LOOKUP(fopen);
  (void)LOOKUP(fwrite);
  (void)LOOKUP(fputs);
  (void)LOOKUP(puts);
  (void)LOOKUP(fflush);
  (void)LOOKUP(vprintf);
  (void)LOOKUP(vfprintf);
}

int pb_blocking_self_test(void) {
  /* What a plugin calling sched_yield reaches: the global lookup, as the dynamic linker does
   * for a library loaded with dlopen. */
  int (*yield)(void) = (int (*)(void))dlsym(RTLD_DEFAULT, "sched_yield");
  if (!yield) return 0;
  unsigned long before = pb_blocking_calls(INDEX_sched_yield);
  pb_blocking_watch(1);
  yield();
  pb_blocking_watch(0);
  return pb_blocking_calls(INDEX_sched_yield) > before;
}
