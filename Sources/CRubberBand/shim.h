// Rubber Band 3.1's C API for Swift. Its options are plain enum constants and its functions take
// plain pointers, so everything imports as is; this module only makes the header a Swift module.
#ifndef HFR_CRUBBERBAND_SHIM_H
#define HFR_CRUBBERBAND_SHIM_H
#include <rubberband/rubberband-c.h>
#endif
