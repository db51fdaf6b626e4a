// av_log routing: formats libav's variadic messages into lines Swift can take.
#include "CFFmpeg.h"

#include <stdatomic.h>

static _Atomic(hfr_log_sink) installed_sink;
static atomic_int installed_level = AV_LOG_QUIET;

static void hfr_log_callback(void *avcl, int level, const char *fmt, va_list vl) {
    if (level > atomic_load(&installed_level)) return;
    hfr_log_sink sink = atomic_load(&installed_sink);
    if (!sink) return;
    char line[1024];
    // print_prefix keeps FFmpeg's own "[h264 @ 0x…]" prefix logic across partial lines.
    static _Thread_local int print_prefix = 1;
    av_log_format_line2(avcl, level, fmt, vl, line, sizeof line, &print_prefix);
    sink(level, line);
}

void hfr_log_install(hfr_log_sink sink, int max_level) {
    atomic_store(&installed_sink, sink);
    atomic_store(&installed_level, max_level);
    av_log_set_level(max_level);
    av_log_set_callback(hfr_log_callback);
}
