/*
 * midi.c — "patchbay.midi/1" inside a WebAssembly plugin: the channels its instance listens
 * to. The messages come as actions, as to a native plugin.
 *
 * Linked only into a module whose source names PB_SERVICE_MIDI, so only such a module imports
 * patchbay.midi_listen, which host-config must grant ([sandbox] "Mine.wasm" = ["midi"]).
 */
#include <patchbay.h>

__attribute__((import_module("patchbay"), import_name("midi_listen"))) void
pbw_host_midi_listen(uint32_t channel_mask);

const char pb_wasm_service_midi[] = "patchbay.midi/1";

static void pbw_listen(const pb_host *host, uint16_t channel_mask) {
  (void)host;
  pbw_host_midi_listen(channel_mask);
}

const pb_midi_service pbw_midi = {sizeof(pb_midi_service), pbw_listen};
