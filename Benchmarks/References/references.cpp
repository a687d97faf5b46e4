#include "references.h"

#include <alsa/asoundlib.h>
#include <pthread.h>
#include <sched.h>
#include <unistd.h>
#include <linux/futex.h>
#include <malloc.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <jack/ringbuffer.h>

#include <boost/lockfree/spsc_queue.hpp>
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <ctime>
#include <thread>
#include <vector>

static uint64_t now() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/* A block of floats on its own cache lines (the Swift side allocates its blocks the same way). */
struct AlignedBlock {
  float *pointer;
  explicit AlignedBlock(size_t count) {
    pointer = static_cast<float *>(aligned_alloc(64, (count * sizeof(float) + 63) / 64 * 64));
    for (size_t i = 0; i < count; i++) pointer[i] = 1.0f;
  }
  ~AlignedBlock() { free(pointer); }
  float *data() { return pointer; }
};

size_t reference_heap_in_use(void) {
  struct mallinfo2 info = mallinfo2();
  return info.uordblks + info.hblkhd;
}

void reference_pin_current_thread(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  if (cpu < 0) {
    for (long i = 0; i < cpus; i++) CPU_SET(i, &set);
  } else {
    CPU_SET(cpu % cpus, &set);
  }
  pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

/* Runs `producer` on a new thread pinned to core 1 and `consumer` on this one pinned to core 0;
 * returns ns from when both were running until both finished. The clock starts only when the
 * producer thread is up: starting a thread on an idle vCPU costs milliseconds here (the
 * hypervisor has to wake it), which would otherwise be timed as ring throughput. */
template <class Producer, class Consumer>
static uint64_t timed_pair(Producer producer, Consumer consumer) {
  std::atomic<int> stage{0};
  reference_pin_current_thread(0);
  std::thread thread([&] {
    reference_pin_current_thread(1);
    stage.store(1, std::memory_order_release);
    while (stage.load(std::memory_order_acquire) != 2) {}
    producer();
  });
  while (stage.load(std::memory_order_acquire) != 1) {}
  uint64_t start = now();
  stage.store(2, std::memory_order_release);
  consumer();
  thread.join();
  uint64_t elapsed = now() - start;
  reference_pin_current_thread(-1);
  return elapsed;
}

uint64_t reference_jack_blocks(size_t total, size_t block, size_t capacity) {
  jack_ringbuffer_t *ring = jack_ringbuffer_create(capacity * sizeof(float));
  AlignedBlock in(block), out(block);
  const size_t bytes = block * sizeof(float);
  uint64_t elapsed = timed_pair(
      [&] {
        for (size_t sent = 0; sent < total; sent += block) {
          while (jack_ringbuffer_write_space(ring) < bytes) {}
          jack_ringbuffer_write(ring, reinterpret_cast<const char *>(in.data()), bytes);
        }
      },
      [&] {
        for (size_t received = 0; received < total; received += block) {
          while (jack_ringbuffer_read_space(ring) < bytes) {}
          jack_ringbuffer_read(ring, reinterpret_cast<char *>(out.data()), bytes);
        }
      });
  jack_ringbuffer_free(ring);
  return elapsed;
}

uint64_t reference_boost_blocks(size_t total, size_t block, size_t capacity) {
  boost::lockfree::spsc_queue<float> queue(capacity);
  AlignedBlock in(block), out(block);
  return timed_pair(
      [&] {
        for (size_t sent = 0; sent < total; sent += block) {
          while (queue.write_available() < block) {}
          queue.push(in.data(), block);
        }
      },
      [&] {
        for (size_t received = 0; received < total; received += block) {
          while (queue.read_available() < block) {}
          queue.pop(out.data(), block);
        }
      });
}

uint64_t reference_boost_events(size_t count, size_t capacity) {
  boost::lockfree::spsc_queue<uint64_t> queue(capacity);
  uint64_t value = 0, sum = 0;
  uint64_t elapsed = timed_pair(
      [&] {
        for (uint64_t sent = 0; sent < count;) {
          if (queue.push(sent)) sent++;
        }
      },
      [&] {
        for (size_t received = 0; received < count;) {
          if (queue.pop(value)) {
            sum += value;
            received++;
          }
        }
      });
  volatile uint64_t sink = sum;
  (void)sink;
  return elapsed;
}

namespace {
struct StallWatch {
  uint64_t period;
  std::atomic<bool> running{true};
  std::vector<uint64_t> buckets = std::vector<uint64_t>(100001);  // 1 µs each, last = beyond
  uint64_t wakes = 0, worst = 0;
  int realtime = 1;
  pthread_t thread{};
};

void *stall_watch_run(void *context) {
  auto *watch = static_cast<StallWatch *>(context);
  uint64_t next = now() + watch->period;
  while (watch->running.load(std::memory_order_relaxed)) {
    timespec target{static_cast<time_t>(next / 1000000000), static_cast<long>(next % 1000000000)};
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &target, nullptr) == EINTR) {}
    uint64_t late = (now() - next) / 1000;
    watch->buckets[std::min<uint64_t>(late, watch->buckets.size() - 1)]++;
    watch->worst = std::max(watch->worst, late);
    watch->wakes++;
    next += watch->period;
    uint64_t current = now();
    if (next < current) next = current + watch->period;  // after a stall, restart the timeline
  }
  return nullptr;
}
}  // namespace

