#include "patchbay_thread_mark.h"

__thread const void *pb_thread_mark_value = 0;
