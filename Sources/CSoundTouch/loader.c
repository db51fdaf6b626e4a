// Loads libhfr-soundtouch.so (CSoundTouchLibrary: the time stretch on SoundTouch) on first use and
// forwards the header's functions to it. hfr does not link SoundTouch: it cost every command 3.5 ms
// at start, though only `export --audio time-domain` uses it. Where the library is looked for:
// `hfr_private_library_symbol` (CFFmpeg).
#include "time_stretch.h"

#include "CFFmpeg.h"

#include <pthread.h>
#include <stdio.h>

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const hfr_time_stretch_table *table;
static char load_error[1024];

static void load(void) {
    // The library's one exported function hands over the table of the others.
    void *symbol = hfr_private_library_symbol(HFR_TIME_STRETCH_LIBRARY, "hfr_time_stretch_functions", load_error,
                                              sizeof load_error);
    const hfr_time_stretch_table *(*functions)(void) = (const hfr_time_stretch_table *(*)(void))symbol;
    if (functions) table = functions();
}

const char *hfr_time_stretch_load_error(void) {
    pthread_once(&once, load);
    return table ? NULL : load_error;
}

static int loaded(void) { return hfr_time_stretch_load_error() == NULL; }

hfr_time_stretch *hfr_time_stretch_create(int sample_rate, int channels, double tempo,
                                          const hfr_time_stretch_settings *settings) {
    return loaded() ? table->create(sample_rate, channels, tempo, settings) : NULL;
}

// A stretcher exists only if the library loaded.
void hfr_time_stretch_destroy(hfr_time_stretch *stretch) {
    if (stretch) table->destroy(stretch);
}

int hfr_time_stretch_put(hfr_time_stretch *stretch, const float *samples, int frames) {
    return table->put(stretch, samples, frames);
}

int hfr_time_stretch_flush(hfr_time_stretch *stretch) { return table->flush(stretch); }

int hfr_time_stretch_receive(hfr_time_stretch *stretch, float *samples, int max_frames) {
    return table->receive(stretch, samples, max_frames);
}

int hfr_time_stretch_set_tempo(hfr_time_stretch *stretch, double tempo) { return table->set_tempo(stretch, tempo); }

hfr_time_stretch_position hfr_time_stretch_get_position(const hfr_time_stretch *stretch) {
    return table->get_position(stretch);
}

const char *hfr_time_stretch_error(const hfr_time_stretch *stretch) { return table->error(stretch); }

const char *hfr_time_stretch_version(void) { return loaded() ? table->version() : ""; }
