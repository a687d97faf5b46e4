/*
 * patchbay/functions.h — plain C functions a plugin exports, and how others call them.
 *
 * Part of the Patchbay plugin ABI (since 2.1). Include <patchbay.h>, not this file.
 *
 * Features exchange actions. Plugins also offer plain functions: a music-theory plugin's
 * note_frequency(69, 440.0) → 440.0. A plugin lists them in its descriptor
 * (pb_plugin_desc.functions), each with a signature string. The host calls them with libffi
 * (`patchbay call PLUGIN NAME ARGS…`). Other plugins `resolve` them through
 * "patchbay.functions/1" and get a pointer they call directly. That pointer is a trampoline
 * the host owns: when the provider is swapped it jumps to the new generation's function, so
 * callers keep their pointer.
 *
 * Signatures: RETURN(PARAM, PARAM, …), e.g. "double(int32, double)", "int32(int32, out_string)",
 * "void()". Spaces are allowed anywhere.
 *
 *   type        C type                       as a value (patchbay call, scripts)
 *   void        void (return only)           nothing
 *   bool        bool                         true / false
 *   int8…int64  int8_t … int64_t             an integer
 *   uint8…uint64 uint8_t … uint64_t          an integer ≥ 0
 *   size        size_t                       an integer ≥ 0
 *   float       float                        a number
 *   double      double                       a number
 *   pointer     void *                       an integer (an address; for plugins, not people)
 *   string      const char * (param only)    "text", NUL-terminated for the callee
 *   buffer      const uint8_t *, size_t      [1, 2, 3]: bytes in, and their count
 *               (param only: two C params)
 *   out_string  char *, size_t (param only:  the call's value: the text the function wrote
 *               two C params, at most one)   into the buffer, NUL-terminated. The function
 *                                            returns (int32/int64/size) the length it needs,
 *                                            as snprintf does; longer than the buffer: the host
 *                                            calls again with a buffer that fits (up to 64 KiB).
 */
#ifndef PATCHBAY_FUNCTIONS_H
#define PATCHBAY_FUNCTIONS_H

#include "host.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One function a plugin exports. */
typedef struct pb_function_desc {
  uint32_t struct_size;
  const char *name;      /* "note_frequency": unique in its plugin */
  const char *signature; /* "double(int32, double)" */
  const char *summary;   /* one line for people; may be NULL */
  /* [thread-safe] The function, to be called with the C types of `signature`. It must not
   * keep pointers it was given past the call. */
  void (*function)(void);
} pb_function_desc;

/* "patchbay.functions/1": call another plugin's functions. */
typedef struct pb_functions_service {
  uint32_t struct_size;
  /* [main-thread] A pointer to call the function `name` of `provider` (a plugin id,
   * "dev.patchbay.theory-plugin", or the id of one of its features) as `signature`. Cast it
   * to the matching C function type. It stays valid for the life of the process: a swap of
   * the provider retargets it to the new code, and once the provider leaves the app calls
   * through it return zero and the host logs each one. NULL when there is no such function
   * or its signature differs, after saying why through host->error. */
  void (*(*resolve)(const pb_host *host, const char *provider, const char *name,
                    const char *signature))(void);
} pb_functions_service;

#ifdef __cplusplus
}
#endif

#endif /* PATCHBAY_FUNCTIONS_H */
