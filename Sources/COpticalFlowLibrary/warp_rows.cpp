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

/// A float plane sampled bilinearly at (x, y), edges replicated.
inline float sample(const FloatView &p, float x, float y) {
    x = std::min(std::max(x, 0.0f), float(p.width - 1));
    y = std::min(std::max(y, 0.0f), float(p.height - 1));
    const int column = std::min(int(x), p.width - 2), row = std::min(int(y), p.height - 2);
    const float fx = x - float(column), fy = y - float(row);
    const float *q = p.data + size_t(row) * p.stride + size_t(column);
    const float top = q[0] + fx * (q[1] - q[0]), bottom = q[p.stride] + fx * (q[p.stride + 1] - q[p.stride]);
    return top + fy * (bottom - top);
}

inline float check(float dx, float dy, float inverse) { return 1.0f / (1.0f + (dx * dx + dy * dy) * inverse); }

void consistencyPortable(const float *fx, const float *fy, const FloatView &gx, const FloatView &gy, int y,
                         int from, int count, float inverse, float *out) {
    for (int x = from; x < count; x++) {
        const float qx = float(x) + fx[x], qy = float(y) + fy[x];
        out[x] = check(fx[x] + sample(gx, qx, qy), fy[x] + sample(gy, qx, qy), inverse);
    }
}

