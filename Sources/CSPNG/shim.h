// libspng (Debian: libspng-dev): PNG encoding and decoding, for `patchbay render --plot`.
#include <spng.h>
