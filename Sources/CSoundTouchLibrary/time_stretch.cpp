// SoundTouch (Debian libsoundtouch-dev, float samples) behind time_stretch.h. SoundTouch reports
// misuse by throwing std::runtime_error; every entry point catches, so no exception crosses into
// Swift.
#include "../CSoundTouch/include/time_stretch.h"

#include <soundtouch/SoundTouch.h>

#include <exception>
#include <new>
#include <string>

struct hfr_time_stretch {
    soundtouch::SoundTouch engine;
    std::string error;
    // Frames put and taken, for `hfr_time_stretch_get_position`.
    long long put = 0;
    long long received = 0;
};

namespace {

/// Runs `body`, turning an exception into -1 and the stretcher's error message.
template <typename Body> int guarded(hfr_time_stretch *stretch, Body body) {
    try {
        body();
        return 0;
    } catch (const std::exception &e) {
        stretch->error = e.what();
    } catch (...) {
        stretch->error = "unknown SoundTouch failure";
    }
    return -1;
}

} // namespace

hfr_time_stretch *hfr_time_stretch_create(int sample_rate, int channels, double tempo,
                                          const hfr_time_stretch_settings *settings) {
    if (sample_rate <= 0 || channels < 1 || channels > SOUNDTOUCH_MAX_CHANNELS || !(tempo > 0) || !settings) {
        return nullptr;
    }
    auto *stretch = new (std::nothrow) hfr_time_stretch;
    if (!stretch) return nullptr;
    const int status = guarded(stretch, [&] {
        auto &engine = stretch->engine;
        engine.setSampleRate(unsigned(sample_rate));
        engine.setChannels(unsigned(channels));
        engine.setTempo(tempo);
        // Quick seek trades match quality for speed; the full search is cheap at these window sizes.
        engine.setSetting(SETTING_USE_QUICKSEEK, 0);
        engine.setSetting(SETTING_SEQUENCE_MS, settings->sequence_ms);
        engine.setSetting(SETTING_SEEKWINDOW_MS, settings->seek_window_ms);
        engine.setSetting(SETTING_OVERLAP_MS, settings->overlap_ms);
    });
    if (status != 0) {
        delete stretch;
        return nullptr;
    }
    return stretch;
}

void hfr_time_stretch_destroy(hfr_time_stretch *stretch) { delete stretch; }

int hfr_time_stretch_put(hfr_time_stretch *stretch, const float *samples, int frames) {
    if (frames <= 0) return 0;
    return guarded(stretch, [&] {
        stretch->engine.putSamples(samples, unsigned(frames));
        stretch->put += frames;
    });
}

int hfr_time_stretch_set_tempo(hfr_time_stretch *stretch, double tempo) {
    if (!(tempo > 0)) {
        stretch->error = "tempo must be positive";
        return -1;
    }
    return guarded(stretch, [&] { stretch->engine.setTempo(tempo); });
}

hfr_time_stretch_position hfr_time_stretch_get_position(const hfr_time_stretch *stretch) {
    const auto &engine = stretch->engine;
    return {
        stretch->put - (long long)engine.numUnprocessedSamples(),
        stretch->received + (long long)engine.numSamples(),
        engine.getSetting(SETTING_NOMINAL_OUTPUT_SEQUENCE),
    };
}

int hfr_time_stretch_flush(hfr_time_stretch *stretch) {
    return guarded(stretch, [&] { stretch->engine.flush(); });
}

int hfr_time_stretch_receive(hfr_time_stretch *stretch, float *samples, int max_frames) {
    if (max_frames <= 0) return 0;
    int taken = 0;
    if (guarded(stretch, [&] { taken = int(stretch->engine.receiveSamples(samples, unsigned(max_frames))); }) != 0) {
        return 0;
    }
    stretch->received += taken;
    return taken;
}

const char *hfr_time_stretch_error(const hfr_time_stretch *stretch) { return stretch->error.c_str(); }

const char *hfr_time_stretch_version(void) { return soundtouch::SoundTouch::getVersionString(); }
