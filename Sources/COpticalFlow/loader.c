// Loads libhfr-opticalflow.so (COpticalFlowLibrary: the interpolator on OpenCV) on first use and
// forwards the header's functions to it. hfr does not link OpenCV: the libraries it loads cost
// every command 13 ms at start, though only `export --interpolate` uses them.
//
// The library is looked for beside hfr's own executable (the build directory; also the test
// bundle's), then in ../lib/hfr (an installation: bin/hfr and lib/hfr/libhfr-opticalflow.so).
#include "optical_flow.h"

#include <dlfcn.h>
#include <libgen.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const hfr_optical_flow_table *table;
static char load_error[1024];

/// Opens the library in `directory`/`relative`; NULL with the reason appended to `load_error`.
static void *open_in(const char *directory, const char *relative) {
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s/%s%s", directory, relative, HFR_OPTICAL_FLOW_LIBRARY) >= (int)sizeof path)
        return NULL;
    // RTLD_LOCAL: its symbols (OpenCV's among them) stay out of hfr's global scope.
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        size_t used = strlen(load_error);
        snprintf(load_error + used, sizeof load_error - used, "%s%s", used ? "; " : "", dlerror());
    }
    return handle;
}

static void load(void) {
    char executable[PATH_MAX];
    ssize_t length = readlink("/proc/self/exe", executable, sizeof executable - 1);
    if (length <= 0) {
        snprintf(load_error, sizeof load_error, "cannot find hfr's executable to look beside it for %s",
                 HFR_OPTICAL_FLOW_LIBRARY);
        return;
    }
    executable[length] = 0;
    const char *directory = dirname(executable);
    void *handle = open_in(directory, "");
    if (!handle) handle = open_in(directory, "../lib/hfr/");
    if (!handle) return;
    dlerror();
    const hfr_optical_flow_table *(*functions)(void) =
        (const hfr_optical_flow_table *(*)(void))dlsym(handle, "hfr_optical_flow_functions");
    if (!functions) {
        const char *reason = dlerror();
        snprintf(load_error, sizeof load_error, "%s", reason ? reason : "hfr_optical_flow_functions missing");
        return;
    }
    load_error[0] = 0;
    // The handle stays open for the life of the process.
    table = functions();
}

const char *hfr_optical_flow_load_error(void) {
    pthread_once(&once, load);
    return table ? NULL : load_error;
}

static int loaded(void) { return hfr_optical_flow_load_error() == NULL; }

hfr_flow_settings hfr_flow_default_settings(void) {
    if (loaded()) return table->flow_default_settings();
    hfr_flow_settings none = {0};
    return none;
}

hfr_flow *hfr_flow_create(int width, int height, const hfr_flow_settings *settings) {
    return loaded() ? table->flow_create(width, height, settings) : NULL;
}

// A flow exists only if the library loaded.
void hfr_flow_destroy(hfr_flow *flow) {
    if (flow) table->flow_destroy(flow);
}

int hfr_flow_set_pair(hfr_flow *flow, const hfr_picture *earlier, const hfr_picture *later) {
    return table->flow_set_pair(flow, earlier, later);
}

int hfr_flow_synthesize(hfr_flow *flow, double fraction, hfr_picture *out) {
    return table->flow_synthesize(flow, fraction, out);
}

const char *hfr_flow_error(const hfr_flow *flow) { return table->flow_error(flow); }

int hfr_blend(const hfr_picture *earlier, const hfr_picture *later, int width, int height, double fraction,
              hfr_picture *out) {
    return loaded() ? table->blend(earlier, later, width, height, fraction, out) : -1;
}
