/* An LV2 plugin that uses the worker extension, for PatchbayLV2's tests (its manifest is
   written by the test, beside the built library). Its one export is lv2_descriptor. */
#ifndef LV2_WORKER_FIXTURE_H
#define LV2_WORKER_FIXTURE_H
#include <lv2/core/lv2.h>
#endif
