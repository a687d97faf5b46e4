/* The reference implementations the audio and MIDI benchmarks compare against, measured the
 * same way as Patchbay's: jack_ringbuffer and boost::lockfree::spsc_queue moving floats in
 * blocks between two threads, boost moving single 8-byte events, and ALSA's MIDI byte
 * encoder. Each returns elapsed nanoseconds (or a count), so Swift reports them side by side. */
#ifndef PATCHBAY_REFERENCES_H
#define PATCHBAY_REFERENCES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Moves `total` floats through a ring of `capacity` floats in blocks of `block`, producer on a
 * new thread, consumer on this one. Returns nanoseconds. */
uint64_t reference_jack_blocks(size_t total, size_t block, size_t capacity);
uint64_t reference_boost_blocks(size_t total, size_t block, size_t capacity);

/* Moves `count` 8-byte events one at a time through a queue of `capacity`. Returns ns. */
uint64_t reference_boost_events(size_t count, size_t capacity);

/* The bytes the heap has handed out and not had back (glibc's mallinfo2: small blocks and
 * mapped large ones), for what a thing costs in memory: the change in it, whatever blocks
 * earlier work freed for reuse. (Swift's Glibc module leaves malloc.h out.) */
size_t reference_heap_in_use(void);

/* Pins the calling thread to CPU `cpu` (or, with -1, lets it run anywhere again). The ring
 * benchmarks pin producer and consumer to different cores, for Patchbay and the references
 * alike, so a run does not depend on where the scheduler happened to put them. */
void reference_pin_current_thread(int cpu);

/* How late the machine wakes a bare SCHED_FIFO thread (priority 70, like the audio thread)
 * sleeping to absolute CLOCK_MONOTONIC times every `period_ns` — no Patchbay code, no audio:
 * the floor under any audio thread's lateness here. Start it beside the thing measured; stop
 * it for the report. */
typedef struct reference_stall_report {
  uint64_t wakes;         /* periods slept */
  uint64_t over;          /* wakes later than `threshold_us` */
  uint64_t worst_us;      /* the latest wake */
  uint64_t p99_us;        /* 99th percentile lateness */
  int realtime;           /* 1 when it ran SCHED_FIFO, 0 when that was refused */
} reference_stall_report;
void *reference_stall_watch_start(uint64_t period_ns);
reference_stall_report reference_stall_watch_stop(void *watch, uint64_t threshold_us);

/* The limit on a call between two processes here: a bare ping-pong over shared memory and two
 * futexes (the shape of Patchbay's isolated calls, with no Patchbay code in it). Start forks a
 * child that answers each call; a round trip is one call and its answer, timed by the caller;
 * stop ends the child. */
typedef struct reference_ping_pong reference_ping_pong;
reference_ping_pong *reference_ping_pong_start(void);
void reference_ping_pong_round_trip(reference_ping_pong *ping);
void reference_ping_pong_stop(reference_ping_pong *ping);

/* Feeds `length` bytes to snd_midi_event_encode_byte; returns how many events it completed. */
size_t reference_alsa_encode(const uint8_t *bytes, size_t length);

/* One voice of a simple synth (synth_voice.c): a sine through a linear attack. The same C
 * runs natively and, compiled for wasm32, in WasmKit: the WebAssembly processor benchmark. */
typedef struct ref_voice {
  float phase, step, level, target, rate;
} ref_voice;

/* `count` voices at 220 Hz and up a quarter apart, at `sample_rate`. */
void ref_voices_start(ref_voice *voices, int count, float sample_rate);
/* `frames` of all `count` voices, summed into `out` (written over). */
void ref_voices_render(ref_voice *voices, int count, float *out, int frames);

#ifdef __cplusplus
}
#endif

#endif
