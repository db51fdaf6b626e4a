// Rubber Band 3.1's C API for Swift. Its options are plain enum constants and its functions take
// plain pointers, so everything imports as is; this module makes the header a Swift module.
#ifndef HFR_CRUBBERBAND_SHIM_H
#define HFR_CRUBBERBAND_SHIM_H
#include <rubberband/rubberband-c.h>

/// hfr loads librubberband on first use (CFFmpeg's lazy_rubberband.c defines the functions above,
/// forwarding to it): NULL once loaded, else why it could not be (rubberband_new then gives NULL).
const char *hfr_rubberband_load_error(void);
#endif
