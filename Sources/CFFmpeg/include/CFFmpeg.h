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
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/mathematics.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libavutil/samplefmt.h>
#include <libavutil/sha.h>
#include <libavutil/time.h>
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

#endif