void *reference_stall_watch_start(uint64_t period_ns) {
  auto *watch = new StallWatch();
  watch->period = period_ns;
  pthread_attr_t attributes;
  pthread_attr_init(&attributes);
  pthread_attr_setinheritsched(&attributes, PTHREAD_EXPLICIT_SCHED);
  pthread_attr_setschedpolicy(&attributes, SCHED_FIFO);
  sched_param parameters{};
  parameters.sched_priority = 70;
  pthread_attr_setschedparam(&attributes, &parameters);
  if (pthread_create(&watch->thread, &attributes, stall_watch_run, watch) != 0) {
    watch->realtime = 0;
    pthread_create(&watch->thread, nullptr, stall_watch_run, watch);
  }
  pthread_attr_destroy(&attributes);
  return watch;
}

reference_stall_report reference_stall_watch_stop(void *context, uint64_t threshold_us) {
  auto *watch = static_cast<StallWatch *>(context);
  watch->running.store(false);
  pthread_join(watch->thread, nullptr);
  reference_stall_report report{watch->wakes, 0, watch->worst, 0, watch->realtime};
  uint64_t seen = 0, wanted = (watch->wakes * 99 + 99) / 100;
  bool found = false;
  for (size_t index = 0; index < watch->buckets.size(); index++) {
    seen += watch->buckets[index];
    if (!found && seen >= wanted && wanted > 0) {
      report.p99_us = index;
      found = true;
    }
    if (index > threshold_us) report.over += watch->buckets[index];
  }
  delete watch;
  return report;
}

size_t reference_alsa_encode(const uint8_t *bytes, size_t length) {
  snd_midi_event_t *encoder;
  if (snd_midi_event_new(256, &encoder) < 0) return 0;
  size_t events = 0;
  snd_seq_event_t event;
  for (size_t i = 0; i < length; i++) {
    if (snd_midi_event_encode_byte(encoder, bytes[i], &event) == 1) events++;
  }
  snd_midi_event_free(encoder);
  return events;
}

struct reference_ping_pong {
  uint32_t call;
  uint32_t answered;
  uint32_t stop;
  pid_t child;
};

static void futex_wait(uint32_t *word, uint32_t value) {
  syscall(SYS_futex, word, FUTEX_WAIT, value, nullptr, nullptr, 0);
}
static void futex_wake(uint32_t *word) { syscall(SYS_futex, word, FUTEX_WAKE, 1, nullptr, nullptr, 0); }

reference_ping_pong *reference_ping_pong_start(void) {
  void *memory = mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED) return nullptr;
  auto *ping = static_cast<reference_ping_pong *>(memory);
  *ping = {0, 0, 0, 0};
  pid_t child = fork();
  if (child == 0) {
    /* Only system calls and atomics from here: the parent has other threads. */
    uint32_t seen = 0;
    for (;;) {
      uint32_t call = __atomic_load_n(&ping->call, __ATOMIC_ACQUIRE);
      if (__atomic_load_n(&ping->stop, __ATOMIC_ACQUIRE)) _exit(0);
      if (call == seen) {
        futex_wait(&ping->call, call);
        continue;
      }
      seen = call;
      __atomic_store_n(&ping->answered, call, __ATOMIC_RELEASE);
      futex_wake(&ping->answered);
    }
  }
  ping->child = child;
  return ping;
}

void reference_ping_pong_round_trip(reference_ping_pong *ping) {
  uint32_t call = ping->call + 1;
  __atomic_store_n(&ping->call, call, __ATOMIC_RELEASE);
  futex_wake(&ping->call);
  for (;;) {
    uint32_t answered = __atomic_load_n(&ping->answered, __ATOMIC_ACQUIRE);
    if (answered == call) return;
    futex_wait(&ping->answered, answered);
  }
}

void reference_ping_pong_stop(reference_ping_pong *ping) {
  __atomic_store_n(&ping->stop, 1, __ATOMIC_RELEASE);
  __atomic_fetch_add(&ping->call, 1, __ATOMIC_ACQ_REL);
  futex_wake(&ping->call);
  int status = 0;
  waitpid(ping->child, &status, 0);
  munmap(ping, 4096);
}
