// patchbay_ticks.h is all inline; this file gives the target a source.
#include "patchbay_ticks.h"
