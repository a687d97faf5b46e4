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

/* Notes a call on this thread; returns what was noted before, for pb_crash_leave. */
pb_crash_context pb_crash_enter(const char *feature, const char *instance, const char *call);

/* Restores what pb_crash_enter returned. */
void pb_crash_leave(pb_crash_context previous);

/* Notes the text of the action this thread is about to send; returns the previous one. */
const char *pb_crash_set_action(const char *action);

#endif
