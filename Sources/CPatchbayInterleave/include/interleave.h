/*
 * interleave.h — between the host's interleaved mix and a plugin's planar channels (LV2 and
 * CLAP hosts copy so every period: a plugin's port is one channel's samples in a row).
 *
 *   pb_stereo_split(mix, 128, left, right);           // L R L R … → L L …, R R …
 *   run(plugin);
 *   pb_stereo_join(out_left, out_right, 128, mix, false);   // back, over the mix
 *
 * [audio-thread] All of them: no lock, no allocation, one pass, no branch per sample, so the
 * compiler vectorizes them.
 */
#ifndef PATCHBAY_INTERLEAVE_H
#define PATCHBAY_INTERLEAVE_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Copies channel `channel` of `frames` interleaved frames of `channels` samples into `out`. */
void pb_channel_take(const float *mix, size_t frames, size_t channels, size_t channel,
                     float *out);

/* Writes `in` into channel `channel` of the interleaved `mix`, over it or (`add`) added. */
void pb_channel_put(const float *in, size_t frames, size_t channels, size_t channel, float *mix,
                    bool add);

/* Both channels of a stereo mix into `left` and `right`, in one pass. */
void pb_stereo_split(const float *mix, size_t frames, float *left, float *right);

/* `left` and `right` into a stereo mix, over it or (`add`) added, in one pass. */
void pb_stereo_join(const float *left, const float *right, size_t frames, float *mix, bool add);

#ifdef __cplusplus
}
#endif

#endif
