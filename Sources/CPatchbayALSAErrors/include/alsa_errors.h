/* ALSA's library prints its own errors to stderr ("ALSA lib seq_hw.c:466: …") before
 * returning them. Patchbay reports every error itself, in one line; this routes ALSA's
 * messages to a buffer instead, so the last one can be added to Patchbay's message. */
#ifndef PATCHBAY_ALSA_ERRORS_H
#define PATCHBAY_ALSA_ERRORS_H

/* Installs the handler (idempotent). */
void patchbay_alsa_errors_capture(void);

/* The last message ALSA reported on this thread, or "" (valid until the next). */
const char *patchbay_alsa_errors_last(void);

#endif
