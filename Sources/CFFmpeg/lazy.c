// libavfilter and libavdevice, loaded on first use.
//
// Debian builds both against dozens of heavy libraries (codecs, X11, SDL, GL, PulseAudio, …), and
// loading them cost every hfr invocation about 60 ms, though only export's time-domain audio uses
// libavfilter and only device and lavfi inputs use libavdevice. So hfr does not link them: the first
// call through a wrapper below dlopens the library once and resolves the functions hfr calls.
#include "CFFmpeg.h"

#include "lazy.h"

#include <libgen.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include <libavdevice/version.h>
#include <libavfilter/version.h>
#include <libavutil/macros.h>

// The sonames follow the headers' major versions, so the library loaded is the one compiled against.
#define AVFILTER_SONAME "libavfilter.so." AV_STRINGIFY(LIBAVFILTER_VERSION_MAJOR)
#define AVDEVICE_SONAME "libavdevice.so." AV_STRINGIFY(LIBAVDEVICE_VERSION_MAJOR)

// MARK: libavfilter

static struct library avfilter = {.once = PTHREAD_ONCE_INIT};
// Each pointer's type is the header's declaration (`__typeof__`), so a signature cannot drift.
static struct {
    __typeof__(&avfilter_get_by_name) avfilter_get_by_name;
    __typeof__(&avfilter_graph_alloc) avfilter_graph_alloc;
    __typeof__(&avfilter_graph_free) avfilter_graph_free;
    __typeof__(&avfilter_graph_create_filter) avfilter_graph_create_filter;
    __typeof__(&avfilter_graph_parse_ptr) avfilter_graph_parse_ptr;
    __typeof__(&avfilter_graph_config) avfilter_graph_config;
    __typeof__(&avfilter_inout_alloc) avfilter_inout_alloc;
    __typeof__(&avfilter_inout_free) avfilter_inout_free;
    __typeof__(&av_buffersrc_add_frame_flags) av_buffersrc_add_frame_flags;
    __typeof__(&av_buffersink_get_frame) av_buffersink_get_frame;
    __typeof__(&av_buffersink_get_time_base) av_buffersink_get_time_base;
} avfilter_api;

static void load_avfilter(void) {
    void *handle = open_library(&avfilter, AVFILTER_SONAME);
    if (!handle) return;
    RESOLVE(avfilter, handle, avfilter_api, avfilter_get_by_name);
    RESOLVE(avfilter, handle, avfilter_api, avfilter_graph_alloc);
    RESOLVE(avfilter, handle, avfilter_api, avfilter_graph_free);
    RESOLVE(avfilter, handle, avfilter_api, avfilter_graph_create_filter);
    RESOLVE(avfilter, handle, avfilter_api, avfilter_graph_parse_ptr);
    RESOLVE(avfilter, handle, avfilter_api, avfilter_graph_config);
    RESOLVE(avfilter, handle, avfilter_api, avfilter_inout_alloc);
    RESOLVE(avfilter, handle, avfilter_api, avfilter_inout_free);
    RESOLVE(avfilter, handle, avfilter_api, av_buffersrc_add_frame_flags);
    RESOLVE(avfilter, handle, avfilter_api, av_buffersink_get_frame);
    RESOLVE(avfilter, handle, avfilter_api, av_buffersink_get_time_base);
    // The handle stays open for the life of the process: graphs may outlive any caller.
}

int hfr_avfilter_load(void) {
    pthread_once(&avfilter.once, load_avfilter);
    return avfilter.status;
}

const char *hfr_avfilter_load_error(void) { return hfr_avfilter_load() < 0 ? avfilter.error : NULL; }

// Each wrapper loads on demand and, when the library is missing, fails as the function itself
// would (NULL, or the load's AVERROR); nothing can have been allocated, so the frees do nothing.

const AVFilter *hfr_avfilter_get_by_name(const char *name) {
    return hfr_avfilter_load() < 0 ? NULL : avfilter_api.avfilter_get_by_name(name);
}

AVFilterGraph *hfr_avfilter_graph_alloc(void) {
    return hfr_avfilter_load() < 0 ? NULL : avfilter_api.avfilter_graph_alloc();
}

void hfr_avfilter_graph_free(AVFilterGraph **graph) {
    if (hfr_avfilter_load() == 0) avfilter_api.avfilter_graph_free(graph);
}

