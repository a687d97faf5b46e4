#ifndef PATCHBAY_CHANNEL_H
#define PATCHBAY_CHANNEL_H

/*
 * The shared memory between the host and the process an isolated plugin runs in
 * (docs/ARCHITECTURE.md, "Isolated plugins"). One memfd per child process, mapped by both:
 *
 *   header   | request | reply | ring | audio
 *
 * Calls (host → child) go one at a time: the host writes the request, bumps `call` and wakes
 * it; the child runs the call, writes the reply, stores `call` into `answered` and wakes that.
 * Both words are futexes, so a round trip is two wakes and two waits and nothing else: no
 * socket, no copy beyond the bytes themselves.
 *
 *   size_t reply = 0;
 *   int result = pb_channel_call(channel, request_length, 5000000000, &reply); // host
 *
 *   uint32_t length = pb_channel_next_call(channel, &seen);                    // child
 *   pb_channel_answer(channel, reply_length);
 *
 * The ring carries what the child says outside any call (an effect thread's sends, logs,
 * errors and navigation requests): length-prefixed messages, one writer in the child (which
 * serializes its threads itself) and one reader thread in the host, woken through `ring_head`.
 *
 * The audio area carries one period at a time from the host's audio thread to the child's
 * (pb_channel_process_*): the period's MIDI and parameters in, samples and events out. The host
 * waits for it until a deadline, never longer.
 *
 * When the child ends (a crash, a kill), the host's reaper calls pb_channel_end: every wait on
 * either side returns PB_CHANNEL_ENDED from then on.
 */

#include <stddef.h>
#include <stdint.h>

#include <patchbay.h>
#include <patchbay_crash.h>

#define PB_CHANNEL_MAGIC 0x4E484350u /* "PCHN" */
#define PB_CHANNEL_VERSION 3u

/* What a wait ended with. */
enum {
  PB_CHANNEL_OK = 0,
  PB_CHANNEL_ENDED = 1,   /* the child ended */
  PB_CHANNEL_TIMEOUT = 2, /* the deadline passed first */
};

/* The longest period, the most channels and the most MIDI events of one period the audio
 * area holds. */
#define PB_CHANNEL_MAX_FRAMES 4096u
#define PB_CHANNEL_MAX_CHANNELS 2u
#define PB_CHANNEL_MAX_MIDI 512u

/* One period, as the host hands it to the child's audio thread. */
typedef struct pb_channel_period {
  uint32_t processor; /* index the child gave at pb_channel's processor creation */
  uint32_t frame_count;
  uint32_t sample_rate;
  uint32_t channel_count;
  uint64_t steady_time;
  uint32_t midi_count;
  uint32_t has_parameters;
  /* What the child writes back: events for the reducer, and MIDI for the processors after it
   * (pb_process.midi_out). */
  uint32_t event_count;
  uint32_t midi_out_count;
  /* Whether `samples` holds the mix for an effect to work on (pb_isolated_processor.inserts),
   * rather than silence for a processor to add into. */
  uint32_t inserts;
  /* Aligned as malloc aligns: processors load their block as a struct. */
  _Alignas(16) uint8_t parameters[PB_MAX_PARAMETER_SIZE];
  pb_midi_event midi[PB_CHANNEL_MAX_MIDI];
  pb_processor_event events[PB_MAX_PROCESSOR_EVENTS];
  pb_midi_event midi_out[PB_MAX_PROCESSOR_EVENTS];
  float samples[PB_CHANNEL_MAX_FRAMES * PB_CHANNEL_MAX_CHANNELS];
} pb_channel_period;

typedef struct pb_channel {
  uint32_t magic;
  uint32_t version;
  uint64_t message_capacity; /* bytes of the request area, and of the reply area */
  uint64_t ring_capacity;    /* bytes of the ring; a power of two */
  uint32_t ended;            /* 1 once the child ended */
  uint32_t call;             /* [futex] bumped by the host for each request */
  uint32_t answered;         /* [futex] the call the child answered last */
  uint32_t request_length;
  uint32_t reply_length;
  uint32_t ring_head; /* [futex] bytes the child has put in the ring (mod 2^32) */
  uint32_t ring_tail; /* bytes the host has taken */
  uint32_t period;    /* [futex] bumped by the host's audio thread for each period */
  uint32_t rendered;  /* [futex] the period the child rendered last */
  uint32_t audio_ready; /* 1 while the child's audio thread waits for periods */
} pb_channel;

