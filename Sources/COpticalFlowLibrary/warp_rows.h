// The inner loop of the interpolator: one output row sampled from two pictures along their flows and
// mixed. Plain C++ (no OpenCV type); an AVX2 version where the processor has it and `simd` is set,
// else portable code (the two agree to rounding).
#ifndef HFR_WARP_ROWS_H
#define HFR_WARP_ROWS_H

#include <stddef.h>
#include <stdint.h>

namespace hfr {

/// An 8-bit plane (at least 2×2 pixels; stride in bytes).
struct PlaneView {
    const uint8_t *data;
    size_t stride;
    int width, height;
};

/// What one row mixes: per output pixel x of row y, `a` sampled bilinearly at
/// (x − ka·ax[x], y − ka·ay[x]), `b` at (x − kb·bx[x], y − kb·by[x]) (edges replicated), and
/// out[x] = a + w[x]·(b − a), rounded.
struct RowWarp {
    const float *ax, *ay, *bx, *by, *w;
    float ka, kb;
};

void warpRow(const PlaneView &a, const PlaneView &b, const RowWarp &row, int y, int count, uint8_t *out, bool simd);

/// As `warpRow`, but the five rows are on a grid of half the width, upsampled bilinearly with the
/// pixel centres aligned (as `cv::resize` does): output pixel x reads entries (x + 1) / 2 and the
/// next, weighted 3:1 or 1:3 (x even or odd). Each row is padded: entry 0 repeats the first value,
/// and the rows hold at least count / 2 + 8 entries (the last value repeated).
void warpRowHalf(const PlaneView &a, const PlaneView &b, const RowWarp &row, int y, int count, uint8_t *out,
                 bool simd);

/// A float plane (at least 2×2; stride in floats).
struct FloatView {
    const float *data;
    size_t stride;
    int width, height;
};

/// The forward-backward check on one row y: for each x, p = (x, y), F(p) = (fx[x], fy[x]) and G read
/// bilinearly from its planes gx, gy at p + F(p) (edges replicated):
/// out[x] = 1 / (1 + |F(p) + G(p + F(p))|² · inverse).
void consistencyRow(const float *fx, const float *fy, const FloatView &gx, const FloatView &gy, int y, int count,
                    float inverse, float *out, bool simd);

/// What a row of blending weights reads: both flows (F01 in f0x, f0y; F10 in f1x, f1y; same stride)
/// and their consistencies with a border of zeros (c0, c1: one pixel wider on each side).
struct WeightInputs {
    FloatView f0x, f0y, f1x, f1y, c0, c1;
    /// The time weights of the earlier (a = 1 − t) and later (b = t) picture.
    float a, b;
    /// 1/σ² of the checks, the scale from these vectors to the pixels the check is in, and the
    /// floor of each side's weight.
    float inverse, scale, floor;
};

/// The later picture's share (0…1) at each pixel of row y: each side's time weight times its
/// consistency and the agreement of the vector at the point it samples with its own.
void weightRow(const WeightInputs &in, int y, int count, float *out, bool simd);

}  // namespace hfr

#endif
