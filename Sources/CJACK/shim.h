/* libjack (JACK, or PipeWire's JACK API), for PatchbayJACK. `apt-get install libjack-jackd2-dev`. */
#ifndef PATCHBAY_CJACK_H
#define PATCHBAY_CJACK_H

#include <jack/jack.h>
#include <jack/midiport.h>

/* jack_client_open is variadic, which Swift cannot call: these are its two uses. Neither
   starts a server (JackNoStartServer): an app that finds none says so. */
static inline jack_client_t *jack_client_open_default(const char *name, jack_status_t *status) {
  return jack_client_open(name, JackNoStartServer, status);
}

static inline jack_client_t *jack_client_open_with_server(
    const char *name, const char *server, jack_status_t *status) {
  return jack_client_open(name, (jack_options_t)(JackNoStartServer | JackServerName), status,
                          server);
}

#endif
