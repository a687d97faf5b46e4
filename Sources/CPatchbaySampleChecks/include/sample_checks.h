/*
 * sample_checks.h — what the host checks of the samples processors write, every period.
 *
 * [audio-thread] All of them: no lock, no allocation, one pass over the samples, no branch
 * per sample, so the compiler vectorizes them.
 */
#ifndef PATCHBAY_SAMPLE_CHECKS_H
#define PATCHBAY_SAMPLE_CHECKS_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Whether any of `count` samples is NaN or ±Inf. */
bool pb_samples_any_nonfinite(const float *samples, size_t count);

/* Sets every NaN or ±Inf sample to 0; returns how many there were. */
size_t pb_samples_silence_nonfinite(float *samples, size_t count);

/* Clips every sample to [-1, 1] (full scale); returns how many were outside it. Writes the
 * largest magnitude seen before clipping to `*peak` when it is larger than `*peak`. The
 * samples must be finite (see pb_samples_silence_nonfinite). */
size_t pb_samples_clip(float *samples, size_t count, float *peak);

/* The level of two interleaved channels (`frames` frames; the second is ignored when
 * `channels` is 1): each channel's largest magnitude into `peaks[c]` when larger, and the sum
 * of its squares added to `squares[c]`. A level meter's measure, in one pass. */
void pb_samples_level(const float *samples, size_t frames, size_t channels, float peaks[2],
                      double squares[2]);

/* The largest magnitude of what was added to `before` to make `after` (`count` samples):
 * what one processor wrote into the mix, measured without a buffer of its own. */
float pb_samples_added_peak(const float *after, const float *before, size_t count);

#ifdef __cplusplus
}
#endif

#endif
