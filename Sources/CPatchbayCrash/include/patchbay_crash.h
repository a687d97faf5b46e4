#ifndef PATCHBAY_CRASH_H
#define PATCHBAY_CRASH_H

/*
 * Says which plugin call crashed the host. Before each call into a plugin the host notes, for
 * its thread, the feature, the instance, the call and the action's text; a crash signal
 * (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGABRT) during the call prints one line naming
 * them, async-signal-safely, and ends the process with the exit code given to
 * pb_crash_install. A crash outside any plugin call goes to the handler that was there before
 * (the Swift runtime's backtracer).
 *
 *   pb_crash_install(3);
 *   pb_crash_context saved = pb_crash_enter("dev.patchbay.counter (…/libCounter.so)", "counter",
 *                                           "reduce");
 *   vtable->reduce(instance, bytes, length);
 *   pb_crash_leave(saved);
 */

typedef struct pb_crash_context {
  const char *feature;  /* Feature id and the plugin's original file. */
  const char *instance; /* Instance path; may be NULL. */
  const char *call;     /* "reduce", "render", …; NULL outside plugin calls. */
  const char *action;   /* The action's text, if the call has one; may be NULL. */
} pb_crash_context;

/* Installs the handlers and makes stdout line-buffered, so output written before a crash is
 * not lost when it goes to a file or a pipe (once; later calls only change the exit code). */
void pb_crash_install(int exit_code);

/* The call this thread makes now (pb_crash_enter), and whether the watchdog runs: inline
 * here, so that noting a call costs a few stores, not two calls into this library. */
extern _Thread_local pb_crash_context pb_crash_current __attribute__((tls_model("initial-exec")));
extern int pb_crash_watch_running;
void pb_crash_watch_note_call(void);

/* Notes a call on this thread; returns what was noted before, for pb_crash_leave. */
static inline pb_crash_context pb_crash_enter(const char *feature, const char *instance,
                                              const char *call) {
  if (__atomic_load_n(&pb_crash_watch_running, __ATOMIC_RELAXED)) pb_crash_watch_note_call();
  pb_crash_context before = pb_crash_current;
  pb_crash_current.feature = feature;
  pb_crash_current.instance = instance;
  pb_crash_current.call = call;
  return before;
}

/* Restores what pb_crash_enter returned. */
static inline void pb_crash_leave(pb_crash_context previous) { pb_crash_current = previous; }

/* Notes the text of the action this thread is about to send; returns the previous one. */
const char *pb_crash_set_action(const char *action);

/* The action text this thread noted; NULL when none. */
const char *pb_crash_action(void);

/* The call noted with pb_crash_note on this thread; NULL outside one. */
extern _Thread_local const pb_crash_context *pb_crash_noted
    __attribute__((tls_model("initial-exec")));

/* [audio-thread] Notes the plugin call this thread makes now, as a context that outlives the
 * call (a processor's, made when the processor was); NULL when the call returned. One
 * store, so it is cheap enough around every processor call, every period:
 *
 *   pb_crash_note(&slot->crash_context);   // {feature, instance, "process", NULL}
 *   process(processor, &period);
 *   pb_crash_note(NULL);
 */
static inline void pb_crash_note(const pb_crash_context *context) { pb_crash_noted = context; }

/* Registers the plugin image `address` lies in (any function of it), named `label` (id and
 * file, kept by the caller for good): a crash whose instruction is in that image's code, on a
 * thread in no noted call (a thread the plugin started itself), then names it. [main-thread]
 * Returns 0, or -1 when no loaded image holds `address` or the table (256 images) is full. */
int pb_crash_register_image(const void *address, const char *label);

/* Where a crash or hang report is copied, as one JSON line {"report": "…"}: the run's
 * recording (its file descriptor); -1 for nowhere. */
void pb_crash_copy_reports_to(int fd);

/* The flight recorder's file (docs/DEBUGGING.md), named at the end of a crash or hang report
 * with the command that replays it; NULL for none. [main-thread] */
void pb_crash_name_flight_file(const char *path);

/* In an isolated plugin's process: every crash signal writes its report (the signal, then
 * "in its <call>: feature …, instance …, action …") to `fd`, and nothing to stderr, and ends
 * the process; the host reads it, reports it and starts the plugin again. */
void pb_crash_report_isolated(int fd);

/* The terminal to put back before a crash or hang report ends the process: standard input's
 * settings (copied) and what to write to standard output to leave full screen. NULL settings
 * forget them (the terminal was restored). */
struct termios;
void pb_crash_restore_terminal_on_exit(const struct termios *settings, const char *leave);

