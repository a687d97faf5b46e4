/*
 * patchbay/process.h — a feature's realtime half: the processor the audio thread calls.
 *
 * Part of the Patchbay plugin ABI. Include <patchbay.h>, not this file.
 *
 * A feature that makes sound has two halves (CLAP's main-thread/audio-thread split). Its
 * reducer owns the state, on the host's app queue. Its processor renders audio, on the
 * host's audio thread. They share no memory. Three lock-free channels connect them, each
 * with one writer:
 *
 *   1. parameters, reducer → processor: after creating the instance and after every action,
 *      the host asks the feature to `write_parameters` (a fixed-size block) and publishes the
 *      block through a triple buffer. Each period, `pb_process.parameters` points at the
 *      newest complete block.
 *   2. MIDI, host → processor: the period's MIDI events, sorted, each at its frame offset
 *      (`pb_process.midi`), for instances that listen ("patchbay.midi/1", host.h).
 *   3. events, processor → reducer: small fixed-size events pushed with
 *      `pb_process.events->push`. The host drains them on the app queue (live: at least 60
 *      times a second; offline: after every period), turns each into an action with
 *      `event_action`, and sends it to the instance like any other action. It is recorded,
 *      replayed and tested like any other.
 *
 * And one between processors: MIDI a processor sends (`pb_process.midi_out`, for a processor
 * that declares `max_midi_output`) reaches the processors that listen on its channel in the
 * same period, at its frame, merged with the MIDI that arrived: a sequencer plays a synth,
 * sample-accurate. Processors that send MIDI run first each period and do not hear each
 * other; what they send reaches no reducer.
 *
 * Processors come and go with their instances. The audio thread never waits for that: the
 * host destroys a processor only after the audio thread has started a later period than the
 * one in which the processor was removed.
 */
#ifndef PATCHBAY_PROCESS_H
#define PATCHBAY_PROCESS_H

#include <stdbool.h>

#include "host.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The largest parameter block and the most events a period a processor may declare. */
#define PB_MAX_PARAMETER_SIZE 4096u
#define PB_MAX_PROCESSOR_EVENTS 256u

/* A MIDI 1.0 message that arrived during the period, at frame `frame` of it. Running status
 * is already expanded, and a note-on with velocity 0 arrives as a note-off. */
typedef struct pb_midi_event {
  uint32_t frame; /* 0 ≤ frame < frame_count; events are sorted by frame */
  uint8_t size;   /* 1 to 3 */
  uint8_t bytes[3];
} pb_midi_event;

/* What a processor tells its reducer: small, fixed-size, meaning the feature's own. */
typedef struct pb_processor_event {
  uint32_t frame; /* where in the period it happened */
  uint32_t kind;  /* the feature's code: e.g. 1 = a beat */
  int64_t value;  /* e.g. the beat's index */
  uint64_t time;  /* set by the host: the steady frame (pb_process.steady_time + frame) */
} pb_processor_event;

typedef struct pb_event_output {
  void *context; /* the host's */
  /* [audio-thread] Queues `event` for the reducer. Returns false, dropping the event (the
   * host counts it), when the processor has pushed `max_output_events` this period. */
  bool (*push)(const struct pb_event_output *output, const pb_processor_event *event);
} pb_event_output;

typedef struct pb_midi_output {
  void *context; /* the host's */
  /* [audio-thread] Sends `event` (its `frame` within this period) to the processors after
   * this one. Events must come in frame order. Returns false, dropping the event (the host
   * counts it), past `max_midi_output` this period or out of order. */
  bool (*push)(const struct pb_midi_output *output, const pb_midi_event *event);
} pb_midi_output;

/* One period, as the audio thread hands it to a processor. Valid for the call only. */
typedef struct pb_process {
  uint32_t struct_size;
  uint32_t frame_count;   /* frames in this period */
  uint32_t sample_rate;   /* frames per second */
  uint32_t channel_count; /* samples per frame */
  /* Frames the audio has run before this period's first frame: a steady count that never
   * jumps or goes back, live or offline. */
  uint64_t steady_time;
  /* frame_count × channel_count interleaved samples. Add into them: other processors' sound
   * is already there. */
  float *output;
  /* The newest block the reducer published (parameter_size bytes); NULL when
   * parameter_size is 0. Read-only, and valid for this call. */
  const void *parameters;
  const pb_midi_event *midi; /* sorted by frame; NULL when midi_count is 0 */
  uint32_t midi_count;
  const pb_event_output *events;
  /* (2.3) Where the processor's own MIDI goes; NULL when it declared no max_midi_output. */
  const pb_midi_output *midi_out;
} pb_process;

/* What the processor is created for. Fixed while it lives. */
typedef struct pb_processor_config {
  uint32_t struct_size;
  uint32_t sample_rate;
  uint32_t channel_count;
  uint32_t max_frame_count; /* no period is longer */
} pb_processor_config;

/*
 * A feature's processor: `pb_feature_desc.processor`, NULL for a feature without sound.
 */
typedef struct pb_processor_desc {
  uint32_t struct_size;
  /* Bytes of the parameter block, at most PB_MAX_PARAMETER_SIZE; 0 for none. */
  uint32_t parameter_size;
  /* The most events `process` pushes in one period, at most PB_MAX_PROCESSOR_EVENTS. */
  uint32_t max_output_events;

  /* [main-thread] Writes the parameters for `instance`'s current state into `block`
   * (parameter_size bytes, zeroed). Called after `create` and after every action. Must not
   * fail; NULL when parameter_size is 0. */
  void (*write_parameters)(void *instance, void *block);

  /* [main-thread] Creates the processor of `instance`: allocate here everything `process`
   * needs. It must not point into the instance (which may go first). Returns NULL on
   * failure, after saying why through the instance's host->error. */
  void *(*create)(void *instance, const pb_processor_config *config);

  /* [audio-thread] Renders one period. No lock, no allocation, no free, no logging, no call
   * into the host except `process->events->push`. */
  void (*process)(void *processor, const pb_process *process);

  /* [main-thread] Frees the processor, once the audio thread has left it for good. That may
   * be after its instance was destroyed: the two share no memory. */
  void (*destroy)(void *processor);

  /* [main-thread] Turns an event the processor pushed into an action for `instance` (value
   * encoding) written to `out`. PB_ERR_UNSUPPORTED drops the event. NULL when
   * max_output_events is 0. */
  pb_status (*event_action)(void *instance, const pb_processor_event *event,
                            const pb_writer *out);

  /* (2.3) The most MIDI events `process` sends in one period through `pb_process.midi_out`,
   * at most PB_MAX_PROCESSOR_EVENTS; 0 (or a 2.2 descriptor) for none. */
  uint32_t max_midi_output;
} pb_processor_desc;

#ifdef __cplusplus
}
#endif

#endif /* PATCHBAY_PROCESS_H */
