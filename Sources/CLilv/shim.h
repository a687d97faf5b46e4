/* lilv (LV2 plugin discovery and instances) and the LV2 headers a host needs, for
   PatchbayLV2. `apt-get install liblilv-dev` (make deps does). */
#ifndef PATCHBAY_CLILV_H
#define PATCHBAY_CLILV_H

#include <lilv-0/lilv/lilv.h>
#include <lv2/atom/atom.h>
#include <lv2/atom/util.h>
#include <lv2/buf-size/buf-size.h>
#include <lv2/core/lv2.h>
#include <lv2/midi/midi.h>
#include <lv2/options/options.h>
#include <lv2/parameters/parameters.h>
#include <lv2/presets/presets.h>
#include <lv2/state/state.h>
#include <lv2/urid/urid.h>
#include <lv2/worker/worker.h>

#endif
