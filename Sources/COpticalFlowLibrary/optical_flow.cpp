// Motion-compensated interpolation between two 4:2:0 pictures.
//
// Per pair: DIS optical flow (OpenCV) on the luma, optionally shrunk, both ways (earlier→later and
// later→earlier, on two threads), and a forward-backward consistency map for each direction: where
// following a vector and then the opposite flow does not lead back, the flow cannot explain the
// picture (occlusions, things appearing) and that side's warp is trusted less.
// Per in-between time t: each picture is warped to t along its own flow (backward warping:
// x − t·F01(x) in the earlier, x − (1−t)·F10(x) in the later) and the two are blended with weights
// (1−t)·c0 and t·c1, the consistencies read at the points each warp samples (zero outside the
// picture, and lowered where the sampled content moves differently from the vector that fetched it), so
// what one side cannot explain is taken from the other, and what neither explains fades between them
// instead of tearing. The weights are worked out on half the chroma grid and scaled up to it; the
// chroma is warped with the flow at its own resolution, the luma with the chroma grid's flows and
// weights upsampled row by row as it goes (no full-size flow, map or warped picture is ever stored).
// The sampling, warping and mixing are fused loops (warp_rows.cpp: AVX2 where the processor has it).
// Both cores: the two estimates run on two threads, the rest splits rows over OpenCV's threads. All
// buffers belong to the interpolator and are reused from pair to pair.
#include "../COpticalFlow/include/optical_flow.h"
#include "warp_rows.h"

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/video/tracking.hpp>

#include <algorithm>
#include <cmath>
#include <exception>
#include <future>
#include <string>
#include <vector>

namespace {

struct Plane {
    cv::Mat mat;
    static Plane wrap(const uint8_t *data, int linesize, int width, int height) {
        return Plane{cv::Mat(height, width, CV_8UC1, const_cast<uint8_t *>(data), static_cast<size_t>(linesize))};
    }
};

/// `flow` (in flow-grid pixels) resized to width×height and scaled to that grid's pixels; the same
/// matrix when the sizes agree.
void resizeFlow(const cv::Mat &flow, int width, int height, cv::Mat &out) {
    if (flow.cols == width && flow.rows == height) {
        out = flow;
        return;
    }
    cv::resize(flow, out, cv::Size(width, height), 0, 0, cv::INTER_LINEAR);
    const float sx = float(width) / float(flow.cols), sy = float(height) / float(flow.rows);
    for (int y = 0; y < out.rows; y++) {
        auto *row = out.ptr<float>(y);
        for (int x = 0; x < out.cols; x++) {
            row[2 * x] *= sx;
            row[2 * x + 1] *= sy;
        }
    }
}

hfr::FloatView floatView(const cv::Mat &m) {
    return hfr::FloatView{m.ptr<float>(), m.step / sizeof(float), m.cols, m.rows};
}

/// c(p) = 1 / (1 + |F(p) + G(p + F(p))|² / σ²): 1 where following F then G leads back to p. F and G
/// as their components (x, y).
void consistency(const cv::Mat *f, const cv::Mat *g, float sigma, bool simd, cv::Mat &out) {
    out.create(f[0].rows, f[0].cols, CV_32FC1);
    const hfr::FloatView gx = floatView(g[0]), gy = floatView(g[1]);
    cv::parallel_for_(cv::Range(0, out.rows), [&](const cv::Range &rows) {
        for (int y = rows.start; y < rows.end; y++) {
            hfr::consistencyRow(f[0].ptr<float>(y), f[1].ptr<float>(y), gx, gy, y, out.cols, 1.0f / (sigma * sigma),
                                out.ptr<float>(y), simd);
        }
    });
}

/// For upsampling by 2 with pixel centres aligned (as `cv::resize` does): for each index of the
/// larger grid, the lower neighbour on the smaller grid (of `size` entries) and the upper one's weight.
void halfGridTaps(int large, int size, std::vector<int> &index, std::vector<float> &weight) {
    index.resize(size_t(large));
    weight.resize(size_t(large));
    for (int i = 0; i < large; i++) {
        const float s = std::min(std::max(0.5f * float(i) - 0.25f, 0.0f), float(size - 1));
        index[size_t(i)] = std::min(int(s), size - 2);
        weight[size_t(i)] = s - float(index[size_t(i)]);
    }
}

/// One resolution's flows (both ways, in its pixels) and consistencies (on the coarse grid with a
/// border of zeros, one pixel wide).
struct Level {
    int width = 0, height = 0;
    cv::Mat forward, backward, c0, c1;
    void reset(int w, int h) {
        width = w;
        height = h;
    }
};

}  // namespace

