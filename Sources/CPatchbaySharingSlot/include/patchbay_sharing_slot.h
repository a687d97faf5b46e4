#ifndef PATCHBAY_SHARING_SLOT_H
#define PATCHBAY_SHARING_SLOT_H

/* The in-memory `@Shared` storage of the plugin instance whose call runs on this thread
 * (`InMemoryStorage.withCurrent`): a C thread-local, read and written inline. A pthread key
 * cost three calls into libc around every action sent through the C ABI.
 *
 * Hidden: each image has its own (the host's, linked in, and `libPatchbaySDK.so`'s), as each
 * had its own pthread key. Initial-exec: one load at a fixed offset from the thread pointer;
 * the SDK library, loaded with the first plugin, takes 8 bytes of the static TLS block that
 * glibc keeps free for libraries loaded later.
 *
 *   const void *outer = pb_sharing_slot();
 *   pb_set_sharing_slot(source);   // `@Shared(.inMemory)` made now is the instance's
 *   ...
 *   pb_set_sharing_slot(outer);
 */

extern __thread const void *pb_sharing_slot_value
    __attribute__((visibility("hidden"), tls_model("initial-exec")));

static inline const void *pb_sharing_slot(void) { return pb_sharing_slot_value; }

static inline void pb_set_sharing_slot(const void *source) { pb_sharing_slot_value = source; }

#endif
