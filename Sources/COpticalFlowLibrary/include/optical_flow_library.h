// libhfr-opticalflow.so's one exported symbol: the interpolator's functions (COpticalFlow's header),
// for COpticalFlow's loader (loader.c), which finds it with dlsym.
#ifndef HFR_OPTICAL_FLOW_LIBRARY_H
#define HFR_OPTICAL_FLOW_LIBRARY_H

#include "../../COpticalFlow/include/optical_flow.h"

#ifdef __cplusplus
extern "C" {
#endif

__attribute__((visibility("default"))) const hfr_optical_flow_table *hfr_optical_flow_functions(void);

#ifdef __cplusplus
}
#endif

#endif