/* While a full-screen UI runs, what the process writes to stderr (a plugin's prints, the
 * Swift runtime's "Fatal error" line before it traps) is kept, its last 8 KiB, not drawn over
 * the screen: 0, or -1 when stderr stays as it was. [main-thread] */
int pb_crash_capture_stderr(void);

/* Ends the capture: stderr is itself again, and what was kept is written to it, after a line
 * saying so. Call it after the terminal is put back. [main-thread] */
void pb_crash_release_stderr(void);

/* The same in two steps, async-signal-safely, for a crash or hang report or a signal:
 * stderr is itself again (with what was still in the pipe kept; 1 when it was captured, else
 * 0), then, once the terminal is put back, what was kept is written to it. */
int pb_crash_reclaim_stderr(void);
void pb_crash_write_kept_stderr(void);

/*
 * The watchdog: a call into a plugin that does not return is reported, never a silent hang.
 *
 * Every noted call (pb_crash_enter) publishes, in one store, which thread made it and how many
 * calls that thread has made; the audio thread publishes its period count each period. A
 * watchdog thread looks every 25 ms. When the calls' value has not changed for
 * `call_seconds`, or the periods' for `audio_seconds` while the audio runs, it reads the call
 * that thread has noted (not a signal: the runtime's threads block them); if the thread is
 * inside a plugin call, it prints one line (the call, the feature, the instance, the action,
 * how long), puts the terminal back, and ends the process with the exit code of
 * pb_crash_install. A thread that is merely idle is left alone.
 *
 *   pb_watch_start(5, 48, 0.128);   // once: 5 s, 48 periods of 128 frames at 48 kHz
 *   pb_watch_start(5, 0, 5);        // offline (the validator): a period may take 5 s too
 *   pb_watch_audio_thread(1);     // from the audio thread when it starts; 0 when it stops
 *   pb_watch_period();            // from the audio thread, each period
 */
void pb_watch_start(unsigned call_seconds, unsigned audio_periods, double audio_seconds);
void pb_watch_audio_thread(int running);
extern unsigned long long pb_watch_periods; /* [audio-thread] writes it; relaxed atomics */
static inline void pb_watch_period(void) {
  __atomic_store_n(&pb_watch_periods,
                   __atomic_load_n(&pb_watch_periods, __ATOMIC_RELAXED) + 1, __ATOMIC_RELAXED);
}

/*
 * Host calls a processor makes from the audio thread.
 *
 * A processor may call only `host->now`, `events->push` and `midi_out->push` from `process`
 * (patchbay/core.h: [audio-thread]). Every other host function (`send`, `error`, `log`,
 * `get_service` and the services') asks whether it runs inside a `process` call and if so
 * counts the call before doing its work: the app names the processor, and `patchbay validate`
 * fails it. The audio thread pays nothing for it: a processor's crash context (the one it
 * notes around each call with pb_crash_note, when the safety checks are on) sits in a
 * pb_processor_note beside the count, with pb_process_call as its call, and a host function
 * finds the count from the noted context.
 *
 *   note->crash = (pb_crash_context){label, instance, pb_process_call, NULL};
 *   pb_crash_note(&note->crash);  process(processor, &period);  pb_crash_note(NULL);
 *   // in host->send, called from that process:
 *   if (pb_audio_thread_is_current()) pb_audio_misuse_note("host->send");
 *   // on the app queue:
 *   const char *first;
 *   unsigned long calls = pb_audio_misuse_take(&note->misuse, &first);   // 1, "host->send"
 */
typedef struct pb_audio_misuse {
  unsigned long count;
  const char *first;
} pb_audio_misuse;

typedef struct pb_processor_note {
  pb_crash_context crash; /* first: pb_crash_noted points here during `process` */
  pb_audio_misuse misuse;
} pb_processor_note;

/* "process": the call of every processor's crash context, by address. */
extern const char *const pb_process_call;

/* Whether the calling thread is inside a processor's `process` call. */
static inline int pb_audio_thread_is_current(void) {
  return pb_crash_noted && pb_crash_noted->call == pb_process_call;
}

/* Counts a host call made inside `process`, in the processor's note and in the process-wide
 * count; `function` (a string that lives as long as the process, such as a literal) is kept if
 * it is the first. Allocates nothing, locks nothing. */
void pb_audio_misuse_note(const char *function);

/* The calls `misuse` counted since the last take (0 for none), and the first one's name. */
unsigned long pb_audio_misuse_take(pb_audio_misuse *misuse, const char **first);

/* The process-wide count since the last reset, and the first call's name (NULL before any). */
unsigned long pb_audio_misuse_count(void);
const char *pb_audio_misuse_first(void);
void pb_audio_misuse_reset(void);

#endif
