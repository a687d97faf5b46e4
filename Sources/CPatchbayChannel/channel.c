#define _GNU_SOURCE
#include "patchbay_channel.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <pthread.h>
#include <string.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* The areas after the header, each page-aligned. */
enum { HEADER_BYTES = 4096, RING_BYTES = 1u << 20 };

static size_t round_up(size_t value) { return (value + 4095) & ~(size_t)4095; }

static size_t audio_offset(uint64_t message_capacity) {
  return HEADER_BYTES + 2 * round_up(message_capacity) + RING_BYTES;
}

static size_t total_bytes(uint64_t message_capacity) {
  return audio_offset(message_capacity) + round_up(sizeof(pb_channel_period));
}

uint64_t pb_channel_now(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

static uint32_t load(const uint32_t *word) { return __atomic_load_n(word, __ATOMIC_ACQUIRE); }
static void store(uint32_t *word, uint32_t value) {
  __atomic_store_n(word, value, __ATOMIC_RELEASE);
}

/* Shared (not private) futexes: the two processes map the same pages at different addresses. */
static void wake(uint32_t *word) { syscall(SYS_futex, word, FUTEX_WAKE, 1, NULL, NULL, 0); }
static void wake_all(uint32_t *word) {
  syscall(SYS_futex, word, FUTEX_WAKE, 0x7fffffff, NULL, NULL, 0);
}

/* Waits while *word == value, until the absolute CLOCK_MONOTONIC `deadline_ns` (0: none). */
static void wait_while(uint32_t *word, uint32_t value, uint64_t deadline_ns) {
  if (deadline_ns == 0) {
    syscall(SYS_futex, word, FUTEX_WAIT, value, NULL, NULL, 0);
    return;
  }
  uint64_t now = pb_channel_now();
  if (now >= deadline_ns) return;
  uint64_t left = deadline_ns - now;
  struct timespec relative = {(time_t)(left / 1000000000u), (long)(left % 1000000000u)};
  syscall(SYS_futex, word, FUTEX_WAIT, value, &relative, NULL, 0);
}

pb_channel *pb_channel_create(size_t message_capacity, int *fd) {
  int memory = memfd_create("patchbay-channel", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (memory < 0) return NULL;
  size_t size = total_bytes(message_capacity);
  if (ftruncate(memory, (off_t)size) != 0 ||
      fcntl(memory, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW) != 0) {
    int saved = errno;
    close(memory);
    errno = saved;
    return NULL;
  }
  pb_channel *channel = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, memory, 0);
  if (channel == MAP_FAILED) {
    int saved = errno;
    close(memory);
    errno = saved;
    return NULL;
  }
  channel->magic = PB_CHANNEL_MAGIC;
  channel->version = PB_CHANNEL_VERSION;
  channel->message_capacity = round_up(message_capacity);
  channel->ring_capacity = RING_BYTES;
  *fd = memory;
  return channel;
}

pb_channel *pb_channel_map(int fd) {
  struct stat info;
  if (fstat(fd, &info) != 0 || (size_t)info.st_size < HEADER_BYTES) return NULL;
  pb_channel *channel =
      mmap(NULL, (size_t)info.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (channel == MAP_FAILED) return NULL;
  if (channel->magic != PB_CHANNEL_MAGIC || channel->version != PB_CHANNEL_VERSION ||
      total_bytes(channel->message_capacity) != (size_t)info.st_size) {
    munmap(channel, (size_t)info.st_size);
    errno = EINVAL;
    return NULL;
  }
  return channel;
}

void pb_channel_unmap(pb_channel *channel) {
  munmap(channel, total_bytes(channel->message_capacity));
}

void *pb_channel_request(pb_channel *channel) { return (char *)channel + HEADER_BYTES; }
void *pb_channel_reply(pb_channel *channel) {
  return (char *)channel + HEADER_BYTES + channel->message_capacity;
}
static uint8_t *ring(pb_channel *channel) {
  return (uint8_t *)channel + HEADER_BYTES + 2 * channel->message_capacity;
}
pb_channel_period *pb_channel_audio(pb_channel *channel) {
  return (pb_channel_period *)((char *)channel + audio_offset(channel->message_capacity));
}

int pb_channel_ended(const pb_channel *channel) {
  return __atomic_load_n(&channel->ended, __ATOMIC_ACQUIRE) != 0;
}

void pb_channel_end(pb_channel *channel) {
  store(&channel->ended, 1);
  /* Bump every futex word, so a waiter that read the old value before `ended` was set does
   * not sleep on it. */
  __atomic_fetch_add(&channel->answered, 0x10000u, __ATOMIC_ACQ_REL);
  __atomic_fetch_add(&channel->rendered, 0x10000u, __ATOMIC_ACQ_REL);
  __atomic_fetch_add(&channel->call, 0x10000u, __ATOMIC_ACQ_REL);
  __atomic_fetch_add(&channel->period, 0x10000u, __ATOMIC_ACQ_REL);
  wake_all(&channel->answered);
  wake_all(&channel->rendered);
  wake_all(&channel->call);
  wake_all(&channel->period);
  wake_all(&channel->ring_head);
}

/* Until `call` is answered, the channel ends, or `deadline` (0: none) passes. */
static int await_answer(pb_channel *channel, uint32_t call, uint64_t deadline,
                        uint32_t *reply_length) {
  for (;;) {
    uint32_t answered = load(&channel->answered);
    if (pb_channel_ended(channel)) return PB_CHANNEL_ENDED;
    if (answered == call) break;
    if (deadline && pb_channel_now() >= deadline) return PB_CHANNEL_TIMEOUT;
    wait_while(&channel->answered, answered, deadline);
  }
  *reply_length = channel->reply_length;
  return PB_CHANNEL_OK;
}

int pb_channel_call(pb_channel *channel, uint32_t length, uint64_t timeout_ns,
                    uint32_t *reply_length) {
  if (pb_channel_ended(channel)) return PB_CHANNEL_ENDED;
  uint64_t deadline = timeout_ns ? pb_channel_now() + timeout_ns : 0;
  channel->request_length = length;
  /* Atomic: `pb_channel_end` may bump `call` from another thread while a call starts. */
  uint32_t call = load(&channel->call) + 1;
  store(&channel->call, call);
  wake(&channel->call);
  return await_answer(channel, call, deadline, reply_length);
}

int pb_channel_await(pb_channel *channel, uint64_t timeout_ns, uint32_t *reply_length) {
  if (pb_channel_ended(channel)) return PB_CHANNEL_ENDED;
  uint64_t deadline = timeout_ns ? pb_channel_now() + timeout_ns : 0;
  return await_answer(channel, load(&channel->call), deadline, reply_length);
}

int64_t pb_channel_next_call(pb_channel *channel, uint32_t *seen) {
  for (;;) {
    uint32_t call = load(&channel->call);
    if (pb_channel_ended(channel)) return -1;
    if (call != *seen) {
      *seen = call;
      return channel->request_length;
    }
    wait_while(&channel->call, call, 0);
  }
}

void pb_channel_answer(pb_channel *channel, uint32_t length) {
  channel->reply_length = length;
  store(&channel->answered, load(&channel->call));
  wake(&channel->answered);
}

int pb_channel_ring_put(pb_channel *channel, const void *bytes, uint32_t length) {
  uint32_t capacity = (uint32_t)channel->ring_capacity;
  uint32_t head = channel->ring_head;
  uint32_t tail = load(&channel->ring_tail);
  if ((uint64_t)(head - tail) + 4 + length > capacity) return -1;
  uint8_t *base = ring(channel);
  uint8_t prefix[4] = {(uint8_t)length, (uint8_t)(length >> 8), (uint8_t)(length >> 16),
                       (uint8_t)(length >> 24)};
  for (uint32_t i = 0; i < 4; i++) base[(head + i) & (capacity - 1)] = prefix[i];
  const uint8_t *source = bytes;
  for (uint32_t i = 0; i < length; i++) base[(head + 4 + i) & (capacity - 1)] = source[i];
  store(&channel->ring_head, head + 4 + length);
  wake(&channel->ring_head);
  return 0;
}

uint32_t pb_channel_ring_written(const pb_channel *channel) {
  return __atomic_load_n(&channel->ring_head, __ATOMIC_ACQUIRE);
}

uint32_t pb_channel_ring_taken(const pb_channel *channel) {
  return __atomic_load_n(&channel->ring_tail, __ATOMIC_ACQUIRE);
}

uint32_t pb_channel_ring_take(pb_channel *channel, void *out, uint32_t out_capacity) {
  uint32_t capacity = (uint32_t)channel->ring_capacity;
  uint8_t *base = ring(channel);
  for (;;) {
    uint32_t head = load(&channel->ring_head);
    uint32_t tail = channel->ring_tail;
    if (head != tail) {
      uint32_t length = 0;
      for (uint32_t i = 0; i < 4; i++) {
        length |= (uint32_t)base[(tail + i) & (capacity - 1)] << (8 * i);
      }
      uint8_t *target = out;
      for (uint32_t i = 0; i < length && i < out_capacity; i++) {
        target[i] = base[(tail + 4 + i) & (capacity - 1)];
      }
      store(&channel->ring_tail, tail + 4 + length);
      return length < out_capacity ? length : out_capacity;
    }
    if (pb_channel_ended(channel)) return 0;
    wait_while(&channel->ring_head, head, 0);
  }
}

void pb_channel_process_start(pb_channel *channel) {
  store(&channel->period, load(&channel->period) + 1);
  wake(&channel->period);
}

int pb_channel_process_wait(pb_channel *channel, uint64_t deadline_ns) {
  uint32_t period = load(&channel->period);
  for (;;) {
    uint32_t rendered = load(&channel->rendered);
    if (pb_channel_ended(channel)) return PB_CHANNEL_ENDED;
    if (rendered == period) return PB_CHANNEL_OK;
    if (pb_channel_now() >= deadline_ns) return PB_CHANNEL_TIMEOUT;
    wait_while(&channel->rendered, rendered, deadline_ns);
  }
}

static void count(uint64_t *counter) {
  __atomic_store_n(counter, __atomic_load_n(counter, __ATOMIC_RELAXED) + 1, __ATOMIC_RELAXED);
}

/* Every isolated processor's counts, summed (one audio thread writes them). */
static uint64_t total_rendered, total_late, total_skipped;

void pb_isolated_totals(uint64_t *rendered, uint64_t *late, uint64_t *skipped) {
  *rendered = __atomic_load_n(&total_rendered, __ATOMIC_RELAXED);
  *late = __atomic_load_n(&total_late, __ATOMIC_RELAXED);
  *skipped = __atomic_load_n(&total_skipped, __ATOMIC_RELAXED);
}

void pb_isolated_process(void *processor, const pb_process *process) {
  pb_isolated_processor *self = processor;
  pb_isolated_binding *binding = __atomic_load_n(&self->binding, __ATOMIC_ACQUIRE);
  pb_channel *channel = binding ? binding->channel : NULL;
  /* No process, or it still renders a period it was late with: this one is silence. */
  if (!channel || pb_channel_ended(channel) || load(&channel->rendered) != load(&channel->period) ||
      process->frame_count > PB_CHANNEL_MAX_FRAMES ||
      process->channel_count > PB_CHANNEL_MAX_CHANNELS) {
    count(&self->skipped);
    count(&total_skipped);
    count(&self->late_in_a_row);
    return;
  }
  pb_channel_period *period = pb_channel_audio(channel);
  period->processor = binding->index;
  period->frame_count = process->frame_count;
  period->sample_rate = process->sample_rate;
  period->channel_count = process->channel_count;
  period->steady_time = process->steady_time;
  period->has_parameters = process->parameters != NULL;
  if (process->parameters) memcpy(period->parameters, process->parameters, self->parameter_size);
  uint32_t midi = process->midi_count < PB_CHANNEL_MAX_MIDI ? process->midi_count
                                                              : PB_CHANNEL_MAX_MIDI;
  if (midi) memcpy(period->midi, process->midi, midi * sizeof(pb_midi_event));
  period->midi_count = midi;
  size_t samples = (size_t)process->frame_count * process->channel_count;
  period->inserts = self->inserts;
  if (self->inserts) memcpy(period->samples, process->output, samples * sizeof(float));
  uint64_t now = pb_channel_now();
  uint64_t deadline =
      self->offline ? now + self->offline_timeout_ns
                    : now + (uint64_t)((double)process->frame_count * 1e9 /
                                       (double)process->sample_rate * self->deadline_share);
  pb_channel_process_start(channel);
  if (pb_channel_process_wait(channel, deadline) != PB_CHANNEL_OK) {
    count(&self->late);
    count(&total_late);
    count(&self->late_in_a_row);
    /* Offline, one period not back within the timeout is a hang already. */
    if (self->offline) __atomic_store_n(&self->late_in_a_row, UINT64_MAX / 2, __ATOMIC_RELAXED);
    return;
  }
  if (self->inserts) {
    memcpy(process->output, period->samples, samples * sizeof(float));
  } else {
    for (size_t i = 0; i < samples; i++) process->output[i] += period->samples[i];
  }
  uint32_t events = period->event_count < PB_MAX_PROCESSOR_EVENTS ? period->event_count
                                                                   : PB_MAX_PROCESSOR_EVENTS;
  for (uint32_t i = 0; i < events; i++) {
    process->events->push(process->events, &period->events[i]);
  }
  /* The host's push keeps the processor's max_midi_output and the frame order. */
  uint32_t sent = period->midi_out_count < PB_MAX_PROCESSOR_EVENTS ? period->midi_out_count
                                                                    : PB_MAX_PROCESSOR_EVENTS;
  if (process->struct_size >= sizeof(pb_process) && process->midi_out) {
    for (uint32_t i = 0; i < sent; i++) {
      process->midi_out->push(process->midi_out, &period->midi_out[i]);
    }
  }
  count(&self->rendered);
  count(&total_rendered);
  __atomic_store_n(&self->late_in_a_row, 0, __ATOMIC_RELAXED);
}

void pb_isolated_bind(pb_isolated_processor *processor, pb_isolated_binding *binding) {
  __atomic_store_n(&processor->late_in_a_row, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&processor->binding, binding, __ATOMIC_RELEASE);
}

uint64_t pb_isolated_late_in_a_row(const pb_isolated_processor *processor) {
  return __atomic_load_n(&processor->late_in_a_row, __ATOMIC_RELAXED);
}

void pb_isolated_counts(const pb_isolated_processor *processor, uint64_t *rendered,
                        uint64_t *late, uint64_t *skipped) {
  *rendered = __atomic_load_n(&processor->rendered, __ATOMIC_RELAXED);
  *late = __atomic_load_n(&processor->late, __ATOMIC_RELAXED);
  *skipped = __atomic_load_n(&processor->skipped, __ATOMIC_RELAXED);
}

void pb_isolated_write_parameters(void *instance, void *block) { (void)instance, (void)block; }

pb_status pb_isolated_event_action(void *instance, const pb_processor_event *event,
                                   const pb_writer *out) {
  (void)instance, (void)event, (void)out;
  return PB_ERR_UNSUPPORTED;
}

void pb_isolated_destroy(void *processor) {
  pb_isolated_processor *self = processor;
  self->release(self->owner);
}

int pb_channel_process_next(pb_channel *channel, uint32_t *seen) {
  for (;;) {
    uint32_t period = load(&channel->period);
    if (pb_channel_ended(channel)) return PB_CHANNEL_ENDED;
    if (period != *seen) {
      *seen = period;
      return PB_CHANNEL_OK;
    }
    wait_while(&channel->period, period, 0);
  }
}

void pb_channel_process_done(pb_channel *channel, uint32_t seen) {
  store(&channel->rendered, seen);
  wake(&channel->rendered);
}

static void *wait_for_host(void *lifeline) {
  char byte;
  while (read((int)(intptr_t)lifeline, &byte, 1) != 0) {
  }
  _exit(0);
}

int pb_channel_die_with_host(int lifeline) {
  pthread_t thread;
  if (pthread_create(&thread, NULL, wait_for_host, (void *)(intptr_t)lifeline) != 0) return -1;
  pthread_detach(thread);
  return 0;
}

/* What a child's processor pushes lands in the period's event list. The host's push, which
 * gets them after the period, keeps the processor's `max_output_events` and counts what it
 * drops, as it does for a processor in its own process; here only the list's room counts. */
static bool push_event(const pb_event_output *output, const pb_processor_event *event) {
  pb_channel_period *period = output->context;
  if (period->event_count >= PB_MAX_PROCESSOR_EVENTS) return false;
  period->events[period->event_count++] = *event;
  return true;
}

/* What it sends as MIDI lands in the period's MIDI list, for the host to pass on. */
static bool push_midi(const pb_midi_output *output, const pb_midi_event *event) {
  pb_channel_period *period = output->context;
  if (period->midi_out_count >= PB_MAX_PROCESSOR_EVENTS) return false;
  period->midi_out[period->midi_out_count++] = *event;
  return true;
}

void pb_channel_serve_audio(pb_channel *channel, const pb_channel_processor *table,
                            uint32_t capacity) {
  pb_channel_period *period = pb_channel_audio(channel);
  uint32_t seen = load(&channel->rendered);
  store(&channel->audio_ready, 1);
  while (pb_channel_process_next(channel, &seen) == PB_CHANNEL_OK) {
    if (period->processor < capacity && table[period->processor].process &&
        period->frame_count <= PB_CHANNEL_MAX_FRAMES &&
        period->channel_count <= PB_CHANNEL_MAX_CHANNELS) {
      const pb_channel_processor *entry = &table[period->processor];
      pb_event_output events = {period, push_event};
      pb_midi_output midi_out = {period, push_midi};
      period->event_count = 0;
      period->midi_out_count = 0;
      uint32_t midi_count = period->midi_count < PB_CHANNEL_MAX_MIDI ? period->midi_count
                                                                       : PB_CHANNEL_MAX_MIDI;
      pb_process call = {
          .struct_size = sizeof(pb_process),
          .frame_count = period->frame_count,
          .sample_rate = period->sample_rate,
          .channel_count = period->channel_count,
          .steady_time = period->steady_time,
          .output = period->samples,
          .parameters = entry->parameter_size ? period->parameters : NULL,
          .midi = midi_count ? period->midi : NULL,
          .midi_count = midi_count,
          .events = &events,
          .midi_out = entry->max_midi_output ? &midi_out : NULL,
      };
      if (!period->inserts) {
        memset(period->samples, 0, sizeof(float) * period->frame_count * period->channel_count);
      }
      pb_crash_note(&entry->crash);
      entry->process(entry->processor, &call);
      pb_crash_note(NULL);
    }
    pb_channel_process_done(channel, seen);
  }
}

#if defined(__x86_64__)
#define PB_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define PB_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif

int pb_channel_confine(unsigned allow, uint64_t memory_bytes, uint64_t cpu_seconds) {
  if (memory_bytes) {
    struct rlimit limit = {memory_bytes, memory_bytes};
    if (setrlimit(RLIMIT_AS, &limit) != 0) return -1;
  }
  if (cpu_seconds) {
    /* SIGXCPU at the soft limit ends the process (its default action). */
    struct rlimit limit = {cpu_seconds, cpu_seconds + 1};
    if (setrlimit(RLIMIT_CPU, &limit) != 0) return -1;
  }
#ifdef PB_AUDIT_ARCH
  long denied[8];
  int count = 0;
  if (!(allow & PB_ALLOW_SOCKETS)) {
    denied[count++] = SYS_socket;
    denied[count++] = SYS_socketpair;
  }
  if (!(allow & PB_ALLOW_EXEC)) {
    denied[count++] = SYS_execve;
    denied[count++] = SYS_execveat;
  }
  if (!(allow & PB_ALLOW_PTRACE)) {
    denied[count++] = SYS_ptrace;
    denied[count++] = SYS_process_vm_readv;
    denied[count++] = SYS_process_vm_writev;
  }
  if (count == 0) return 0;
  struct sock_filter filter[6 + 2 * 8 + 1];
  int n = 0;
  /* Another architecture's system call numbers mean other calls: refuse them all. */
  filter[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
                                             offsetof(struct seccomp_data, arch));
  filter[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, PB_AUDIT_ARCH, 1, 0);
  filter[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
  filter[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
                                             offsetof(struct seccomp_data, nr));
  /* x32 system calls (the same architecture, numbers from 0x40000000) would slip past. */
  filter[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1);
  filter[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
  for (int i = 0; i < count; i++) {
    filter[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)denied[i], 0, 1);
    filter[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM);
  }
  filter[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
  struct sock_fprog program = {(unsigned short)n, filter};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return -1;
  if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) != 0) return -1;
#endif
  return 0;
}
