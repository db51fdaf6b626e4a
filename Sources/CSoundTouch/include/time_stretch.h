// SoundTouch's WSOLA time stretch (tempo changed, pitch kept) behind a plain C interface, so Swift
// never sees a C++ type or exception. Samples are 32-bit float, channels interleaved.
//
// The implementation (CSoundTouchLibrary) is a library of its own, libhfr-soundtouch.so, which
// hfr loads the first time it stretches audio in the time domain (loader.c): linked, SoundTouch cost
// every hfr command 3.5 ms at start.
#ifndef HFR_TIME_STRETCH_H
#define HFR_TIME_STRETCH_H

#ifdef __cplusplus
extern "C" {
#endif

/// SoundTouch's WSOLA windows, in milliseconds: each output sequence is a piece of the input
/// `sequence_ms` long, placed where it best matches within `seek_window_ms`, cross-faded over
/// `overlap_ms` with the previous one.
typedef struct hfr_time_stretch_settings {
    int sequence_ms;
    int seek_window_ms;
    int overlap_ms;
} hfr_time_stretch_settings;

typedef struct hfr_time_stretch hfr_time_stretch;

/// A stretcher playing its input at `tempo` (0.25: four times longer); NULL when SoundTouch refuses
/// the rate, channel count (1–16) or settings.
hfr_time_stretch *hfr_time_stretch_create(int sample_rate, int channels, double tempo,
                                          const hfr_time_stretch_settings *settings);
void hfr_time_stretch_destroy(hfr_time_stretch *stretch);

/// Adds `frames` interleaved frames. 0, or -1 with `hfr_time_stretch_error` set.
int hfr_time_stretch_put(hfr_time_stretch *stretch, const float *samples, int frames);

/// Ends the input: what is still inside comes out, SoundTouch padding it with silence.
/// 0, or -1 with `hfr_time_stretch_error` set.
int hfr_time_stretch_flush(hfr_time_stretch *stretch);

/// Changes the tempo from the next WSOLA sequence on: the sequences already made stay, so the
/// windows go on across the change (an eased change of speed, one stretcher throughout).
/// 0, or -1 with `hfr_time_stretch_error` set.
int hfr_time_stretch_set_tempo(hfr_time_stretch *stretch, double tempo);

/// Where a stretcher is, in frames: the input its sequences have moved past (frames put less those
/// still waiting for a sequence), the output they have made (taken or ready), and the output one
/// sequence adds. Meaningful until `hfr_time_stretch_flush`, which feeds silence of its own.
typedef struct hfr_time_stretch_position {
    long long consumed;
    long long produced;
    int sequence;
} hfr_time_stretch_position;

hfr_time_stretch_position hfr_time_stretch_get_position(const hfr_time_stretch *stretch);

/// Takes up to `max_frames` ready frames into `samples`; the number taken (0 when none is ready).
int hfr_time_stretch_receive(hfr_time_stretch *stretch, float *samples, int max_frames);

/// The last failure's message (valid until the next call on `stretch`).
const char *hfr_time_stretch_error(const hfr_time_stretch *stretch);

/// SoundTouch's version, e.g. "2.3.2".
const char *hfr_time_stretch_version(void);

/// NULL once libhfr-soundtouch.so is loaded (it is, on the first call of this or any function
/// above); else why it could not be, and the functions above fail (NULL, -1, "").
const char *hfr_time_stretch_load_error(void);

/// The library's file name; hfr looks for it beside its own executable, then in ../lib/hfr.
#define HFR_TIME_STRETCH_LIBRARY "libhfr-soundtouch.so"

/// The functions above as the library hands them to the loader (its one exported symbol,
/// `hfr_time_stretch_functions`).
typedef struct hfr_time_stretch_table {
    __typeof__(&hfr_time_stretch_create) create;
    __typeof__(&hfr_time_stretch_destroy) destroy;
    __typeof__(&hfr_time_stretch_put) put;
    __typeof__(&hfr_time_stretch_flush) flush;
    __typeof__(&hfr_time_stretch_receive) receive;
    __typeof__(&hfr_time_stretch_error) error;
    __typeof__(&hfr_time_stretch_version) version;
    __typeof__(&hfr_time_stretch_set_tempo) set_tempo;
    __typeof__(&hfr_time_stretch_get_position) get_position;
} hfr_time_stretch_table;

#ifdef __cplusplus
}
#endif

#endif
