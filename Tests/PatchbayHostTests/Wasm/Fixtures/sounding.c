/*
 * sounding.c — hostile.c with a processor: a WebAssembly plugin with sound, which the host
 * refuses at load, naming the feature and why.
 */
#define HOSTILE_SOUNDS 1
#include "hostile.c"
