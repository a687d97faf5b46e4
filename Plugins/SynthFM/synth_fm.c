/* SynthFM: a second implementation of the Synth feature (dev.patchbay.synth), for swapping
 * while the app plays. The same reducer and state (Plugins/Synth/synth.c); the processor's
 * voices are two-operator FM instead (Plugins/Synth/processor.c, built with SYNTH_FM).
 *
 *   swap synth SynthFM          (a script line, or `:swap synth SynthFM` in the terminal)
 */
#define SYNTH_FM 1
#define SYNTH_PLUGIN_ID "dev.patchbay.synth-fm-plugin"
#define SYNTH_PLUGIN_NAME "SynthFM"

#include "../Synth/synth.c"
#include "../Synth/processor.c"
