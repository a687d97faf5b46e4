#include "patchbay_sharing_slot.h"

__thread const void *pb_sharing_slot_value
    __attribute__((visibility("hidden"), tls_model("initial-exec"))) = 0;
