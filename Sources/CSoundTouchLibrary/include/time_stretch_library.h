// libhfr-soundtouch.so's one exported symbol: the time stretch's functions (CSoundTouch's header),
// for CSoundTouch's loader (loader.c), which finds it with dlsym.
#ifndef HFR_TIME_STRETCH_LIBRARY_H
#define HFR_TIME_STRETCH_LIBRARY_H

#include "../../CSoundTouch/include/time_stretch.h"

#ifdef __cplusplus
extern "C" {
#endif

__attribute__((visibility("default"))) const hfr_time_stretch_table *hfr_time_stretch_functions(void);

#ifdef __cplusplus
}
#endif

#endif
