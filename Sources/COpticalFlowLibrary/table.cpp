// The library's one exported symbol. Everything else is hidden (-fvisibility=hidden), so nothing here
// binds to, or is bound by, the loader's functions of the same names in hfr.
#include "optical_flow_library.h"

const hfr_optical_flow_table *hfr_optical_flow_functions(void) {
    static const hfr_optical_flow_table table = {
        hfr_flow_default_settings, hfr_flow_create, hfr_flow_destroy, hfr_flow_set_pair, hfr_flow_synthesize,
        hfr_flow_error,            hfr_blend,
    };
    return &table;
}
