// Loads libhfr-opticalflow.so (COpticalFlowLibrary: the interpolator on OpenCV) on first use and
// forwards the header's functions to it. hfr does not link OpenCV: the libraries it loads cost
// every command 13 ms at start, though only `export --interpolate` uses them. Where the library is
// looked for: `hfr_private_library_symbol` (CFFmpeg).
#include "optical_flow.h"

#include "CFFmpeg.h"

#include <pthread.h>
#include <stdio.h>

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const hfr_optical_flow_table *table;
static char load_error[1024];

static void load(void) {
    // The library's one exported function hands over the table of the others.
    void *symbol = hfr_private_library_symbol(HFR_OPTICAL_FLOW_LIBRARY, "hfr_optical_flow_functions", load_error,
                                              sizeof load_error);
    const hfr_optical_flow_table *(*functions)(void) = (const hfr_optical_flow_table *(*)(void))symbol;
    if (functions) table = functions();
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