struct hfr_flow {
    int width, height, chromaWidth, chromaHeight;
    hfr_flow_settings settings;
    cv::Ptr<cv::DISOpticalFlow> disForward, disBackward;
    // The flow's own grid, the chroma grid, and half the chroma grid where the weights are worked out
    // (they vary slowly; the warps are what needs the detail).
    Level flowLevel, chroma, coarse;
    cv::Mat luma0, luma1, small0, small1;
    cv::Mat chroma0[2], chroma1[2];
    /// The later picture's weight (0…1) on the coarse and the chroma grids.
    cv::Mat coarseWeight, weight, scratch;
    /// The flows one component per matrix (F01x, F01y, F10x, F10y) on the flow's, the chroma and the
    /// coarse grid.
    cv::Mat levelComponents[4], components[4], coarseComponents[4];
    /// Luma rows on the chroma grid (`halfGridTaps`).
    std::vector<int> rows;
    std::vector<float> rowWeights;
    bool hasPair = false;
    std::string error;
};

namespace {

cv::Ptr<cv::DISOpticalFlow> makeDIS(const hfr_flow_settings &s) {
    auto dis = cv::DISOpticalFlow::create(s.preset);
    return dis;
}

void estimate(hfr_flow *f) {
    const cv::Mat &in0 = f->settings.downscale > 1 ? f->small0 : f->luma0;
    const cv::Mat &in1 = f->settings.downscale > 1 ? f->small1 : f->luma1;
    if (f->settings.downscale > 1) {
        cv::Size size(f->flowLevel.width, f->flowLevel.height);
        cv::resize(f->luma0, f->small0, size, 0, 0, cv::INTER_AREA);
        cv::resize(f->luma1, f->small1, size, 0, 0, cv::INTER_AREA);
    }
    Level &l = f->flowLevel;
    // DIS starts from the flow it is given when that has the right size: start every pair from zero.
    l.forward.create(l.height, l.width, CV_32FC2);
    l.backward.create(l.height, l.width, CV_32FC2);
    l.forward.setTo(cv::Scalar::all(0));
    l.backward.setTo(cv::Scalar::all(0));
    if (f->settings.threads > 1) {
        auto other = std::async(std::launch::async, [&] { f->disBackward->calc(in1, in0, l.backward); });
        f->disForward->calc(in0, in1, l.forward);
        other.get();
    } else {
        f->disForward->calc(in0, in1, l.forward);
        f->disBackward->calc(in1, in0, l.backward);
    }
}

void prepare(hfr_flow *f) {
    Level &l = f->flowLevel;
    const float sigma = f->settings.consistency;
    cv::Mat *v = f->levelComponents;
    cv::split(l.forward, v);
    cv::split(l.backward, v + 2);
    consistency(v, v + 2, sigma, f->settings.simd, l.c0);
    consistency(v + 2, v, sigma, f->settings.simd, l.c1);
    Level &c = f->chroma, &k = f->coarse;
    resizeFlow(l.forward, c.width, c.height, c.forward);
    resizeFlow(l.backward, c.width, c.height, c.backward);
    if (c.width == l.width && c.height == l.height) {
        std::copy(v, v + 4, f->components);
    } else {
        cv::split(c.forward, f->components);
        cv::split(c.backward, f->components + 2);
    }
    resizeFlow(l.forward, k.width, k.height, k.forward);
    resizeFlow(l.backward, k.width, k.height, k.backward);
    cv::split(k.forward, f->coarseComponents);
    cv::split(k.backward, f->coarseComponents + 2);
    // The coarse consistencies with a border of zeros: outside the picture, a warp has nothing to offer.
    for (int side = 0; side < 2; side++) {
        cv::resize(side ? l.c1 : l.c0, f->scratch, cv::Size(k.width, k.height), 0, 0, cv::INTER_AREA);
        cv::copyMakeBorder(f->scratch, side ? k.c1 : k.c0, 1, 1, 1, 1, cv::BORDER_CONSTANT, cv::Scalar(0));
    }
}

/// The later picture's weight at time t, 0…1, on the coarse grid and then the chroma grid. Each
/// side's weight is its time weight times two checks at the point it samples: the forward-backward
/// consistency there (zero outside the picture: a warp that samples beyond the edge has nothing to
/// offer), and whether the content there really travels to this pixel (its own vector against the one
/// the sample was taken with: where they differ, the sample belongs to something else, as next to a
/// moving edge).
void weights(hfr_flow *f, double t) {
    const Level &c = f->coarse;
    f->coarseWeight.create(c.height, c.width, CV_32FC1);
    const cv::Mat *v = f->coarseComponents;
    const bool simd = f->settings.simd;
    const float sigma = f->settings.consistency;
    // Vectors on this grid are half the chroma's: the check is in chroma pixels.
    const hfr::WeightInputs in{floatView(v[0]), floatView(v[1]), floatView(v[2]), floatView(v[3]), floatView(c.c0),
                               floatView(c.c1), float(1.0 - t), float(t), 1.0f / (sigma * sigma), 2.0f, 1e-3f};
    cv::parallel_for_(cv::Range(0, c.height), [&](const cv::Range &range) {
        for (int y = range.start; y < range.end; y++) {
            hfr::weightRow(in, y, c.width, f->coarseWeight.ptr<float>(y), simd);
        }
    });
    cv::resize(f->coarseWeight, f->weight, cv::Size(f->chroma.width, f->chroma.height), 0, 0, cv::INTER_LINEAR);
}

hfr::PlaneView view(const cv::Mat &m) { return hfr::PlaneView{m.data, m.step, m.cols, m.rows}; }

/// The chroma planes at time t: each picture sampled along its own flow (x − t·F01(x) in the
/// earlier, x − (1−t)·F10(x) in the later), the two mixed by the weight.
void synthesizeChroma(hfr_flow *f, float t, hfr_picture *out) {
    const Level &c = f->chroma;
    cv::parallel_for_(cv::Range(0, c.height), [&](const cv::Range &range) {
        for (int y = range.start; y < range.end; y++) {
            const cv::Mat *v = f->components;
            const hfr::RowWarp row{v[0].ptr<float>(y), v[1].ptr<float>(y), v[2].ptr<float>(y), v[3].ptr<float>(y),
                                   f->weight.ptr<float>(y), t, 1.0f - t};
            for (int p = 0; p < 2; p++) {
                uint8_t *o = out->data[p + 1] + size_t(y) * size_t(out->linesize[p + 1]);
                hfr::warpRow(view(f->chroma0[p]), view(f->chroma1[p]), row, y, c.width, o, f->settings.simd);
            }
        }
    });
}

/// The luma plane at time t, as the chroma but on the full grid: the flows (doubled) and the weight
/// are the chroma grid's, upsampled bilinearly one row at a time.
void synthesizeLuma(hfr_flow *f, float t, hfr_picture *out) {
    const Level &c = f->chroma;
    const int width = f->width, cw = c.width;
    cv::parallel_for_(cv::Range(0, f->height), [&](const cv::Range &range) {
        // The chroma rows around this luma row mixed, padded for `warpRowHalf`: F01x, F01y, F10x, F10y, weight.
        const size_t padded = size_t(cw) + 10;
        std::vector<float> line(padded * 5);
        const cv::Mat *sources[5] = {&f->components[0], &f->components[1], &f->components[2], &f->components[3],
                                     &f->weight};
        for (int y = range.start; y < range.end; y++) {
            const int r = f->rows[size_t(y)];
            const float fy = f->rowWeights[size_t(y)];
            float *l[5];
            for (int i = 0; i < 5; i++) {
                l[i] = line.data() + size_t(i) * padded;
                const float *above = sources[i]->ptr<float>(r), *below = sources[i]->ptr<float>(r + 1);
                for (int x = 0; x < cw; x++) l[i][x + 1] = above[x] + fy * (below[x] - above[x]);
                l[i][0] = l[i][1];
                std::fill(l[i] + cw + 1, l[i] + padded, l[i][cw]);
            }
            const hfr::RowWarp row{l[0], l[1], l[2], l[3], l[4], 2.0f * t, 2.0f * (1.0f - t)};
            uint8_t *o = out->data[0] + size_t(y) * size_t(out->linesize[0]);
            hfr::warpRowHalf(view(f->luma0), view(f->luma1), row, y, width, o, f->settings.simd);
        }
    });
}

void synthesize(hfr_flow *f, double t, hfr_picture *out) {
    weights(f, t);
    synthesizeChroma(f, float(t), out);
    synthesizeLuma(f, float(t), out);
}

template <typename Body> int guarded(hfr_flow *f, Body body) {
    try {
        body();
        return 0;
    } catch (const std::exception &e) {
        f->error = e.what();
    } catch (...) {
        f->error = "unknown failure in OpenCV";
    }
    return -1;
}

}  // namespace

