// Frame interpolation on OpenCV (DIS dense optical flow, remap), behind a plain C interface so Swift
// never sees a C++ or OpenCV type. Pictures are planar 4:2:0 (three planes, chroma at half width
// and height rounded up), 8 bits per sample.
//
// The implementation (COpticalFlowLibrary) is a library of its own, libhfr-opticalflow.so, which
// hfr loads the first time it interpolates (loader.c): linked in, OpenCV and the libraries it loads
// (dnn, protobuf, LAPACK, X11, …) cost every hfr command 13 ms at start.
#ifndef HFR_OPTICAL_FLOW_H
#define HFR_OPTICAL_FLOW_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Three planes (Y, U, V) and their strides in bytes.
typedef struct hfr_picture {
    uint8_t *data[3];
    int linesize[3];
} hfr_picture;

/// How the flow is estimated. `hfr_flow_default_settings` gives the measured choice.
typedef struct hfr_flow_settings {
    /// DIS preset: 0 ultrafast, 1 fast, 2 medium.
    int preset;
    /// Flow estimated on the luma shrunk by this factor (1, 2 or 4), then scaled up.
    int downscale;
    /// Forward-backward disagreement (in flow pixels) at which a warped frame's weight halves.
    float consistency;
    /// Threads for the estimate and the warps (1 or more).
    int threads;
    /// 1: the AVX2 loops where the processor has them; 0: the portable ones (same pictures to rounding).
    int simd;
} hfr_flow_settings;

hfr_flow_settings hfr_flow_default_settings(void);

typedef struct hfr_flow hfr_flow;

/// An interpolator for pictures of this size; NULL when the settings are unusable or the picture
/// too small for the flow (under 32 pixels either way once shrunk) or too large (over 16384).
hfr_flow *hfr_flow_create(int width, int height, const hfr_flow_settings *settings);
void hfr_flow_destroy(hfr_flow *flow);

/// Estimates the motion between two pictures both ways. 0, or -1 with `hfr_flow_error` set.
int hfr_flow_set_pair(hfr_flow *flow, const hfr_picture *earlier, const hfr_picture *later);

/// Writes the picture at `fraction` (0 < fraction < 1) of the way from the pair's earlier picture
/// to its later one. 0, or -1 with `hfr_flow_error` set.
int hfr_flow_synthesize(hfr_flow *flow, double fraction, hfr_picture *out);

/// The last failure's message (valid until the next call on `flow`).
const char *hfr_flow_error(const hfr_flow *flow);

/// out = earlier * (1 - fraction) + later * fraction, per plane, rounded. 0, or -1 on failure.
int hfr_blend(const hfr_picture *earlier, const hfr_picture *later, int width, int height, double fraction,
              hfr_picture *out);

/// NULL once libhfr-opticalflow.so is loaded (it is, on the first call of this or any function
/// above); else why it could not be, and the functions above fail (NULL, -1, zeroed settings).
const char *hfr_optical_flow_load_error(void);

/// The library's file name; hfr looks for it beside its own executable, then in ../lib/hfr.
#define HFR_OPTICAL_FLOW_LIBRARY "libhfr-opticalflow.so"

/// The functions above as the library hands them to the loader (its one exported symbol,
/// `hfr_optical_flow_functions`).
typedef struct hfr_optical_flow_table {
    __typeof__(&hfr_flow_default_settings) flow_default_settings;
    __typeof__(&hfr_flow_create) flow_create;
    __typeof__(&hfr_flow_destroy) flow_destroy;
    __typeof__(&hfr_flow_set_pair) flow_set_pair;
    __typeof__(&hfr_flow_synthesize) flow_synthesize;
    __typeof__(&hfr_flow_error) flow_error;
    __typeof__(&hfr_blend) blend;
} hfr_optical_flow_table;

#ifdef __cplusplus
}
#endif

#endif
