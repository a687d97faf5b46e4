#include "references.h"

#include <alsa/asoundlib.h>
#include <pthread.h>
#include <sched.h>
#include <unistd.h>
#include <jack/ringbuffer.h>

#include <boost/lockfree/spsc_queue.hpp>
#include <chrono>
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

uint64_t reference_jack_blocks(size_t total, size_t block, size_t capacity) {
  jack_ringbuffer_t *ring = jack_ringbuffer_create(capacity * sizeof(float));
  AlignedBlock in(block), out(block);
  const size_t bytes = block * sizeof(float);
  reference_pin_current_thread(0);
  uint64_t start = now();
  std::thread producer([&] {
    reference_pin_current_thread(1);
    for (size_t sent = 0; sent < total; sent += block) {
      while (jack_ringbuffer_write_space(ring) < bytes) {}
      jack_ringbuffer_write(ring, reinterpret_cast<const char *>(in.data()), bytes);
    }
  });
  for (size_t received = 0; received < total; received += block) {
    while (jack_ringbuffer_read_space(ring) < bytes) {}
    jack_ringbuffer_read(ring, reinterpret_cast<char *>(out.data()), bytes);
  }
  producer.join();
  uint64_t elapsed = now() - start;
  reference_pin_current_thread(-1);
  jack_ringbuffer_free(ring);
  return elapsed;
}

uint64_t reference_boost_blocks(size_t total, size_t block, size_t capacity) {
  boost::lockfree::spsc_queue<float> queue(capacity);
  AlignedBlock in(block), out(block);
  reference_pin_current_thread(0);
  uint64_t start = now();
  std::thread producer([&] {
    reference_pin_current_thread(1);
    for (size_t sent = 0; sent < total; sent += block) {
      while (queue.write_available() < block) {}
      queue.push(in.data(), block);
    }
  });
  for (size_t received = 0; received < total; received += block) {
    while (queue.read_available() < block) {}
    queue.pop(out.data(), block);
  }
  producer.join();
  uint64_t elapsed = now() - start;
  reference_pin_current_thread(-1);
  return elapsed;
}

uint64_t reference_boost_events(size_t count, size_t capacity) {
  boost::lockfree::spsc_queue<uint64_t> queue(capacity);
  reference_pin_current_thread(0);
  uint64_t start = now();
  std::thread producer([&] {
    reference_pin_current_thread(1);
    for (uint64_t sent = 0; sent < count;) {
      if (queue.push(sent)) sent++;
    }
  });
  uint64_t value = 0, sum = 0;
  for (size_t received = 0; received < count;) {
    if (queue.pop(value)) {
      sum += value;
      received++;
    }
  }
  producer.join();
  uint64_t elapsed = now() - start;
  reference_pin_current_thread(-1);
  volatile uint64_t sink = sum;
  (void)sink;
  return elapsed;
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
