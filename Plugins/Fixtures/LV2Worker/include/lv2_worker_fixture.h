/* Two LV2 plugins for PatchbayLV2's tests, in one library whose one export is
   lv2_descriptor: a plugin that uses the worker extension (worker_fixture.c) and the smallest
   instrument (tone_fixture.c). manifest.ttl describes both; the tests copy it beside the
   built library (LV2Fixtures). */
#ifndef LV2_WORKER_FIXTURE_H
#define LV2_WORKER_FIXTURE_H
#include <lv2/core/lv2.h>
#endif
