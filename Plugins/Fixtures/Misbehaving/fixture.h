/* What the fixture's files share: the valid vtable, the features processors.c and sizes.c
 * make, and the functions functions.c exports. */
#ifndef PATCHBAY_FIXTURE_H
#define PATCHBAY_FIXTURE_H

#include <patchbay.h>

/* Shared between the fixture's files, never exported: the plugin exports its entry only. */
#define FIXTURE_INTERNAL __attribute__((visibility("hidden")))

FIXTURE_INTERNAL extern const pb_feature_vtable fixture_vtable;

FIXTURE_INTERNAL extern const pb_feature_desc *const chatty_features[1];
FIXTURE_INTERNAL extern const pb_feature_desc *const empty_features[1];
FIXTURE_INTERNAL extern const pb_feature_desc *const big_events_features[1];
FIXTURE_INTERNAL extern const pb_feature_desc *const big_params_features[1];
FIXTURE_INTERNAL extern const pb_feature_desc *const no_writer_features[1];
FIXTURE_INTERNAL extern const pb_feature_desc *const no_process_features[1];
FIXTURE_INTERNAL extern const pb_feature_desc *const huge_features[1]; /* sizes.c */
FIXTURE_INTERNAL extern const pb_feature_desc *const huge_snapshots_features[1]; /* sizes.c */

/* functions.c: every signature type; "theorylite", "badsignature" and "twofunctions". */
FIXTURE_INTERNAL extern const pb_function_desc *const all_functions[16];
FIXTURE_INTERNAL extern const pb_function_desc *const lite_functions[1];
FIXTURE_INTERNAL extern const pb_function_desc *const bad_functions[1];
FIXTURE_INTERNAL extern const pb_function_desc *const twice_functions[2];

#endif
