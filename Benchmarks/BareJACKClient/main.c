/* A JACK client with nothing of Patchbay in it: the reference the JACK studio benchmark judges
 * Patchbay against, run on a server of its own beside Patchbay's, at the same time, on the
 * same machine.
 *
 *   BareJACKClient SERVER SECONDS
 *
 * It writes a sine to two output ports connected to the server's playback ports, as a
 * simple synth would, for SECONDS, and prints one line:
 *
 *   periods 22500 xruns 0 lateness-p50-us 12 lateness-p99-us 40 lateness-max-us 310 priority 65
 *
 * Lateness is measured as Patchbay's JACK output measures it: how long after its cycle began
 * (jack_get_cycle_times) the process callback started. Nothing in the callback allocates,
 * locks or prints. */
#include <jack/jack.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define MAX_US 100000

static jack_client_t *client;
static jack_port_t *ports[2];
static unsigned long histogram[MAX_US + 1];
static atomic_long periods, xruns;
static float phase;
static atomic_int priority = -1;

static int process(jack_nframes_t frames, void *arg) {
  (void)arg;
  if (atomic_load_explicit(&priority, memory_order_relaxed) < 0) {
    int policy;
    struct sched_param parameters;
    pthread_getschedparam(pthread_self(), &policy, &parameters);
    atomic_store(&priority, policy == SCHED_FIFO || policy == SCHED_RR ? parameters.sched_priority : 0);
  }
  jack_nframes_t cycle_frames;
  jack_time_t began, next;
  float period;
  if (jack_get_cycle_times(client, &cycle_frames, &began, &next, &period) == 0) {
    jack_time_t now = jack_get_time();
    unsigned long late = now > began ? (unsigned long)(now - began) : 0;
    histogram[late > MAX_US ? MAX_US : late] += 1;
  }
  float *left = jack_port_get_buffer(ports[0], frames);
  float *right = jack_port_get_buffer(ports[1], frames);
  for (jack_nframes_t i = 0; i < frames; i++) {
    left[i] = right[i] = 0.25f * sinf(phase);
    phase += 2 * (float)M_PI * 440 / 48000;
    if (phase > 2 * (float)M_PI) phase -= 2 * (float)M_PI;
  }
  atomic_fetch_add_explicit(&periods, 1, memory_order_relaxed);
  return 0;
}

static int xrun(void *arg) {
  (void)arg;
  atomic_fetch_add_explicit(&xruns, 1, memory_order_relaxed);
  return 0;
}

static unsigned long percentile(double percent) {
  unsigned long total = 0, seen = 0;
  for (int i = 0; i <= MAX_US; i++) total += histogram[i];
  if (total == 0) return 0;
  unsigned long wanted = (unsigned long)ceil(total * percent / 100);
  for (int i = 0; i <= MAX_US; i++) {
    seen += histogram[i];
    if (seen >= wanted) return (unsigned long)i;
  }
  return MAX_US;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: BareJACKClient SERVER SECONDS\n");
    return 2;
  }
  jack_status_t status;
  client = jack_client_open("bare", JackNoStartServer | JackServerName, &status, argv[1]);
  if (!client) {
    fprintf(stderr, "BareJACKClient: no JACK server \"%s\" (status 0x%x)\n", argv[1], status);
    return 1;
  }
  ports[0] = jack_port_register(client, "out_1", JACK_DEFAULT_AUDIO_TYPE, JackPortIsOutput, 0);
  ports[1] = jack_port_register(client, "out_2", JACK_DEFAULT_AUDIO_TYPE, JackPortIsOutput, 0);
  jack_set_process_callback(client, process, NULL);
  jack_set_xrun_callback(client, xrun, NULL);
  if (!ports[0] || !ports[1] || jack_activate(client) != 0) {
    fprintf(stderr, "BareJACKClient: the server refused its ports\n");
    return 1;
  }
  jack_connect(client, "bare:out_1", "system:playback_1");
  jack_connect(client, "bare:out_2", "system:playback_2");
  sleep((unsigned)atoi(argv[2]));
  jack_deactivate(client);
  jack_client_close(client);
  unsigned long max = 0;
  for (int i = 0; i <= MAX_US; i++)
    if (histogram[i]) max = (unsigned long)i;
  printf("periods %ld xruns %ld lateness-p50-us %lu lateness-p99-us %lu lateness-max-us %lu "
         "priority %d\n",
         atomic_load(&periods), atomic_load(&xruns), percentile(50), percentile(99), max,
         atomic_load(&priority));
  return 0;
}
