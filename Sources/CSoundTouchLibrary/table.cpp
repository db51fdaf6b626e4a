// The library's one exported symbol. Everything else is hidden (-fvisibility=hidden), so nothing here
// binds to, or is bound by, the loader's functions of the same names in hfr.
#include "time_stretch_library.h"

const hfr_time_stretch_table *hfr_time_stretch_functions(void) {
    static const hfr_time_stretch_table table = {
        hfr_time_stretch_create,  hfr_time_stretch_destroy, hfr_time_stretch_put,     hfr_time_stretch_flush,
        hfr_time_stretch_receive, hfr_time_stretch_error,   hfr_time_stretch_version, hfr_time_stretch_set_tempo,
        hfr_time_stretch_get_position,
    };
    return &table;
}
