/* libasound (ALSA), for PatchbayAudioDevice and PatchbayMIDI. `apt-get install libasound2-dev`. */
#ifndef PATCHBAY_CALSA_H
#define PATCHBAY_CALSA_H

#include <alsa/asoundlib.h>

#endif