int hfr_avfilter_graph_create_filter(
    AVFilterContext **filt_ctx, const AVFilter *filt, const char *name, const char *args, void *opaque,
    AVFilterGraph *graph_ctx) {
    int loaded = hfr_avfilter_load();
    if (loaded < 0) return loaded;
    return avfilter_api.avfilter_graph_create_filter(filt_ctx, filt, name, args, opaque, graph_ctx);
}

int hfr_avfilter_graph_parse_ptr(
    AVFilterGraph *graph, const char *filters, AVFilterInOut **inputs, AVFilterInOut **outputs,
    void *log_ctx) {
    int loaded = hfr_avfilter_load();
    if (loaded < 0) return loaded;
    return avfilter_api.avfilter_graph_parse_ptr(graph, filters, inputs, outputs, log_ctx);
}

int hfr_avfilter_graph_config(AVFilterGraph *graphctx, void *log_ctx) {
    int loaded = hfr_avfilter_load();
    return loaded < 0 ? loaded : avfilter_api.avfilter_graph_config(graphctx, log_ctx);
}

AVFilterInOut *hfr_avfilter_inout_alloc(void) {
    return hfr_avfilter_load() < 0 ? NULL : avfilter_api.avfilter_inout_alloc();
}

void hfr_avfilter_inout_free(AVFilterInOut **inout) {
    if (hfr_avfilter_load() == 0) avfilter_api.avfilter_inout_free(inout);
}

int hfr_av_buffersrc_add_frame_flags(AVFilterContext *buffer_src, AVFrame *frame, int flags) {
    int loaded = hfr_avfilter_load();
    return loaded < 0 ? loaded : avfilter_api.av_buffersrc_add_frame_flags(buffer_src, frame, flags);
}

int hfr_av_buffersink_get_frame(AVFilterContext *ctx, AVFrame *frame) {
    int loaded = hfr_avfilter_load();
    return loaded < 0 ? loaded : avfilter_api.av_buffersink_get_frame(ctx, frame);
}

AVRational hfr_av_buffersink_get_time_base(const AVFilterContext *ctx) {
    return hfr_avfilter_load() < 0 ? (AVRational){0, 1} : avfilter_api.av_buffersink_get_time_base(ctx);
}

// MARK: libavdevice

static struct library avdevice = {.once = PTHREAD_ONCE_INIT};
static struct {
    __typeof__(&avdevice_register_all) avdevice_register_all;
} avdevice_api;

static void load_avdevice(void) {
    // libavdevice links libavfilter itself (its lavfi input), so this loads both.
    void *handle = open_library(&avdevice, AVDEVICE_SONAME);
    if (!handle) return;
    RESOLVE(avdevice, handle, avdevice_api, avdevice_register_all);
}

int hfr_avdevice_load(void) {
    pthread_once(&avdevice.once, load_avdevice);
    return avdevice.status;
}

const char *hfr_avdevice_load_error(void) { return hfr_avdevice_load() < 0 ? avdevice.error : NULL; }

void hfr_avdevice_register_all(void) {
    if (hfr_avdevice_load() == 0) avdevice_api.avdevice_register_all();
}

// MARK: hfr's own libraries

/// Opens `directory`/`relative``file`; NULL with dlerror's reason appended to `error`.
static void *open_in(const char *directory, const char *relative, const char *file, char *error, size_t size) {
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s/%s%s", directory, relative, file) >= (int)sizeof path) return NULL;
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        size_t used = strlen(error);
        snprintf(error + used, size - used, "%s%s", used ? "; " : "", dlerror());
    }
    return handle;
}

/// dlopens `file` from beside the executable, else from ../lib/hfr; NULL with the reasons in `error`.
static void *open_private_library(const char *file, char *error, size_t size) {
    if (size == 0) return NULL;
    error[0] = 0;
    char executable[PATH_MAX];
    ssize_t length = readlink("/proc/self/exe", executable, sizeof executable - 1);
    if (length <= 0) {
        snprintf(error, size, "cannot find hfr's executable to look beside it for %s", file);
        return NULL;
    }
    executable[length] = 0;
    const char *directory = dirname(executable);
    void *handle = open_in(directory, "", file, error, size);
    if (!handle) handle = open_in(directory, "../lib/hfr/", file, error, size);
    if (handle) error[0] = 0;
    return handle;
}

void *hfr_private_library_symbol(const char *file, const char *symbol, char *error, size_t size) {
    void *handle = open_private_library(file, error, size);
    if (!handle) return NULL;
    dlerror();
    void *found = dlsym(handle, symbol);
    if (!found) {
        const char *reason = dlerror();
        snprintf(error, size, "%s", reason ? reason : symbol);
    }
    return found;
}
