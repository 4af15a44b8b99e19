#include "formats/stochastic.hpp"

#include <cstring>
#include <string>

#include "formats/qdq_fast.hpp"
#include "util/error.hpp"

#define HIFSIM_AI inline __attribute__((always_inline))

namespace hifsim::fmt {
namespace {

// Eight Threefry-2x32-20 calls side by side, on counters (g0 + j, stream), j = 0..7: the same
// arithmetic as threefry2x32_20, one 32-bit lane of a GCC vector per call. The rotation amounts
// are template arguments, so every rotate is two immediate shifts: the former batch rotated by a
// run-time amount and stayed scalar (`rol %cl` per lane, perf annotate). The vector type compiles
// to one AVX2 register in the AVX2 build and to two SSE2 registers in the portable one.
typedef uint32_t U32x8 __attribute__((vector_size(32)));

template <unsigned R>  // x1 = rotl(x1, R) ^ x0 (by reference: no vector passed by value across the ABI)
HIFSIM_AI void rotl_xor(U32x8& x1, const U32x8& x0) { x1 = ((x1 << R) | (x1 >> (32 - R))) ^ x0; }

// Four rounds with rotations R0..R3, then key injection (Threefry-2x32: kRot = 13 15 26 6 17 29 16 24).
template <unsigned R0, unsigned R1, unsigned R2, unsigned R3>
HIFSIM_AI void four_rounds(U32x8& x0, U32x8& x1, uint32_t inj0, uint32_t inj1) {
  x0 += x1, rotl_xor<R0>(x1, x0);
  x0 += x1, rotl_xor<R1>(x1, x0);
  x0 += x1, rotl_xor<R2>(x1, x0);
  x0 += x1, rotl_xor<R3>(x1, x0);
  x0 += inj0, x1 += inj1;
}

HIFSIM_AI void threefry8(uint64_t seed, uint32_t g0, uint32_t stream, uint64_t* w) {
  const uint32_t k0 = static_cast<uint32_t>(seed), k1 = static_cast<uint32_t>(seed >> 32);
  const uint32_t ks[3] = {k0, k1, 0x1BD11BDAu ^ k0 ^ k1};
  const U32x8 lane = {0, 1, 2, 3, 4, 5, 6, 7};
  U32x8 x0 = lane + (g0 + ks[0]);
  U32x8 x1 = U32x8{} + (stream + ks[1]);
  // Injection s after round 4s - 1: x0 += ks[s % 3], x1 += ks[(s + 1) % 3] + s.
  four_rounds<13, 15, 26, 6>(x0, x1, ks[1], ks[2] + 1);
  four_rounds<17, 29, 16, 24>(x0, x1, ks[2], ks[0] + 2);
  four_rounds<13, 15, 26, 6>(x0, x1, ks[0], ks[1] + 3);
  four_rounds<17, 29, 16, 24>(x0, x1, ks[1], ks[2] + 4);
  four_rounds<13, 15, 26, 6>(x0, x1, ks[2], ks[0] + 5);
  for (int j = 0; j < 8; ++j) w[j] = static_cast<uint64_t>(x0[j]) | (static_cast<uint64_t>(x1[j]) << 32);
}

constexpr size_t kSpan = 64;                 // elements per piece
constexpr size_t kSpanWords = 33 + 7;        // groups a piece of 64 can touch (L = 2, unaligned) -> 8-lane batches

// r of elements first .. first + n - 1, n <= kSpan: the words of the groups they touch, eight
// Threefry calls at a time, then element first + k takes lane (first + k) mod L of its group.
HIFSIM_AI void draws_piece(const SrStream& s, uint64_t first, size_t n, uint32_t* __restrict r) {
  const unsigned B = s.bits, L = sr_lanes(B);
  const uint64_t g0 = first / L;
  const unsigned off = static_cast<unsigned>(first % L);
  const size_t groups = (off + n + L - 1) / L;
  alignas(32) uint64_t w[kSpanWords];
  for (size_t g = 0; g < groups; g += 8) threefry8(s.seed, static_cast<uint32_t>(g0 + g), s.stream, w + g);
  if (64 % B == 0) {  // B = 1, 2, 4, 8, 16, 32: the lanes tile the words, element k's bits start at (off + k) B
    if (B == 8) {
      uint8_t bytes[sizeof w];
      std::memcpy(bytes, w, sizeof w);  // little-endian: lane j of a word is its byte j
      for (size_t k = 0; k < n; ++k) r[k] = bytes[off + k];
      return;
    }
    const uint64_t mask = (uint64_t{2} << (B - 1)) - 1;
    for (size_t k = 0; k < n; ++k) {
      const size_t p = (off + k) * B;
      r[k] = static_cast<uint32_t>((w[p >> 6] >> (p & 63)) & mask);
    }
    return;
  }
  const uint64_t mask = (uint64_t{1} << B) - 1;  // B < 32 here
  size_t g = 0;
  unsigned j = off;
  for (size_t k = 0; k < n; ++k) {
    r[k] = static_cast<uint32_t>((w[g] >> (j * B)) & mask);
    if (++j == L) j = 0, ++g;
  }
}

HIFSIM_AI void draws_body(const SrStream& s, uint64_t first, size_t n, uint32_t* r) {
  for (size_t i = 0; i < n; i += kSpan) draws_piece(s, first + i, n - i < kSpan ? n - i : kSpan, r + i);
}
__attribute__((target("avx2"))) void draws_avx2(const SrStream& s, uint64_t first, size_t n, uint32_t* r) {
  draws_body(s, first, n, r);
}
void draws_portable(const SrStream& s, uint64_t first, size_t n, uint32_t* r) { draws_body(s, first, n, r); }

}  // namespace

void sr_draws(const SrStream& s, uint64_t first, size_t n, uint32_t* r) {
  if (qdq_fast_isa() == QdqIsa::avx2) draws_avx2(s, first, n, r);
  else draws_portable(s, first, n, r);
}

void sr_fill(const SrStream& s, uint64_t first, size_t n, uint64_t* out) {
  uint32_t r[kSpan];
  for (size_t i = 0; i < n; i += kSpan) {
    const size_t m = n - i < kSpan ? n - i : kSpan;
    sr_draws(s, first + i, m, r);
    for (size_t k = 0; k < m; ++k) out[i + k] = sr_word(r[k], s.bits);
  }
}

void validate_sr_bits(unsigned bits) {
  if (bits < 1 || bits > kSrBitsMax)
    throw Error("--sr-bits", std::to_string(bits), "random bits per element must be 1..32");
}

}  // namespace hifsim::fmt
