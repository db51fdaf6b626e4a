// The FFmpeg 5.1 C API for Swift.
//
// Swift imports FFmpeg's functions and structs directly; what it cannot import are function-like
// and expression macros (AVERROR, FFERRTAG, AV_NOPTS_VALUE) and C variadics (the av_log callback).
// This header re-exports exactly those, as static constants and inline functions.
#ifndef HFR_CFFMPEG_H
#define HFR_CFFMPEG_H

#include <errno.h>
#include <libavcodec/avcodec.h>
#include <libavcodec/bsf.h>
#include <libavdevice/avdevice.h>
#include <libavfilter/avfilter.h>
#include <libavfilter/buffersink.h>
#include <libavfilter/buffersrc.h>
#include <libavformat/avformat.h>
#include <libavutil/audio_fifo.h>
#include <libavutil/avutil.h>
#include <libavutil/channel_layout.h>
#include <libavutil/dict.h>
#include <libavutil/display.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/mathematics.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libavutil/samplefmt.h>
#include <libavutil/sha.h>
#include <libavutil/time.h>
#include <libavutil/timecode.h>
#include <libswresample/swresample.h>
#include <libswscale/swscale.h>

// AVERROR_EOF is built by the FFERRTAG macro, which Swift does not evaluate.
static const int HFR_AVERROR_EOF = AVERROR_EOF;
// AVERROR(EAGAIN): "try again after feeding/draining", a loop state rather than an error.
static const int HFR_AVERROR_EAGAIN = AVERROR(EAGAIN);
static const int HFR_AVERROR_INVALIDDATA = AVERROR_INVALIDDATA;
static const int HFR_AVERROR_DECODER_NOT_FOUND = AVERROR_DECODER_NOT_FOUND;
static const int HFR_AVERROR_DEMUXER_NOT_FOUND = AVERROR_DEMUXER_NOT_FOUND;
static const int HFR_AVERROR_ENCODER_NOT_FOUND = AVERROR_ENCODER_NOT_FOUND;
// AV_NOPTS_VALUE is a cast expression; Swift maps it to nil at the boundary.
static const int64_t HFR_AV_NOPTS_VALUE = AV_NOPTS_VALUE;

/// Asks the CPU to start loading the cache line at `address` (a hint; never faults).
static inline void hfr_prefetch(const void *address) { __builtin_prefetch(address); }

/// AVERROR(e): FFmpeg's negative error code for a POSIX errno.
static inline int hfr_averror(int e) { return AVERROR(e); }

/// The errno behind an FFmpeg error code, or 0 when it is not a POSIX error.
static inline int hfr_errno_of(int averror) {
    return (averror < 0 && averror > -4096) ? -averror : 0;
}

/// Receives each complete libav log line (already formatted, trailing newline kept).
typedef void (*hfr_log_sink)(int level, const char *line);

/// Routes av_log through `sink` for messages at or below `max_level`.
/// Needed in C because av_log's callback takes a va_list, which Swift cannot format.
void hfr_log_install(hfr_log_sink sink, int max_level);

/// copy_file_range(2): glibc declares it only under _GNU_SOURCE, which Swift's Glibc module is not
/// built with. A zero-copy stream copy moves sample payloads file to file with it.
#include <sys/types.h>
extern ssize_t copy_file_range(int fd_in, long long *off_in, int fd_out, long long *off_out, size_t len,
                               unsigned int flags);

// MARK: libavfilter and libavdevice, loaded on first use (lazy.c)
//
// hfr does not link these two: Debian's builds pull in dozens of libraries that cost every
// invocation ~60 ms to load. Their headers stay included for the types, but Swift must call the
// functions through the hfr_ wrappers below; a direct avfilter_ or avdevice_ call fails to link.
// Each wrapper loads its library on first use and, when it cannot, returns what the function
// returns on failure (NULL, or the load's AVERROR).

/// Loads libavfilter once: 0, AVERROR(ELIBACC) when it cannot be loaded, AVERROR(ENOSYS) when it
/// lacks a function hfr calls.
int hfr_avfilter_load(void);
/// The dynamic loader's reason libavfilter did not load, or NULL when it did.
const char *hfr_avfilter_load_error(void);

const AVFilter *hfr_avfilter_get_by_name(const char *name);
AVFilterGraph *hfr_avfilter_graph_alloc(void);
void hfr_avfilter_graph_free(AVFilterGraph **graph);
int hfr_avfilter_graph_create_filter(
    AVFilterContext **filt_ctx, const AVFilter *filt, const char *name, const char *args, void *opaque,
    AVFilterGraph *graph_ctx);
int hfr_avfilter_graph_parse_ptr(
    AVFilterGraph *graph, const char *filters, AVFilterInOut **inputs, AVFilterInOut **outputs,
    void *log_ctx);
int hfr_avfilter_graph_config(AVFilterGraph *graphctx, void *log_ctx);
AVFilterInOut *hfr_avfilter_inout_alloc(void);
void hfr_avfilter_inout_free(AVFilterInOut **inout);
int hfr_av_buffersrc_add_frame_flags(AVFilterContext *buffer_src, AVFrame *frame, int flags);
int hfr_av_buffersink_get_frame(AVFilterContext *ctx, AVFrame *frame);
AVRational hfr_av_buffersink_get_time_base(const AVFilterContext *ctx);

/// Loads libavdevice (and with it libavfilter) once: 0, AVERROR(ELIBACC) or AVERROR(ENOSYS).
int hfr_avdevice_load(void);
/// The dynamic loader's reason libavdevice did not load, or NULL when it did.
const char *hfr_avdevice_load_error(void);

void hfr_avdevice_register_all(void);

/// `symbol` of `file`, one of hfr's own libraries (libhfr-opticalflow.so, libhfr-soundtouch.so: the
/// C++ parts hfr loads only when it uses them), opened from beside hfr's executable (a build
/// directory, the test bundle's too) or else from ../lib/hfr (an installation), RTLD_LOCAL (their
/// symbols stay out of hfr's scope), and kept open for the life of the process. NULL with the
/// reasons in `error` (every place looked in) when it cannot be.
void *hfr_private_library_symbol(const char *file, const char *symbol, char *error, size_t size);

#endif
