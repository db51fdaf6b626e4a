// OpenH264 2.3 for Swift.
//
// In C, ISVCEncoder is a pointer to a table of function pointers that each take the encoder again
// as first argument; calling through that from Swift is noisy and easy to get wrong, so the few
// calls hfr makes are wrapped here as inline functions. Everything else imports as is.
#ifndef HFR_COPENH264_SHIM_H
#define HFR_COPENH264_SHIM_H

#include <stdbool.h>
#include <wels/codec_api.h>
#include <wels/codec_app_def.h>
#include <wels/codec_def.h>
#include <wels/codec_ver.h>

/// hfr loads libopenh264 on first use (CFFmpeg's lazy_openh264.c defines WelsCreateSVCEncoder,
/// WelsDestroySVCEncoder and WelsGetCodecVersion, forwarding to it): NULL once loaded, else why it
/// could not be (WelsCreateSVCEncoder then fails).
const char *hfr_openh264_load_error(void);

static inline int hfr_encoder_get_default_params(ISVCEncoder *e, SEncParamExt *p) {
    return (*e)->GetDefaultParams(e, p);
}
static inline int hfr_encoder_initialize_ext(ISVCEncoder *e, const SEncParamExt *p) {
    return (*e)->InitializeExt(e, p);
}
static inline int hfr_encoder_encode_frame(ISVCEncoder *e, const SSourcePicture *src, SFrameBSInfo *info) {
    return (*e)->EncodeFrame(e, src, info);
}
static inline int hfr_encoder_force_intra_frame(ISVCEncoder *e, bool idr) {
    return (*e)->ForceIntraFrame(e, idr);
}
static inline int hfr_encoder_set_option(ISVCEncoder *e, ENCODER_OPTION option, void *value) {
    return (*e)->SetOption(e, option, value);
}
static inline int hfr_encoder_encode_parameter_sets(ISVCEncoder *e, SFrameBSInfo *info) {
    return (*e)->EncodeParameterSets(e, info);
}
static inline int hfr_encoder_uninitialize(ISVCEncoder *e) {
    return (*e)->Uninitialize(e);
}

#endif
