/* Stable trampolines over libffi's closure allocator (which hands out memory that is both
 * written through one mapping and executed through another where the system requires it).
 *
 * The jump stub, x86-64 (16 bytes):   ff 25 02 00 00 00   jmp *[rip + 2]
 *                                     66 90               (padding, so the target is aligned)
 *                                     <8-byte target>
 * arm64 (16 bytes):                   58000050            ldr x16, #8
 *                                     d61f0200            br  x16
 *                                     <8-byte target>
 * The target is data the stub loads each call, so retargeting is one aligned 8-byte atomic
 * store: no code is rewritten, no instruction cache is flushed after creation. */
#include "patchbay_trampolines.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

struct patchbay_trampoline {
  patchbay_trampoline_kind kind;
  void *writable; /* the stub or closure, as written */
  void *code;     /* the same, as executed */
  _Atomic(uintptr_t) *target; /* where the current target is kept */
  _Atomic(uintptr_t) closure_target;
  ffi_cif *cif;
};

int patchbay_trampoline_jump_supported(void) {
#if defined(__x86_64__) || defined(__aarch64__)
  return 1;
#else
  return 0;
#endif
}

static void forward(ffi_cif *cif, void *result, void **arguments, void *data) {
  patchbay_trampoline *trampoline = data;
  void (*target)(void) =
      (void (*)(void))atomic_load_explicit(&trampoline->closure_target, memory_order_acquire);
  ffi_call(cif, target, result, arguments);
}

patchbay_trampoline *patchbay_trampoline_create(patchbay_trampoline_kind kind, ffi_cif *cif,
                                                void (*target)(void)) {
  patchbay_trampoline *trampoline = calloc(1, sizeof *trampoline);
  if (!trampoline) return NULL;
  trampoline->cif = cif;
  if (kind == PATCHBAY_TRAMPOLINE_JUMP && patchbay_trampoline_jump_supported()) {
    void *code = NULL;
    uint8_t *stub = ffi_closure_alloc(16, &code);
    if (!stub) {
      free(trampoline);
      return NULL;
    }
#if defined(__x86_64__)
    static const uint8_t jump[8] = {0xff, 0x25, 0x02, 0x00, 0x00, 0x00, 0x66, 0x90};
    memcpy(stub, jump, sizeof jump);
#elif defined(__aarch64__)
    static const uint32_t jump[2] = {0x58000050u, 0xd61f0200u};
    memcpy(stub, jump, sizeof jump);
#endif
    trampoline->kind = PATCHBAY_TRAMPOLINE_JUMP;
    trampoline->writable = stub;
    trampoline->code = code;
    trampoline->target = (_Atomic(uintptr_t) *)(stub + 8);
    atomic_store_explicit(trampoline->target, (uintptr_t)target, memory_order_release);
#if defined(__aarch64__)
    __builtin___clear_cache((char *)code, (char *)code + 16);
#endif
    return trampoline;
  }
  void *code = NULL;
  ffi_closure *closure = ffi_closure_alloc(sizeof(ffi_closure), &code);
  if (!closure) {
    free(trampoline);
    return NULL;
  }
  atomic_store_explicit(&trampoline->closure_target, (uintptr_t)target, memory_order_release);
  if (ffi_prep_closure_loc(closure, cif, forward, trampoline, code) != FFI_OK) {
    ffi_closure_free(closure);
    free(trampoline);
    return NULL;
  }
  trampoline->kind = PATCHBAY_TRAMPOLINE_CLOSURE;
  trampoline->writable = closure;
  trampoline->code = code;
  trampoline->target = &trampoline->closure_target;
  return trampoline;
}

void (*patchbay_trampoline_code(patchbay_trampoline *trampoline))(void) {
  return (void (*)(void))trampoline->code;
}

void patchbay_trampoline_retarget(patchbay_trampoline *trampoline, void (*target)(void)) {
  atomic_store_explicit(trampoline->target, (uintptr_t)target, memory_order_release);
}

void (*patchbay_trampoline_target(patchbay_trampoline *trampoline))(void) {
  return (void (*)(void))atomic_load_explicit(trampoline->target, memory_order_acquire);
}

patchbay_trampoline_kind patchbay_trampoline_kind_of(patchbay_trampoline *trampoline) {
  return trampoline->kind;
}

/* The zero function: a libffi closure that reports and leaves a zeroed result. */
typedef struct zero_context {
  void (*report)(void *context);
  void *context;
} zero_context;

static void zero(ffi_cif *cif, void *result, void **arguments, void *data) {
  (void)arguments;
  zero_context *context = data;
  if (cif->rtype->size > 0) memset(result, 0, cif->rtype->size < sizeof(ffi_arg) ? sizeof(ffi_arg) : cif->rtype->size);
  context->report(context->context);
}

void (*patchbay_zero_function(ffi_cif *cif, void (*report)(void *context), void *context))(void) {
  zero_context *data = malloc(sizeof *data);
  if (!data) return NULL;
  data->report = report;
  data->context = context;
  void (*code)(void) = patchbay_closure_create(cif, zero, data);
  if (!code) free(data);
  return code;
}

void (*patchbay_closure_create(ffi_cif *cif,
                               void (*handler)(ffi_cif *cif, void *result, void **arguments,
                                               void *context),
                               void *context))(void) {
  void *code = NULL;
  ffi_closure *closure = ffi_closure_alloc(sizeof(ffi_closure), &code);
  if (!closure) return NULL;
  if (ffi_prep_closure_loc(closure, cif, handler, context, code) != FFI_OK) {
    ffi_closure_free(closure);
    return NULL;
  }
  return (void (*)(void))code;
}
