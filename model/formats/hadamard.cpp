// Compiled with -ffp-contract=off (CMakeLists.txt): every add and multiply rounds on its own.
#include "formats/hadamard.hpp"

#include <immintrin.h>

#include <algorithm>
#include <cstring>

#include "formats/bits.hpp"
#include "formats/qdq_fast.hpp"
#include "formats/stochastic.hpp"
#include "formats/transpose8.hpp"
#include "util/error.hpp"
#include "util/parallel.hpp"

#define HIFSIM_AI inline __attribute__((always_inline))

namespace hifsim::fmt {
namespace {

constexpr size_t kRows = 8;  // rows transformed side by side (one AVX2 register per element)

// Rows r0 .. r0 + kRows - 1 (those < rows), block starting at column c0: the definition's three
// steps with the rows as the vector lanes. Missing rows are computed on zeros and not stored.
template <unsigned N>
HIFSIM_AI void block8(const float* x, float* y, size_t rows, size_t cols, size_t r0, size_t c0, uint64_t signs,
                      float c) {
  float v[N][kRows];
  for (unsigned j = 0; j < N; ++j) {
    const uint32_t flip = ((signs >> j) & 1u) << 31;
    for (size_t l = 0; l < kRows; ++l) {
      const float a = r0 + l < rows ? x[(r0 + l) * cols + c0 + j] : 0.0f;
      v[j][l] = bits_f32(f32_bits(a) ^ flip);
    }
  }
  for (unsigned h = 1; h < N; h <<= 1)
    for (unsigned i = 0; i < N; ++i) {
      if (i & h) continue;
      for (size_t l = 0; l < kRows; ++l) {
        const float a = v[i][l], b = v[i + h][l];
        v[i][l] = a + b;
        v[i + h][l] = a - b;
      }
    }
  for (unsigned j = 0; j < N; ++j)
    for (size_t l = 0; l < kRows; ++l)
      if (r0 + l < rows) y[(r0 + l) * cols + c0 + j] = v[j][l] * c;
}

template <unsigned N>
HIFSIM_AI void rows_body(const float* x, float* y, size_t rows, size_t cols, size_t g0, size_t g1, uint64_t signs,
                         float c) {
  for (size_t g = g0; g < g1; ++g)
    for (size_t c0 = 0; c0 < cols; c0 += N) block8<N>(x, y, rows, cols, g * kRows, c0, signs, c);
}

// AVX2: the lanes are 8 consecutive columns of one row (no gather: the 8-rows-as-lanes layout
// above loads each element on its own). Stage h < 8 pairs lanes i and i + h of one register: p =
// the register with each lane's partner swapped in; lanes with bit h clear take x + p = v_i + v_{i+h},
// lanes with bit h set take p - x = v_i - v_{i+h}: per lane the definition's addition, operands in
// its order, so the same bits. Stage h >= 8 pairs whole registers k and k + h/8.
template <int H>
__attribute__((target("avx2"))) HIFSIM_AI __m256 stage_in_register(__m256 x) {
  const __m256 p = H == 1 ? _mm256_permute_ps(x, 0xB1) : H == 2 ? _mm256_permute_ps(x, 0x4E)
                                                               : _mm256_permute2f128_ps(x, x, 0x01);
  return _mm256_blend_ps(_mm256_add_ps(x, p), _mm256_sub_ps(p, x), H == 1 ? 0xAA : H == 2 ? 0xCC : 0xF0);
}

// Butterfly stages between whole registers, h = 1, 2, ..., R/2: (v_k, v_{k+h}) <- (v_k + v_{k+h},
// v_k - v_{k+h}), lane by lane.
template <unsigned R>
__attribute__((target("avx2"))) HIFSIM_AI void register_stages(__m256* v) {
  for (unsigned h = 1; h < R; h <<= 1)
    for (unsigned k = 0; k < R; ++k) {
      if (k & h) continue;
      const __m256 a = v[k], b = v[k + h];
      v[k] = _mm256_add_ps(a, b);
      v[k + h] = _mm256_sub_ps(a, b);
    }
}

template <unsigned N>
__attribute__((target("avx2"))) HIFSIM_AI void rows_body_avx2(const float* x, float* y, size_t rows, size_t cols,
                                                              size_t g0, size_t g1, uint64_t signs, float c) {
  constexpr unsigned R = N / 8;  // registers per block
  __m256 flip[R];
  for (unsigned k = 0; k < R; ++k)
    flip[k] = _mm256_castsi256_ps(_mm256_setr_epi32(
        static_cast<int>(((signs >> (8 * k + 0)) & 1u) << 31), static_cast<int>(((signs >> (8 * k + 1)) & 1u) << 31),
        static_cast<int>(((signs >> (8 * k + 2)) & 1u) << 31), static_cast<int>(((signs >> (8 * k + 3)) & 1u) << 31),
        static_cast<int>(((signs >> (8 * k + 4)) & 1u) << 31), static_cast<int>(((signs >> (8 * k + 5)) & 1u) << 31),
        static_cast<int>(((signs >> (8 * k + 6)) & 1u) << 31), static_cast<int>(((signs >> (8 * k + 7)) & 1u) << 31)));
  const __m256 vc = _mm256_set1_ps(c);
  for (size_t r = g0 * kRows; r < std::min(rows, g1 * kRows); ++r)
    for (size_t c0 = 0; c0 < cols; c0 += N) {
      __m256 v[R];
      for (unsigned k = 0; k < R; ++k) v[k] = _mm256_xor_ps(_mm256_loadu_ps(x + r * cols + c0 + 8 * k), flip[k]);
      for (unsigned k = 0; k < R; ++k) v[k] = stage_in_register<4>(stage_in_register<2>(stage_in_register<1>(v[k])));
      register_stages<R>(v);
      for (unsigned k = 0; k < R; ++k) _mm256_storeu_ps(y + r * cols + c0 + 8 * k, _mm256_mul_ps(v[k], vc));
    }
}

#define HIFSIM_RHT_VARIANTS(N)                                                                               \
  __attribute__((target("avx2"))) void rows_avx2_##N(const float* x, float* y, size_t rows, size_t cols,    \
                                                     size_t g0, size_t g1, uint64_t s, float c) {          \
    rows_body_avx2<N>(x, y, rows, cols, g0, g1, s, c);                                                       \
  }                                                                                                          \
  void rows_portable_##N(const float* x, float* y, size_t rows, size_t cols, size_t g0, size_t g1, uint64_t s, \
                         float c) {                                                                          \
    rows_body<N>(x, y, rows, cols, g0, g1, s, c);                                                            \
  }
