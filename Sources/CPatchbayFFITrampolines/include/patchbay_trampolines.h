/* Stable trampolines: a code pointer that stays the same while the function it jumps to
 * changes (a provider's swap). See trampolines.c. */
#ifndef PATCHBAY_TRAMPOLINES_H
#define PATCHBAY_TRAMPOLINES_H

#include <ffi.h>
#include <stdint.h>

typedef struct patchbay_trampoline patchbay_trampoline;

/* How trampolines forward. */
typedef enum patchbay_trampoline_kind {
  /* A signature-agnostic jump stub (x86-64, arm64): every argument register passes through
   * untouched to the target; nothing is added to the call but one indirect jump. */
  PATCHBAY_TRAMPOLINE_JUMP = 0,
  /* A libffi closure that forwards with ffi_call through the prepared `cif`: any platform. */
  PATCHBAY_TRAMPOLINE_CLOSURE = 1,
} patchbay_trampoline_kind;

/* Whether this build can make jump stubs (x86-64 and arm64 can). */
int patchbay_trampoline_jump_supported(void);

/* A trampoline jumping to `target`. `cif` (prepared for the function's signature) must stay
 * valid for as long as the trampoline lives (forever: trampolines are never freed, because a
 * caller may still hold one). NULL when memory runs out. */
patchbay_trampoline *patchbay_trampoline_create(patchbay_trampoline_kind kind, ffi_cif *cif,
                                                void (*target)(void));

/* The pointer callers call. */
void (*patchbay_trampoline_code(patchbay_trampoline *trampoline))(void);

/* Points the trampoline at `target` from the next call on; calls already inside the old
 * target finish there. Atomic: a concurrent call jumps to the old or the new, nothing else. */
void patchbay_trampoline_retarget(patchbay_trampoline *trampoline, void (*target)(void));

void (*patchbay_trampoline_target(patchbay_trampoline *trampoline))(void);

patchbay_trampoline_kind patchbay_trampoline_kind_of(patchbay_trampoline *trampoline);

/* A function of `cif`'s signature that returns zero (or nothing) and calls `report(context)`:
 * where a trampoline points once its provider has left the app. NULL when memory runs out. */
void (*patchbay_zero_function(ffi_cif *cif, void (*report)(void *context), void *context))(void);

/* A function of `cif`'s signature whose calls run `handler`: it gets the C arguments (one
 * pointer to each) and writes the result (an integer narrower than a register as a whole
 * ffi_arg, as libffi's closures do). How a WebAssembly plugin's exported function gets a native
 * address. Never freed; NULL when memory runs out. */
void (*patchbay_closure_create(ffi_cif *cif,
                               void (*handler)(ffi_cif *cif, void *result, void **arguments,
                                               void *context),
                               void *context))(void);

#endif
