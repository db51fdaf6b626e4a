// The inner loop of the interpolator: one output row sampled from two pictures along their flows and
// mixed. Plain C++ (no OpenCV type); an AVX2 version where the processor has it, else portable code.
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

void warpRow(const PlaneView &a, const PlaneView &b, const RowWarp &row, int y, int count, uint8_t *out);

/// As `warpRow`, but the five rows are on a grid of half the width, upsampled bilinearly with the
/// pixel centres aligned (as `cv::resize` does): output pixel x reads entries (x + 1) / 2 and the
/// next, weighted 3:1 or 1:3 (x even or odd). Each row is padded: entry 0 repeats the first value,
/// and the rows hold at least count / 2 + 8 entries (the last value repeated).
void warpRowHalf(const PlaneView &a, const PlaneView &b, const RowWarp &row, int y, int count, uint8_t *out);

}  // namespace hfr

#endif
