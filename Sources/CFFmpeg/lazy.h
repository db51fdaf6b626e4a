// What the lazily loaded libraries share (lazy.c, lazy_openh264.c, lazy_rubberband.c): a library's
// load outcome, dlopen and dlsym with the failure kept for every later caller.
#ifndef HFR_LAZY_H
#define HFR_LAZY_H

#include "CFFmpeg.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

/// One lazily loaded library: its load outcome, kept for every later caller.
struct library {
    pthread_once_t once;
    // 0 once loaded; AVERROR(ELIBACC) when the library cannot be loaded, AVERROR(ENOSYS) when it
    // lacks a function hfr calls. ELIBACC reads "Can not access a needed shared library" even
    // where a caller shows only the code's text.
    int status;
    char error[512];
};

/// dlopens `soname`; RTLD_NOW so a missing symbol fails here, not in the middle of an export.
static inline void *open_library(struct library *library, const char *soname) {
    // RTLD_GLOBAL: as if hfr had linked it, its symbols join the other libav libraries' global scope.
    void *handle = dlopen(soname, RTLD_NOW | RTLD_GLOBAL);
    if (!handle) {
        // dlerror's text is per thread and overwritten by the next call: copy it now.
        snprintf(library->error, sizeof library->error, "%s", dlerror());
        library->status = AVERROR(ELIBACC);
    }
    return handle;
}

/// Stores `name`'s address in `slot`; records the failure in `library` when it is missing.
static inline void resolve(struct library *library, void *handle, const char *name, void **slot) {
    if (library->status < 0) return;
    dlerror();
    *slot = dlsym(handle, name);
    if (!*slot) {
        const char *reason = dlerror();
        snprintf(library->error, sizeof library->error, "%s", reason ? reason : name);
        library->status = AVERROR(ENOSYS);
    }
}

// POSIX guarantees that a dlsym result converts to a function pointer; storing it through a
// `void **` is the form the dlsym manual recommends.
#define RESOLVE(library, handle, table, symbol) \
    resolve(&(library), (handle), #symbol, (void **)&(table).symbol)

#endif
