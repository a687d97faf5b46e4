/*
 * The fixture's processors (patchbay/process.h): ones that break its rules, one that pushes
 * more events than it declares, and one that does nothing (what the host costs around a
 * processor call, for the benchmarks). misbehaving.c picks them by mode.
 */
#include <patchbay.h>

#include <stddef.h>

#include "fixture.h"

/* Processors that break the rules of patchbay/process.h, and one that pushes too much. */
static void *processor_create(void *instance, const pb_processor_config *config) {
  (void)instance, (void)config;
  static int processor;
  return &processor;
}
static void processor_process(void *processor, const pb_process *process) {
  (void)processor;
  /* Pushes 10 events a period; it declares 2. */
  for (uint32_t i = 0; i < 10; i++) {
    pb_processor_event event = {i, 1, (int64_t)process->steady_time, 0};
    process->events->push(process->events, &event);
  }
}
static void processor_destroy(void *processor) { (void)processor; }
/* Does nothing: what the host costs around a processor call (benchmarks). */
static void processor_process_nothing(void *processor, const pb_process *process) {
  (void)processor, (void)process;
}
static void processor_write(void *instance, void *block) { (void)instance, (void)block; }
static pb_status processor_event_action(void *instance, const pb_processor_event *event,
                                        const pb_writer *out) {
  (void)instance, (void)event;
  return pb_write_case(out, "increment", 0) ? PB_ERR_FAILED : PB_OK;
}
#define PROCESSOR(name, params, events, writer, process)                                      \
  static const pb_processor_desc name = {sizeof(pb_processor_desc), params, events, writer,    \
                                         processor_create, process, processor_destroy,         \
                                         processor_event_action};
PROCESSOR(chatty_processor, 8, 2, processor_write, processor_process)
PROCESSOR(empty_processor, 8, 2, processor_write, processor_process_nothing)
PROCESSOR(big_events_processor, 0, 1000, NULL, processor_process)
PROCESSOR(big_params_processor, 8192, 2, processor_write, processor_process)
PROCESSOR(no_writer_processor, 8, 2, NULL, processor_process)
PROCESSOR(no_process_processor, 0, 2, NULL, NULL)
#define WITH_PROCESSOR(name, feature_id, processor)                                            \
  static const pb_feature_desc name = {sizeof(pb_feature_desc), feature_id, "Fixture", NULL,   \
                                       1, 0, NULL, &fixture_vtable, processor};

WITH_PROCESSOR(chatty, "dev.patchbay.fixture-chatty", &chatty_processor)
WITH_PROCESSOR(empty, "dev.patchbay.fixture-empty-processor", &empty_processor)
WITH_PROCESSOR(big_events, "dev.patchbay.fixture", &big_events_processor)
WITH_PROCESSOR(big_params, "dev.patchbay.fixture", &big_params_processor)
WITH_PROCESSOR(no_writer, "dev.patchbay.fixture", &no_writer_processor)
WITH_PROCESSOR(no_process, "dev.patchbay.fixture", &no_process_processor)

const pb_feature_desc *const chatty_features[] = {&chatty};
const pb_feature_desc *const empty_features[] = {&empty};
const pb_feature_desc *const big_events_features[] = {&big_events};
const pb_feature_desc *const big_params_features[] = {&big_params};
const pb_feature_desc *const no_writer_features[] = {&no_writer};
const pb_feature_desc *const no_process_features[] = {&no_process};
