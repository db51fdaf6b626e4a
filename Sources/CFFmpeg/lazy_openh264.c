// OpenH264 (libopenh264), loaded on first use.
//
// Linked, it cost every hfr command 2 ms at start, though only recording and re-encoding use it.
// The three functions hfr calls are defined here under their own names (Swift calls them through
// COpenH264 as codec_api.h declares them; the encoder's methods are a table of function pointers,
// which needs no symbol) and forward to the library once it is loaded. Unloaded, creating an
// encoder fails (callers check hfr_openh264_load_error first for the reason).
#include "lazy.h"

#include <wels/codec_api.h>
#include <wels/codec_ver.h>

// Debian's libopenh264-7 holds OpenH264 2.3; the soname does not follow from the version.
#if OPENH264_MAJOR != 2 || OPENH264_MINOR != 3
#error "OpenH264 other than 2.3: check its soname (libopenh264.so.N) and update OPENH264_SONAME"
#endif
#define OPENH264_SONAME "libopenh264.so.7"

static struct library openh264 = {.once = PTHREAD_ONCE_INIT};
static struct {
    __typeof__(&WelsCreateSVCEncoder) WelsCreateSVCEncoder;
    __typeof__(&WelsDestroySVCEncoder) WelsDestroySVCEncoder;
    __typeof__(&WelsGetCodecVersion) WelsGetCodecVersion;
} api;

static void load(void) {
    void *handle = open_library(&openh264, OPENH264_SONAME);
    if (!handle) return;
    RESOLVE(openh264, handle, api, WelsCreateSVCEncoder);
    RESOLVE(openh264, handle, api, WelsDestroySVCEncoder);
    RESOLVE(openh264, handle, api, WelsGetCodecVersion);
}

const char *hfr_openh264_load_error(void) {
    pthread_once(&openh264.once, load);
    return openh264.status < 0 ? openh264.error : NULL;
}

int WelsCreateSVCEncoder(ISVCEncoder **encoder) {
    if (hfr_openh264_load_error()) return 1;
    return api.WelsCreateSVCEncoder(encoder);
}

// An encoder exists only if the library loaded.
void WelsDestroySVCEncoder(ISVCEncoder *encoder) {
    if (encoder) api.WelsDestroySVCEncoder(encoder);
}

OpenH264Version WelsGetCodecVersion(void) {
    OpenH264Version none = {0};
    return hfr_openh264_load_error() ? none : api.WelsGetCodecVersion();
}