extern "C" {

// Measured on 720p clips (scripts/bench interpolate: a test pattern, a pan and zoom over a photograph
// with an object crossing it, a rotation), 60 → 240 fps: DIS "fast" on the luma shrunk by 2. On the pan,
// "medium" adds 0.05 dB for 4 to 5 times the estimate's cost, "ultrafast" saves ~10% of the whole and
// loses 0.9 dB (0.5 on the rotation); no shrinking adds 0.6 dB for twice the whole, shrinking by 4
// loses 2.6 dB. The consistency scale barely moves PSNR (±0.05 dB from 0.01 to 100): it acts only
// where the flows disagree, a small part of these pictures.
hfr_flow_settings hfr_flow_default_settings(void) {
    hfr_flow_settings s;
    s.preset = cv::DISOpticalFlow::PRESET_FAST;
    s.downscale = 2;
    s.consistency = 1.0f;
    s.threads = 2;
    s.simd = 1;
    return s;
}

hfr_flow *hfr_flow_create(int width, int height, const hfr_flow_settings *settings) {
    hfr_flow_settings s = settings ? *settings : hfr_flow_default_settings();
    if (s.preset < 0 || s.preset > 2 || s.downscale < 1 || s.downscale > 8 || !(s.consistency > 0) || s.simd < 0 ||
        s.simd > 1)
        return nullptr;
    // DIS needs a few of its patches (8 to 12 pixels) across the shrunk picture.
    if (width / s.downscale < 32 || height / s.downscale < 32 || width > 16384 || height > 16384) return nullptr;
    try {
        auto *f = new hfr_flow();
        f->width = width;
        f->height = height;
        f->chromaWidth = (width + 1) / 2;
        f->chromaHeight = (height + 1) / 2;
        f->settings = s;
        f->disForward = makeDIS(s);
        f->disBackward = makeDIS(s);
        f->flowLevel.reset((width + s.downscale - 1) / s.downscale, (height + s.downscale - 1) / s.downscale);
        f->chroma.reset(f->chromaWidth, f->chromaHeight);
        f->coarse.reset((f->chromaWidth + 1) / 2, (f->chromaHeight + 1) / 2);
        halfGridTaps(height, f->chromaHeight, f->rows, f->rowWeights);
        return f;
    } catch (...) {
        return nullptr;
    }
}

void hfr_flow_destroy(hfr_flow *flow) { delete flow; }

int hfr_flow_set_pair(hfr_flow *f, const hfr_picture *earlier, const hfr_picture *later) {
    return guarded(f, [&] {
        f->luma0 = Plane::wrap(earlier->data[0], earlier->linesize[0], f->width, f->height).mat;
        f->luma1 = Plane::wrap(later->data[0], later->linesize[0], f->width, f->height).mat;
        for (int p = 0; p < 2; p++) {
            f->chroma0[p] =
                Plane::wrap(earlier->data[p + 1], earlier->linesize[p + 1], f->chromaWidth, f->chromaHeight).mat;
            f->chroma1[p] =
                Plane::wrap(later->data[p + 1], later->linesize[p + 1], f->chromaWidth, f->chromaHeight).mat;
        }
        f->hasPair = false;
        estimate(f);
        prepare(f);
        f->hasPair = true;
    });
}

int hfr_flow_synthesize(hfr_flow *f, double fraction, hfr_picture *out) {
    if (!f->hasPair || !(fraction > 0 && fraction < 1)) {
        f->error = f->hasPair ? "fraction outside (0, 1)" : "no pair set";
        return -1;
    }
    return guarded(f, [&] { synthesize(f, fraction, out); });
}

const char *hfr_flow_error(const hfr_flow *flow) { return flow->error.c_str(); }

int hfr_blend(const hfr_picture *earlier, const hfr_picture *later, int width, int height, double fraction,
              hfr_picture *out) {
    try {
        for (int p = 0; p < 3; p++) {
            const int w = p == 0 ? width : (width + 1) / 2, h = p == 0 ? height : (height + 1) / 2;
            cv::Mat a = Plane::wrap(earlier->data[p], earlier->linesize[p], w, h).mat;
            cv::Mat b = Plane::wrap(later->data[p], later->linesize[p], w, h).mat;
            cv::Mat o = Plane::wrap(out->data[p], out->linesize[p], w, h).mat;
            cv::addWeighted(a, 1.0 - fraction, b, fraction, 0.0, o);
        }
        return 0;
    } catch (...) {
        return -1;
    }
}

}  // extern "C"
