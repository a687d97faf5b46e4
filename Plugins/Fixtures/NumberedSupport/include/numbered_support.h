/*
 * The numbered fixture's way to learn which file it was loaded from: `dladdr`, which Swift's
 * Glibc module does not declare (it needs _GNU_SOURCE).
 */
#ifndef NUMBERED_SUPPORT_H
#define NUMBERED_SUPPORT_H

/* The path the image holding this function was opened as (the host's generation copy), or
 * NULL when the dynamic linker cannot say. */
const char *numbered_image_path(void);

#endif