HIFSIM_RHT_VARIANTS(16)
HIFSIM_RHT_VARIANTS(32)
HIFSIM_RHT_VARIANTS(64)
#undef HIFSIM_RHT_VARIANTS

// The transposing transform (rht_transpose_fast): column strips [i0, i0 + 8) of x, blocks of N rows.
// Each block is N row loads of 8 columns, so element j of the transform is register j and every
// butterfly is one vertical add or subtract of two registers (the definition's operands in its
// order: the same bits); then the N x 8 result is transposed 8 x 8 at a time and stored as 8 rows
// of N consecutive elements of t.
template <unsigned N>
__attribute__((target("avx2"))) HIFSIM_AI void transpose_body_avx2(const float* x, float* t, size_t rows, size_t cols,
                                                                   size_t s0, size_t s1, uint64_t signs, float c) {
  const __m256 vc = _mm256_set1_ps(c);
  for (size_t i0 = s0 * 8; i0 < s1 * 8; i0 += 8)
    for (size_t t0 = 0; t0 < rows; t0 += N) {
      __m256 v[N];
      for (unsigned j = 0; j < N; ++j)
        v[j] = _mm256_xor_ps(_mm256_loadu_ps(x + (t0 + j) * cols + i0),
                             _mm256_castsi256_ps(_mm256_set1_epi32(static_cast<int>(((signs >> j) & 1u) << 31))));
      register_stages<N>(v);
      for (unsigned j = 0; j < N; ++j) v[j] = _mm256_mul_ps(v[j], vc);
      for (unsigned jb = 0; jb < N; jb += 8) {
        transpose8x8_avx2(v + jb);
        for (unsigned l = 0; l < 8; ++l) _mm256_storeu_ps(t + (i0 + l) * rows + t0 + jb, v[jb + l]);
      }
    }
}
using TransposeFn = void (*)(const float*, float*, size_t, size_t, size_t, size_t, uint64_t, float);
#define HIFSIM_RHT_TRANSPOSE(N)                                                                                  \
  __attribute__((target("avx2"))) void transpose_avx2_##N(const float* x, float* t, size_t rows, size_t cols,    \
                                                          size_t s0, size_t s1, uint64_t s, float c) {         \
    transpose_body_avx2<N>(x, t, rows, cols, s0, s1, s, c);                                                      \
  }
HIFSIM_RHT_TRANSPOSE(16)
HIFSIM_RHT_TRANSPOSE(32)
HIFSIM_RHT_TRANSPOSE(64)
#undef HIFSIM_RHT_TRANSPOSE

