#ifndef PATCHBAY_THREAD_MARK_H
#define PATCHBAY_THREAD_MARK_H

/* Which app executor's job runs on this thread: a C thread-local, read and written inline.
 * In the host's executable it is one load or store at a fixed offset from the thread pointer;
 * a pthread key cost a call into libc each time (2 ns a write), and an action through the
 * C ABI checks and sets the mark five times.
 *
 *   const void *outer = pb_thread_mark();
 *   pb_set_thread_mark(executor);   // this thread now runs the executor's job
 *   ...
 *   pb_set_thread_mark(outer);      // and no longer
 */

extern __thread const void *pb_thread_mark_value;

static inline const void *pb_thread_mark(void) { return pb_thread_mark_value; }

static inline void pb_set_thread_mark(const void *mark) { pb_thread_mark_value = mark; }

#endif