/* Creates the shared memory (a memfd, sealed against shrinking) for messages of up to
 * `message_capacity` bytes; its descriptor in *fd. NULL (errno set) when it cannot. */
pb_channel *pb_channel_create(size_t message_capacity, int *fd);
/* Maps the channel another process created and passed as `fd`; NULL when it is not one. */
pb_channel *pb_channel_map(int fd);
/* Unmaps it. */
void pb_channel_unmap(pb_channel *channel);

void *pb_channel_request(pb_channel *channel);
void *pb_channel_reply(pb_channel *channel);
pb_channel_period *pb_channel_audio(pb_channel *channel);

/* [host] Publishes a request of `length` bytes and waits for its reply, at most `timeout_ns`
 * (0: no limit). PB_CHANNEL_OK with the reply's length in *reply_length, or why not. */
int pb_channel_call(pb_channel *channel, uint32_t length, uint64_t timeout_ns,
                    uint32_t *reply_length);
/* [host] Waits on for the reply to the call pb_channel_call made last (after it timed out),
 * at most `timeout_ns` more; the same results. */
int pb_channel_await(pb_channel *channel, uint64_t timeout_ns, uint32_t *reply_length);
/* [child] Waits for the next call after `*seen`; its request's length, or -1 once ended. */
int64_t pb_channel_next_call(pb_channel *channel, uint32_t *seen);
/* [child] Publishes the reply to the call it took last. */
void pb_channel_answer(pb_channel *channel, uint32_t length);

/* [child, one writer at a time] Puts a message in the ring; -1 when it has no room (the
 * message is dropped: the host is not reading). */
int pb_channel_ring_put(pb_channel *channel, const void *bytes, uint32_t length);
/* Bytes the child has put in the ring so far (mod 2^32), and bytes the host has taken. */
uint32_t pb_channel_ring_written(const pb_channel *channel);
uint32_t pb_channel_ring_taken(const pb_channel *channel);

/* [host reader] Waits for a message and copies it to `out` (up to `capacity` bytes); its
 * length, 0 when the child ended with the ring empty. */
uint32_t pb_channel_ring_take(pb_channel *channel, void *out, uint32_t capacity);

/* [host, audio thread] Starts the period written in pb_channel_audio (no allocation, one
 * wake). */
void pb_channel_process_start(pb_channel *channel);
/* [host, audio thread] Waits until the child rendered the period started last, or until
 * `deadline_ns` of CLOCK_MONOTONIC passes. */
int pb_channel_process_wait(pb_channel *channel, uint64_t deadline_ns);
/* [child, audio thread] Waits for a period after `*seen`; PB_CHANNEL_OK or ENDED. */
int pb_channel_process_next(pb_channel *channel, uint32_t *seen);
/* [child, audio thread] Says the period `seen` is rendered. */
void pb_channel_process_done(pb_channel *channel, uint32_t seen);

/* A processor in the child, as its audio thread calls it. */
typedef struct pb_channel_processor {
  void (*process)(void *processor, const pb_process *process);
  void *processor;
  uint32_t max_output_events;
  uint32_t parameter_size;
  uint32_t max_midi_output; /* 0: `midi_out` is NULL */
  /* What a crash in `process` names (patchbay_crash.h): feature, instance, "process". */
  pb_crash_context crash;
} pb_channel_processor;

/* [child, its audio thread] Renders each period the host starts with the processor of
 * `table` it names, until the channel ends. An entry is written before its index is given to
 * the host, and not changed while the host may name it. */
void pb_channel_serve_audio(pb_channel *channel, const pb_channel_processor *table,
                            uint32_t capacity);

/* [child] Ends the process when the host does: a thread waits for end of file on `lifeline`
 * (the read end of a pipe whose write end only the host holds). -1 when it cannot. */
int pb_channel_die_with_host(int lifeline);

