/* urn:patchbay:test:worker — an LV2 plugin whose slow work is its worker's.
 *
 * Ports: 0 `request` (control in), 1 `answer` (control out), 2 `elsewhere` (control out),
 * 3 `out` (audio out, silence). When `request` changes, run() schedules it; the worker
 * doubles it, noting whether it ran on another thread than run(); work_response() sets
 * `answer` to the doubled value and `elsewhere` to 1 when the work ran elsewhere. */
#include "lv2_worker_fixture.h"

#include <lv2/worker/worker.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  const float *request;
  float *answer;
  float *elsewhere;
  float *out;
  float last;
  pthread_t run_thread;
  LV2_Worker_Schedule *schedule;
} Fixture;

typedef struct {
  float value;
  int elsewhere;
} Answer;

static LV2_Handle instantiate(const LV2_Descriptor *descriptor, double rate, const char *path,
                              const LV2_Feature *const *features) {
  (void)descriptor, (void)rate, (void)path;
  LV2_Worker_Schedule *schedule = NULL;
  for (int i = 0; features && features[i]; i++)
    if (!strcmp(features[i]->URI, LV2_WORKER__schedule)) schedule = features[i]->data;
  if (!schedule) return NULL;
  Fixture *fixture = calloc(1, sizeof(Fixture));
  fixture->schedule = schedule;
  fixture->last = -1;
  return fixture;
}

static void connect_port(LV2_Handle handle, uint32_t port, void *data) {
  Fixture *fixture = handle;
  switch (port) {
  case 0: fixture->request = data; break;
  case 1: fixture->answer = data; break;
  case 2: fixture->elsewhere = data; break;
  case 3: fixture->out = data; break;
  }
}

static void run(LV2_Handle handle, uint32_t frames) {
  Fixture *fixture = handle;
  fixture->run_thread = pthread_self();
  memset(fixture->out, 0, frames * sizeof(float));
  if (*fixture->request != fixture->last) {
    fixture->last = *fixture->request;
    fixture->schedule->schedule_work(fixture->schedule->handle, sizeof(float), &fixture->last);
  }
}

static LV2_Worker_Status work(LV2_Handle handle, LV2_Worker_Respond_Function respond,
                              LV2_Worker_Respond_Handle respond_handle, uint32_t size,
                              const void *data) {
  Fixture *fixture = handle;
  if (size != sizeof(float)) return LV2_WORKER_ERR_UNKNOWN;
  Answer answer = {*(const float *)data * 2,
                   !pthread_equal(pthread_self(), fixture->run_thread)};
  return respond(respond_handle, sizeof answer, &answer);
}

static LV2_Worker_Status work_response(LV2_Handle handle, uint32_t size, const void *body) {
  Fixture *fixture = handle;
  if (size != sizeof(Answer)) return LV2_WORKER_ERR_UNKNOWN;
  const Answer *answer = body;
  *fixture->answer = answer->value;
  *fixture->elsewhere = (float)answer->elsewhere;
  return LV2_WORKER_SUCCESS;
}

static const void *extension_data(const char *uri) {
  static const LV2_Worker_Interface worker = {work, work_response, NULL};
  return strcmp(uri, LV2_WORKER__interface) ? NULL : &worker;
}

static void cleanup(LV2_Handle handle) { free(handle); }

static const LV2_Descriptor descriptor = {
    "urn:patchbay:test:worker", instantiate, connect_port, NULL, run, NULL, cleanup,
    extension_data};

extern const LV2_Descriptor lv2_tone_fixture;

LV2_SYMBOL_EXPORT const LV2_Descriptor *lv2_descriptor(uint32_t index) {
  switch (index) {
  case 0: return &descriptor;
  case 1: return &lv2_tone_fixture;
  default: return NULL;
  }
}
