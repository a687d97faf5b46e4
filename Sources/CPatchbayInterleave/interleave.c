#include "interleave.h"

void pb_channel_take(const float *mix, size_t frames, size_t channels, size_t channel,
                     float *out) {
  for (size_t frame = 0; frame < frames; frame++) out[frame] = mix[frame * channels + channel];
}

void pb_channel_put(const float *in, size_t frames, size_t channels, size_t channel, float *mix,
                    bool add) {
  if (add) {
    for (size_t frame = 0; frame < frames; frame++) mix[frame * channels + channel] += in[frame];
  } else {
    for (size_t frame = 0; frame < frames; frame++) mix[frame * channels + channel] = in[frame];
  }
}

void pb_stereo_split(const float *restrict mix, size_t frames, float *restrict left,
                     float *restrict right) {
  for (size_t frame = 0; frame < frames; frame++) {
    left[frame] = mix[2 * frame];
    right[frame] = mix[2 * frame + 1];
  }
}

void pb_stereo_join(const float *restrict left, const float *restrict right, size_t frames,
                    float *restrict mix, bool add) {
  if (add) {
    for (size_t frame = 0; frame < frames; frame++) {
      mix[2 * frame] += left[frame];
      mix[2 * frame + 1] += right[frame];
    }
  } else {
    for (size_t frame = 0; frame < frames; frame++) {
      mix[2 * frame] = left[frame];
      mix[2 * frame + 1] = right[frame];
    }
  }
}