/* Where a host-side processor's periods go now: a channel and the child's processor index in
 * it. A restart makes a new binding; the old one stays valid until the processor is
 * destroyed, as the audio thread may be reading it. */
typedef struct pb_isolated_binding {
  pb_channel *channel;
  uint32_t index;
} pb_isolated_binding;

/*
 * The processor the host's audio thread calls for an isolated feature: `process` hands the
 * period to the child's audio thread and waits for it until a deadline, never longer. A
 * period not rendered in time is silence (counted in `late`); while the child still renders
 * it, or while it is being restarted, later periods are silence too (counted in `skipped`).
 *
 *   pb_processor_desc desc = {.process = pb_isolated_process, .destroy = pb_isolated_destroy};
 */
typedef struct pb_isolated_processor {
  pb_isolated_binding *binding; /* [atomic] NULL while the plugin has no process */
  uint32_t parameter_size;
  /* Wait for each period until `offline_timeout_ns` (offline rendering: every period is
   * rendered, however long it takes) instead of a share of the period. */
  uint32_t offline;
  uint64_t offline_timeout_ns;
  /* Live: the share of the period's duration the audio thread waits (0.5: half). */
  double deadline_share;
  /* [audio thread writes, any thread reads, relaxed] */
  uint64_t late;
  uint64_t skipped;
  uint64_t rendered;
  /* Periods late or skipped in a row: the host's monitor ends a child past its limit. */
  uint64_t late_in_a_row;
  /* An effect: the mix goes to the process and what comes back replaces it (a late period
   * leaves the mix as it was); otherwise what comes back is added. */
  uint32_t inserts;
  /* What `destroy` calls (the host's, on its app queue). */
  void *owner;
  void (*release)(void *owner);
} pb_isolated_processor;

/* Points `processor` at `binding` (NULL: no process) and starts its lateness count afresh. */
void pb_isolated_bind(pb_isolated_processor *processor, pb_isolated_binding *binding);

/* Its counters, read atomically. [any thread] */
uint64_t pb_isolated_late_in_a_row(const pb_isolated_processor *processor);
void pb_isolated_counts(const pb_isolated_processor *processor, uint64_t *rendered,
                        uint64_t *late, uint64_t *skipped);

/* The same counts summed over every isolated processor this process has run. [any thread] */
void pb_isolated_totals(uint64_t *rendered, uint64_t *late, uint64_t *skipped);

/* [audio-thread] pb_processor_desc.process of an isolated feature. */
void pb_isolated_process(void *processor, const pb_process *process);
/* [main-thread] pb_processor_desc.destroy of an isolated feature: calls `release`. */
void pb_isolated_destroy(void *processor);

/* Stand-ins for the descriptor's `write_parameters` and `event_action`, set where the
 * plugin's own are: the host calls an isolated instance's through the channel, never these,
 * but checks that they exist. */
void pb_isolated_write_parameters(void *instance, void *block);
pb_status pb_isolated_event_action(void *instance, const pb_processor_event *event,
                                   const pb_writer *out);

/* [child] What the process may do beyond computing: PB_ALLOW_* bits. */
enum {
  PB_ALLOW_SOCKETS = 1, /* socket, socketpair */
  PB_ALLOW_EXEC = 2,    /* execve, execveat */
  PB_ALLOW_PTRACE = 4,  /* ptrace, process_vm_readv, process_vm_writev */
};

/* [child, before it loads the plugin] Installs a seccomp filter under which the system calls
 * `allow` does not name fail with EPERM, for this process and any it starts; and limits its
 * address space to `memory_bytes` and its CPU time to `cpu_seconds` (0: no limit). Past a
 * limit the kernel ends the process, and the host reports it like a crash. 0, or -1 with
 * errno. */
int pb_channel_confine(unsigned allow, uint64_t memory_bytes, uint64_t cpu_seconds);

/* [host reaper] The child ended: every wait on either side returns. */
void pb_channel_end(pb_channel *channel);
/* Whether the child ended. */
int pb_channel_ended(const pb_channel *channel);

/* CLOCK_MONOTONIC in nanoseconds. */
uint64_t pb_channel_now(void);

#endif
