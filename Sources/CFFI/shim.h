/* libffi, for calling plugins' exported functions. `apt-get install libffi-dev`. */
#ifndef PATCHBAY_CFFI_H
#define PATCHBAY_CFFI_H

#include <ffi.h>

/* The ffi_type_* globals, as pointers (Swift imports them awkwardly as mutable globals). */
static inline ffi_type *patchbay_ffi_type_void(void) { return &ffi_type_void; }
static inline ffi_type *patchbay_ffi_type_uint8(void) { return &ffi_type_uint8; }
static inline ffi_type *patchbay_ffi_type_sint8(void) { return &ffi_type_sint8; }
static inline ffi_type *patchbay_ffi_type_uint16(void) { return &ffi_type_uint16; }
static inline ffi_type *patchbay_ffi_type_sint16(void) { return &ffi_type_sint16; }
static inline ffi_type *patchbay_ffi_type_uint32(void) { return &ffi_type_uint32; }
static inline ffi_type *patchbay_ffi_type_sint32(void) { return &ffi_type_sint32; }
static inline ffi_type *patchbay_ffi_type_uint64(void) { return &ffi_type_uint64; }
static inline ffi_type *patchbay_ffi_type_sint64(void) { return &ffi_type_sint64; }
static inline ffi_type *patchbay_ffi_type_float(void) { return &ffi_type_float; }
static inline ffi_type *patchbay_ffi_type_double(void) { return &ffi_type_double; }
static inline ffi_type *patchbay_ffi_type_pointer(void) { return &ffi_type_pointer; }

/* The platform's default calling convention (an enum member some importers miss). */
static inline ffi_abi patchbay_ffi_default_abi(void) { return FFI_DEFAULT_ABI; }

/* ffi_prep_cif, with the default calling convention; 0 when it succeeded. */
static inline int patchbay_ffi_prep_cif(ffi_cif *cif, unsigned count, ffi_type *result,
                                        ffi_type **arguments) {
  return ffi_prep_cif(cif, FFI_DEFAULT_ABI, count, result, arguments) == FFI_OK ? 0 : -1;
}

#endif
