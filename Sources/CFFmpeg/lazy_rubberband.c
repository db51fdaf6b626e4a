// Rubber Band (librubberband), loaded on first use.
//
// Linked, it cost every hfr command 2.5 ms at start, though only export's spectral audio uses it.
// The functions hfr calls are defined here under their own names (so Swift calls them through
// CRubberBand as declared in rubberband-c.h) and forward to the library once it is loaded. Unloaded,
// each fails as harmlessly as it can: rubberband_new gives NULL (callers check
// hfr_rubberband_load_error first), the others do nothing on a NULL state.
#include "lazy.h"

#include <rubberband/rubberband-c.h>

#define RUBBERBAND_SONAME "librubberband.so." AV_STRINGIFY(RUBBERBAND_API_MAJOR_VERSION)

static struct library rubberband = {.once = PTHREAD_ONCE_INIT};
static struct {
    __typeof__(&rubberband_new) rubberband_new;
    __typeof__(&rubberband_delete) rubberband_delete;
    __typeof__(&rubberband_get_time_ratio) rubberband_get_time_ratio;
    __typeof__(&rubberband_set_expected_input_duration) rubberband_set_expected_input_duration;
    __typeof__(&rubberband_set_max_process_size) rubberband_set_max_process_size;
    __typeof__(&rubberband_set_key_frame_map) rubberband_set_key_frame_map;
    __typeof__(&rubberband_study) rubberband_study;
    __typeof__(&rubberband_process) rubberband_process;
    __typeof__(&rubberband_available) rubberband_available;
    __typeof__(&rubberband_retrieve) rubberband_retrieve;
    __typeof__(&rubberband_set_debug_level) rubberband_set_debug_level;
    __typeof__(&rubberband_set_default_debug_level) rubberband_set_default_debug_level;
} api;

static void load(void) {
    void *handle = open_library(&rubberband, RUBBERBAND_SONAME);
    if (!handle) return;
    RESOLVE(rubberband, handle, api, rubberband_new);
    RESOLVE(rubberband, handle, api, rubberband_delete);
    RESOLVE(rubberband, handle, api, rubberband_get_time_ratio);
    RESOLVE(rubberband, handle, api, rubberband_set_expected_input_duration);
    RESOLVE(rubberband, handle, api, rubberband_set_max_process_size);
    RESOLVE(rubberband, handle, api, rubberband_set_key_frame_map);
    RESOLVE(rubberband, handle, api, rubberband_study);
    RESOLVE(rubberband, handle, api, rubberband_process);
    RESOLVE(rubberband, handle, api, rubberband_available);
    RESOLVE(rubberband, handle, api, rubberband_retrieve);
    RESOLVE(rubberband, handle, api, rubberband_set_debug_level);
    RESOLVE(rubberband, handle, api, rubberband_set_default_debug_level);
}

const char *hfr_rubberband_load_error(void) {
    pthread_once(&rubberband.once, load);
    return rubberband.status < 0 ? rubberband.error : NULL;
}

static int loaded(void) { return hfr_rubberband_load_error() == NULL; }

RubberBandState rubberband_new(unsigned int sampleRate, unsigned int channels, RubberBandOptions options,
                               double initialTimeRatio, double initialPitchScale) {
    return loaded() ? api.rubberband_new(sampleRate, channels, options, initialTimeRatio, initialPitchScale) : NULL;
}

// A state exists only if the library loaded: the calls that take one need no check.

void rubberband_delete(RubberBandState state) {
    if (state) api.rubberband_delete(state);
}

double rubberband_get_time_ratio(const RubberBandState state) { return api.rubberband_get_time_ratio(state); }

void rubberband_set_expected_input_duration(RubberBandState state, unsigned int samples) {
    api.rubberband_set_expected_input_duration(state, samples);
}

void rubberband_set_max_process_size(RubberBandState state, unsigned int samples) {
    api.rubberband_set_max_process_size(state, samples);
}

void rubberband_set_key_frame_map(RubberBandState state, unsigned int count, unsigned int *from, unsigned int *to) {
    api.rubberband_set_key_frame_map(state, count, from, to);
}

void rubberband_study(RubberBandState state, const float *const *input, unsigned int samples, int final) {
    api.rubberband_study(state, input, samples, final);
}

void rubberband_process(RubberBandState state, const float *const *input, unsigned int samples, int final) {
    api.rubberband_process(state, input, samples, final);
}

int rubberband_available(const RubberBandState state) { return api.rubberband_available(state); }

unsigned int rubberband_retrieve(const RubberBandState state, float *const *output, unsigned int samples) {
    return api.rubberband_retrieve(state, output, samples);
}

void rubberband_set_debug_level(RubberBandState state, int level) { api.rubberband_set_debug_level(state, level); }

void rubberband_set_default_debug_level(int level) {
    if (loaded()) api.rubberband_set_default_debug_level(level);
}
