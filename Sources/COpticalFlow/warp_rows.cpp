// Bilinear sampling of two 8-bit pictures along per-pixel vectors, mixed: the interpolator's hot loop
// (see warp_rows.h). The AVX2 version does 8 pixels at a time with gathers: each 32-bit gather brings
// a pixel and its right neighbour; the lower row is gathered 2 bytes early so that no read passes the
// plane's last byte (the upper row is never the last, so its 2 extra bytes stay inside the plane).
#include "warp_rows.h"

#include <algorithm>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace hfr {
namespace {

/// The portable sample: clamp to the plane (edges replicated), then the four neighbours weighted.
inline float sample(const PlaneView &p, float x, float y) {
    x = std::min(std::max(x, 0.0f), float(p.width - 1));
    y = std::min(std::max(y, 0.0f), float(p.height - 1));
    const int column = std::min(int(x), p.width - 2), row = std::min(int(y), p.height - 2);
    const float fx = x - float(column), fy = y - float(row);
    const uint8_t *q = p.data + size_t(row) * p.stride + size_t(column);
    const float top = float(q[0]) + fx * float(int(q[1]) - int(q[0]));
    const float bottom = float(q[p.stride]) + fx * float(int(q[p.stride + 1]) - int(q[p.stride]));
    return top + fy * (bottom - top);
}

void warpPortable(const PlaneView &a, const PlaneView &b, const RowWarp &r, int y, int from, int count,
                  uint8_t *out) {
    for (int x = from; x < count; x++) {
        const float s0 = sample(a, float(x) - r.ka * r.ax[x], float(y) - r.ka * r.ay[x]);
        const float s1 = sample(b, float(x) - r.kb * r.bx[x], float(y) - r.kb * r.by[x]);
        out[x] = uint8_t(s0 + r.w[x] * (s1 - s0) + 0.5f);
    }
}

/// The values of a padded half-width row at output pixel x (see warpRowHalf).
inline float half(const float *row, int x) {
    const float *p = row + (x + 1) / 2;
    return x % 2 ? 0.75f * p[0] + 0.25f * p[1] : 0.25f * p[0] + 0.75f * p[1];
}

void warpHalfPortable(const PlaneView &a, const PlaneView &b, const RowWarp &r, int y, int from, int count,
                      uint8_t *out) {
    for (int x = from; x < count; x++) {
        const float s0 = sample(a, float(x) - r.ka * half(r.ax, x), float(y) - r.ka * half(r.ay, x));
        const float s1 = sample(b, float(x) - r.kb * half(r.bx, x), float(y) - r.kb * half(r.by, x));
        out[x] = uint8_t(s0 + half(r.w, x) * (s1 - s0) + 0.5f);
    }
}

#if defined(__x86_64__)
#define HFR_AVX2 __attribute__((target("avx2,fma")))

/// Eight samples of `p` at (x, y).
HFR_AVX2 inline __m256 sample8(const PlaneView &p, __m256 x, __m256 y) {
    const __m256 zero = _mm256_setzero_ps();
    x = _mm256_min_ps(_mm256_max_ps(x, zero), _mm256_set1_ps(float(p.width - 1)));
    y = _mm256_min_ps(_mm256_max_ps(y, zero), _mm256_set1_ps(float(p.height - 1)));
    const __m256i column = _mm256_min_epi32(_mm256_cvttps_epi32(x), _mm256_set1_epi32(p.width - 2));
    const __m256i row = _mm256_min_epi32(_mm256_cvttps_epi32(y), _mm256_set1_epi32(p.height - 2));
    const __m256 fx = _mm256_sub_ps(x, _mm256_cvtepi32_ps(column));
    const __m256 fy = _mm256_sub_ps(y, _mm256_cvtepi32_ps(row));
    const int stride = int(p.stride);
    const __m256i offset = _mm256_add_epi32(_mm256_mullo_epi32(row, _mm256_set1_epi32(stride)), column);
    const auto *base = reinterpret_cast<const int *>(p.data);
    const __m256i upper = _mm256_i32gather_epi32(base, offset, 1);
    const __m256i lower = _mm256_i32gather_epi32(base, _mm256_add_epi32(offset, _mm256_set1_epi32(stride - 2)), 1);
    const __m256i byte = _mm256_set1_epi32(0xff);
    const __m256 p00 = _mm256_cvtepi32_ps(_mm256_and_si256(upper, byte));
    const __m256 p01 = _mm256_cvtepi32_ps(_mm256_and_si256(_mm256_srli_epi32(upper, 8), byte));
    const __m256 p10 = _mm256_cvtepi32_ps(_mm256_and_si256(_mm256_srli_epi32(lower, 16), byte));
    const __m256 p11 = _mm256_cvtepi32_ps(_mm256_srli_epi32(lower, 24));
    const __m256 top = _mm256_fmadd_ps(fx, _mm256_sub_ps(p01, p00), p00);
    const __m256 bottom = _mm256_fmadd_ps(fx, _mm256_sub_ps(p11, p10), p10);
    return _mm256_fmadd_ps(fy, _mm256_sub_ps(bottom, top), top);
}

/// Eight values 0…255.5 truncated to bytes.
HFR_AVX2 inline void store8(uint8_t *out, __m256 mixed) {
    const __m256i values = _mm256_cvttps_epi32(mixed);
    const __m128i words = _mm_packus_epi32(_mm256_castsi256_si128(values), _mm256_extracti128_si256(values, 1));
    _mm_storel_epi64(reinterpret_cast<__m128i *>(out), _mm_packus_epi16(words, words));
}

/// Pixels [0, count − count % 8) of the row; returns where the portable loop takes over.
HFR_AVX2 int warpAVX2(const PlaneView &a, const PlaneView &b, const RowWarp &r, int y, int count, uint8_t *out) {
    const __m256 ka = _mm256_set1_ps(r.ka), kb = _mm256_set1_ps(r.kb), half = _mm256_set1_ps(0.5f);
    const __m256 row = _mm256_set1_ps(float(y)), steps = _mm256_setr_ps(0, 1, 2, 3, 4, 5, 6, 7);
    int x = 0;
    for (; x + 8 <= count; x += 8) {
        const __m256 column = _mm256_add_ps(_mm256_set1_ps(float(x)), steps);
        const __m256 s0 = sample8(a, _mm256_fnmadd_ps(ka, _mm256_loadu_ps(r.ax + x), column),
                                  _mm256_fnmadd_ps(ka, _mm256_loadu_ps(r.ay + x), row));
        const __m256 s1 = sample8(b, _mm256_fnmadd_ps(kb, _mm256_loadu_ps(r.bx + x), column),
                                  _mm256_fnmadd_ps(kb, _mm256_loadu_ps(r.by + x), row));
        const __m256 mixed = _mm256_fmadd_ps(_mm256_loadu_ps(r.w + x), _mm256_sub_ps(s1, s0), _mm256_add_ps(s0, half));
        store8(out + x, mixed);
    }
    return x;
}

/// Output pixels x … x + 7 (x even) of a padded half-width row: entries x/2 … x/2 + 5 mixed.
HFR_AVX2 inline __m256 upsample8(const float *row, int x) {
    const __m256 values = _mm256_loadu_ps(row + x / 2);
    const __m256 lower = _mm256_permutevar8x32_ps(values, _mm256_setr_epi32(0, 1, 1, 2, 2, 3, 3, 4));
    const __m256 upper = _mm256_permutevar8x32_ps(values, _mm256_setr_epi32(1, 2, 2, 3, 3, 4, 4, 5));
    const __m256 weight = _mm256_setr_ps(0.75f, 0.25f, 0.75f, 0.25f, 0.75f, 0.25f, 0.75f, 0.25f);
    return _mm256_fmadd_ps(weight, _mm256_sub_ps(upper, lower), lower);
}

HFR_AVX2 int warpHalfAVX2(const PlaneView &a, const PlaneView &b, const RowWarp &r, int y, int count, uint8_t *out) {
    const __m256 ka = _mm256_set1_ps(r.ka), kb = _mm256_set1_ps(r.kb), half = _mm256_set1_ps(0.5f);
    const __m256 row = _mm256_set1_ps(float(y)), steps = _mm256_setr_ps(0, 1, 2, 3, 4, 5, 6, 7);
    int x = 0;
    for (; x + 8 <= count; x += 8) {
        const __m256 column = _mm256_add_ps(_mm256_set1_ps(float(x)), steps);
        const __m256 s0 = sample8(a, _mm256_fnmadd_ps(ka, upsample8(r.ax, x), column),
                                  _mm256_fnmadd_ps(ka, upsample8(r.ay, x), row));
        const __m256 s1 = sample8(b, _mm256_fnmadd_ps(kb, upsample8(r.bx, x), column),
                                  _mm256_fnmadd_ps(kb, upsample8(r.by, x), row));
        const __m256 mixed = _mm256_fmadd_ps(upsample8(r.w, x), _mm256_sub_ps(s1, s0), _mm256_add_ps(s0, half));
        store8(out + x, mixed);
    }
    return x;
}

bool hasAVX2() {
    static const bool has = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    return has;
}
#endif

}  // namespace

void warpRow(const PlaneView &a, const PlaneView &b, const RowWarp &row, int y, int count, uint8_t *out) {
    int from = 0;
#if defined(__x86_64__)
    if (hasAVX2()) from = warpAVX2(a, b, row, y, count, out);
#endif
    warpPortable(a, b, row, y, from, count, out);
}

}  // namespace hfr

namespace hfr {

void warpRowHalf(const PlaneView &a, const PlaneView &b, const RowWarp &row, int y, int count, uint8_t *out) {
    int from = 0;
#if defined(__x86_64__)
    if (hasAVX2()) from = warpHalfAVX2(a, b, row, y, count, out);
#endif
    warpHalfPortable(a, b, row, y, from, count, out);
}

}  // namespace hfr
