/*
 * guarded_block.h — memory a plugin may touch only while the host says so: pages that are
 * readable (or writable) while open and fault when touched while closed. The fault ends the
 * process with one line on standard error that names the block and what was done to it, and
 * exit status 3; any other fault goes on to the handler installed before.
 *
 *   void *block = pb_guarded_allocate(64, "the parameter block");
 *   pb_guarded_open(block, 1);  write_parameters(instance, block);  pb_guarded_close(block);
 *   pb_guarded_open(block, 0);  process(processor, &period);        pb_guarded_close(block);
 *   // a plugin that kept the pointer and reads it now: "patchbay: the plugin touched the
 *   // parameter block while it was not lent out: …"
 *
 * At most 16 blocks live at once. The message and the status are what `patchbay validate`'s
 * runner reads.
 */
#ifndef GUARDED_BLOCK_H
#define GUARDED_BLOCK_H

#include <stddef.h>

/* A closed block of `size` bytes (zeroed), page-aligned; `what` names it in the message and
 * must live as long as the block. NULL when 16 are live or the memory cannot be mapped. */
void *pb_guarded_allocate(size_t size, const char *what);

/* Lends the block out: readable, and writable too when `writable` is 1. */
void pb_guarded_open(void *block, int writable);

/* Takes it back: any touch faults. */
void pb_guarded_close(void *block);

void pb_guarded_free(void *block);

#endif