using RowsFn = void (*)(const float*, float*, size_t, size_t, size_t, size_t, uint64_t, float);
RowsFn rows_fn(unsigned n, bool avx2) {
  if (n == 16) return avx2 ? rows_avx2_16 : rows_portable_16;
  if (n == 32) return avx2 ? rows_avx2_32 : rows_portable_32;
  return avx2 ? rows_avx2_64 : rows_portable_64;
}

}  // namespace

uint64_t rht_sign_bits(const RhtSpec& s) {
  if (s.signs == RhtSigns::none) return 0;
  const uint64_t w = threefry2x32_20(s.seed, 0, kRhtStream);
  return s.n >= 64 ? w : w & ((uint64_t{1} << s.n) - 1);
}

float rht_scale(unsigned n) {
  switch (n) {
    case 16: return 0.25f;
    case 32: return bits_f32(0x3E3504F3u);  // RNE_fp32(1/sqrt(32)) = 0.176776692...
    case 64: return 0.125f;
    default: return 1.0f;
  }
}

void validate_rht(const RhtSpec& s, size_t cols, const std::string& what) {
  if (s.n == 0) return;
  if (s.n != 16 && s.n != 32 && s.n != 64) throw Error("--rht", std::to_string(s.n), "must be 16, 32 or 64 (0 = off)");
  if (cols % s.n != 0)
    throw Error("--rht", std::to_string(s.n),
                what + ": K = " + std::to_string(cols) + " is not a multiple of the Hadamard size " + std::to_string(s.n) +
                    " (pad K or choose a smaller --rht)");
}

namespace {
// Both entry points: checks the spec; with the transform off copies x to y and returns false.
bool transform_needed(const RhtSpec& s, const float* x, float* y, size_t rows, size_t cols) {
  validate_rht(s, cols, "operand");
  if (s.on()) return true;
  if (x != y) std::memmove(y, x, rows * cols * sizeof(float));
  return false;
}
}  // namespace

void rht_rows(const RhtSpec& s, const float* x, float* y, size_t rows, size_t cols, unsigned threads) {
  if (!transform_needed(s, x, y, rows, cols)) return;
  const uint64_t signs = rht_sign_bits(s);
  const float c = rht_scale(s.n);
  const RowsFn fn = rows_fn(s.n, qdq_fast_isa() == QdqIsa::avx2);
  const size_t groups = (rows + kRows - 1) / kRows;
  // In place is safe: a block reads its rows' N inputs before writing them.
  parallel_for(groups, threads, [&](size_t b, size_t e) { fn(x, y, rows, cols, b, e, signs, c); },
               std::max<size_t>(1, 4096 / std::max<size_t>(1, cols)));
}

bool rht_transpose_fast(const RhtSpec& s, const float* x, float* t, size_t rows, size_t cols, unsigned threads) {
  validate_rht(s, rows, "transposed operand");
  if (!s.on() || cols % 8 != 0 || qdq_fast_isa() != QdqIsa::avx2) return false;
  const uint64_t signs = rht_sign_bits(s);
  const float c = rht_scale(s.n);
  const TransposeFn fn = s.n == 16 ? transpose_avx2_16 : s.n == 32 ? transpose_avx2_32 : transpose_avx2_64;
  parallel_for(cols / 8, threads, [&](size_t b, size_t e) { fn(x, t, rows, cols, b, e, signs, c); },
               std::max<size_t>(1, 4096 / std::max<size_t>(1, rows)));
  return true;
}

void rht_rows_reference(const RhtSpec& s, const float* x, float* y, size_t rows, size_t cols) {
  if (!transform_needed(s, x, y, rows, cols)) return;
  const uint64_t signs = rht_sign_bits(s);
  const float c = rht_scale(s.n);
  float v[64];
  for (size_t r = 0; r < rows; ++r)
    for (size_t c0 = 0; c0 < cols; c0 += s.n) {
      for (unsigned j = 0; j < s.n; ++j) v[j] = ((signs >> j) & 1) ? -x[r * cols + c0 + j] : x[r * cols + c0 + j];
      for (unsigned h = 1; h < s.n; h <<= 1)
        for (unsigned i = 0; i < s.n; ++i)
          if (!(i & h)) {
            const float a = v[i], b = v[i + h];
            v[i] = a + b;
            v[i + h] = a - b;
          }
      for (unsigned j = 0; j < s.n; ++j) y[r * cols + c0 + j] = v[j] * c;
    }
}

}  // namespace hifsim::fmt
