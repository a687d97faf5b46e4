#define _GNU_SOURCE
#include "numbered_support.h"

#include <dlfcn.h>
#include <stddef.h>

const char *numbered_image_path(void) {
  Dl_info info;
  if (!dladdr((const void *)&numbered_image_path, &info)) return NULL;
  return info.dli_fname;
}
