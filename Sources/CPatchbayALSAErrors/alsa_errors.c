#include "alsa_errors.h"

#include <alsa/asoundlib.h>
#include <stdarg.h>
#include <stdio.h>

static _Thread_local char last[512];

static void capture(const char *file, int line, const char *function, int err, const char *fmt, ...) {
  (void)file, (void)line, (void)function, (void)err;
  va_list arguments;
  va_start(arguments, fmt);
  vsnprintf(last, sizeof last, fmt, arguments);
  va_end(arguments);
}

void patchbay_alsa_errors_capture(void) { snd_lib_error_set_handler(capture); }

const char *patchbay_alsa_errors_last(void) { return last; }