void weightPortable(const WeightInputs &in, int y, int from, int count, float *out) {
    const size_t at = size_t(y) * in.f0x.stride;
    const float *f0x = in.f0x.data + at, *f0y = in.f0y.data + at, *f1x = in.f1x.data + at, *f1y = in.f1y.data + at;
    const float k0 = in.scale * in.b, k1 = in.scale * in.a;
    for (int x = from; x < count; x++) {
        const float x0 = float(x) - in.b * f0x[x], y0 = float(y) - in.b * f0y[x];
        const float x1 = float(x) - in.a * f1x[x], y1 = float(y) - in.a * f1y[x];
        const float d0x = k0 * (sample(in.f0x, x0, y0) - f0x[x]), d0y = k0 * (sample(in.f0y, x0, y0) - f0y[x]);
        const float d1x = k1 * (sample(in.f1x, x1, y1) - f1x[x]), d1y = k1 * (sample(in.f1y, x1, y1) - f1y[x]);
        const float r0 = check(d0x, d0y, in.inverse), r1 = check(d1x, d1y, in.inverse);
        const float w0 = in.a * (sample(in.c0, x0 + 1, y0 + 1) * r0 + in.floor);
        const float w1 = in.b * (sample(in.c1, x1 + 1, y1 + 1) * r1 + in.floor);
        out[x] = w1 / (w0 + w1);
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

/// Where eight bilinear samples of float planes of one geometry read (edges replicated).
struct Tap8 {
    __m256i offset, stride;
    __m256 fx, fy;
    HFR_AVX2 Tap8(const FloatView &p, __m256 x, __m256 y) {
        const __m256 zero = _mm256_setzero_ps();
        x = _mm256_min_ps(_mm256_max_ps(x, zero), _mm256_set1_ps(float(p.width - 1)));
        y = _mm256_min_ps(_mm256_max_ps(y, zero), _mm256_set1_ps(float(p.height - 1)));
        const __m256i column = _mm256_min_epi32(_mm256_cvttps_epi32(x), _mm256_set1_epi32(p.width - 2));
        const __m256i row = _mm256_min_epi32(_mm256_cvttps_epi32(y), _mm256_set1_epi32(p.height - 2));
        fx = _mm256_sub_ps(x, _mm256_cvtepi32_ps(column));
        fy = _mm256_sub_ps(y, _mm256_cvtepi32_ps(row));
        stride = _mm256_set1_epi32(int(p.stride));
        offset = _mm256_add_epi32(_mm256_mullo_epi32(row, stride), column);
    }
    HFR_AVX2 __m256 read(const float *data) const {
        const __m256i one = _mm256_set1_epi32(1), below = _mm256_add_epi32(offset, stride);
        const __m256 p00 = _mm256_i32gather_ps(data, offset, 4);
        const __m256 p01 = _mm256_i32gather_ps(data, _mm256_add_epi32(offset, one), 4);
        const __m256 p10 = _mm256_i32gather_ps(data, below, 4);
        const __m256 p11 = _mm256_i32gather_ps(data, _mm256_add_epi32(below, one), 4);
        const __m256 top = _mm256_fmadd_ps(fx, _mm256_sub_ps(p01, p00), p00);
        const __m256 bottom = _mm256_fmadd_ps(fx, _mm256_sub_ps(p11, p10), p10);
        return _mm256_fmadd_ps(fy, _mm256_sub_ps(bottom, top), top);
    }
};

HFR_AVX2 inline __m256 check8(__m256 dx, __m256 dy, __m256 inverse) {
    const __m256 one = _mm256_set1_ps(1.0f);
    const __m256 square = _mm256_fmadd_ps(dx, dx, _mm256_mul_ps(dy, dy));
    return _mm256_div_ps(one, _mm256_fmadd_ps(square, inverse, one));
}

HFR_AVX2 int consistencyAVX2(const float *fx, const float *fy, const FloatView &gx, const FloatView &gy, int y,
                             int count, float inverse, float *out) {
    const __m256 row = _mm256_set1_ps(float(y)), steps = _mm256_setr_ps(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256 k = _mm256_set1_ps(inverse);
    int x = 0;
    for (; x + 8 <= count; x += 8) {
        const __m256 vx = _mm256_loadu_ps(fx + x), vy = _mm256_loadu_ps(fy + x);
        const __m256 column = _mm256_add_ps(_mm256_set1_ps(float(x)), steps);
        const Tap8 tap(gx, _mm256_add_ps(column, vx), _mm256_add_ps(row, vy));
        _mm256_storeu_ps(out + x,
                         check8(_mm256_add_ps(vx, tap.read(gx.data)), _mm256_add_ps(vy, tap.read(gy.data)), k));
    }
    return x;
}

HFR_AVX2 int weightAVX2(const WeightInputs &in, int y, int count, float *out) {
    const size_t at = size_t(y) * in.f0x.stride;
    const float *f0x = in.f0x.data + at, *f0y = in.f0y.data + at, *f1x = in.f1x.data + at, *f1y = in.f1y.data + at;
    const __m256 a = _mm256_set1_ps(in.a), b = _mm256_set1_ps(in.b), one = _mm256_set1_ps(1.0f);
    const __m256 k0 = _mm256_set1_ps(in.scale * in.b), k1 = _mm256_set1_ps(in.scale * in.a);
    const __m256 inverse = _mm256_set1_ps(in.inverse), floor = _mm256_set1_ps(in.floor);
    const __m256 row = _mm256_set1_ps(float(y)), steps = _mm256_setr_ps(0, 1, 2, 3, 4, 5, 6, 7);
    int x = 0;
    for (; x + 8 <= count; x += 8) {
        const __m256 column = _mm256_add_ps(_mm256_set1_ps(float(x)), steps);
        const __m256 v0x = _mm256_loadu_ps(f0x + x), v0y = _mm256_loadu_ps(f0y + x);
        const __m256 v1x = _mm256_loadu_ps(f1x + x), v1y = _mm256_loadu_ps(f1y + x);
        const __m256 x0 = _mm256_fnmadd_ps(b, v0x, column), y0 = _mm256_fnmadd_ps(b, v0y, row);
        const __m256 x1 = _mm256_fnmadd_ps(a, v1x, column), y1 = _mm256_fnmadd_ps(a, v1y, row);
        const Tap8 t0(in.f0x, x0, y0), t1(in.f1x, x1, y1);
        const __m256 r0 = check8(_mm256_mul_ps(k0, _mm256_sub_ps(t0.read(in.f0x.data), v0x)),
                                 _mm256_mul_ps(k0, _mm256_sub_ps(t0.read(in.f0y.data), v0y)), inverse);
        const __m256 r1 = check8(_mm256_mul_ps(k1, _mm256_sub_ps(t1.read(in.f1x.data), v1x)),
                                 _mm256_mul_ps(k1, _mm256_sub_ps(t1.read(in.f1y.data), v1y)), inverse);
        const Tap8 p0(in.c0, _mm256_add_ps(x0, one), _mm256_add_ps(y0, one));
        const Tap8 p1(in.c1, _mm256_add_ps(x1, one), _mm256_add_ps(y1, one));
        const __m256 w0 = _mm256_mul_ps(a, _mm256_fmadd_ps(p0.read(in.c0.data), r0, floor));
        const __m256 w1 = _mm256_mul_ps(b, _mm256_fmadd_ps(p1.read(in.c1.data), r1, floor));
        _mm256_storeu_ps(out + x, _mm256_div_ps(w1, _mm256_add_ps(w0, w1)));
    }
    return x;
}

bool hasAVX2() {
    static const bool has = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    return has;
}
#endif

}  // namespace

void warpRow(const PlaneView &a, const PlaneView &b, const RowWarp &row, int y, int count, uint8_t *out, bool simd) {
    int from = 0;
#if defined(__x86_64__)
    if (simd && hasAVX2()) from = warpAVX2(a, b, row, y, count, out);
#endif
    warpPortable(a, b, row, y, from, count, out);
}

}  // namespace hfr

namespace hfr {

void warpRowHalf(const PlaneView &a, const PlaneView &b, const RowWarp &row, int y, int count, uint8_t *out,
                 bool simd) {
    int from = 0;
#if defined(__x86_64__)
    if (simd && hasAVX2()) from = warpHalfAVX2(a, b, row, y, count, out);
#endif
    warpHalfPortable(a, b, row, y, from, count, out);
}

}  // namespace hfr

namespace hfr {

void consistencyRow(const float *fx, const float *fy, const FloatView &gx, const FloatView &gy, int y, int count,
                    float inverse, float *out, bool simd) {
    int from = 0;
#if defined(__x86_64__)
    if (simd && hasAVX2()) from = consistencyAVX2(fx, fy, gx, gy, y, count, inverse, out);
#endif
    consistencyPortable(fx, fy, gx, gy, y, from, count, inverse, out);
}

void weightRow(const WeightInputs &in, int y, int count, float *out, bool simd) {
    int from = 0;
#if defined(__x86_64__)
    if (simd && hasAVX2()) from = weightAVX2(in, y, count, out);
#endif
    weightPortable(in, y, from, count, out);
}

}  // namespace hfr
