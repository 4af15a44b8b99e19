#include "formats/stochastic.hpp"

#include <string>

#include "formats/qdq_fast.hpp"
#include "util/error.hpp"

#define HIFSIM_AI inline __attribute__((always_inline))

namespace hifsim::fmt {
namespace {

constexpr size_t kGroupBatch = 16;  // Threefry calls computed side by side (two AVX2 registers)

// kGroupBatch Threefry-2x32-20 calls on counters (g0 + j, stream): the same arithmetic as
// threefry2x32_20, written lane-parallel so the compiler vectorises the 32-bit adds, rotates and
// xors (8 lanes per AVX2 register).
HIFSIM_AI void threefry_batch(uint64_t seed, uint32_t g0, uint32_t stream, uint64_t* w) {
  static constexpr unsigned kRot[8] = {13, 15, 26, 6, 17, 29, 16, 24};
  const uint32_t k0 = static_cast<uint32_t>(seed), k1 = static_cast<uint32_t>(seed >> 32);
  const uint32_t ks[3] = {k0, k1, 0x1BD11BDAu ^ k0 ^ k1};
  uint32_t x0[kGroupBatch], x1[kGroupBatch];
  for (size_t j = 0; j < kGroupBatch; ++j) {
    x0[j] = g0 + static_cast<uint32_t>(j) + ks[0];
    x1[j] = stream + ks[1];
  }
  for (int r = 0; r < kThreefryRounds; ++r) {
    const unsigned rot = kRot[r & 7];
    for (size_t j = 0; j < kGroupBatch; ++j) {
      x0[j] += x1[j];
      x1[j] = (x1[j] << rot) | (x1[j] >> (32 - rot));
      x1[j] ^= x0[j];
    }
    if ((r & 3) == 3) {
      const uint32_t s = static_cast<uint32_t>(r + 1) >> 2;
      const uint32_t a = ks[s % 3], b = ks[(s + 1) % 3] + s;
      for (size_t j = 0; j < kGroupBatch; ++j) {
        x0[j] += a;
        x1[j] += b;
      }
    }
  }
  for (size_t j = 0; j < kGroupBatch; ++j) w[j] = static_cast<uint64_t>(x0[j]) | (static_cast<uint64_t>(x1[j]) << 32);
}

// The lanes of kGroupBatch words for a compile-time B (the same expression as the general loop).
template <unsigned B>
HIFSIM_AI void split_batch(const uint64_t* w, uint64_t* __restrict out) {
  constexpr unsigned L = 64 / B;
  constexpr uint64_t mask = (uint64_t{1} << B) - 1;
  for (size_t g = 0; g < kGroupBatch; ++g)
    for (unsigned j = 0; j < L; ++j) out[g * L + j] = ((w[g] >> (j * B)) & mask) << (64 - B);
}

HIFSIM_AI void fill_body(const SrStream& s, uint64_t first, size_t n, uint64_t* __restrict out) {
  const unsigned lanes = sr_lanes(s.bits), B = s.bits;
  const uint64_t mask = (uint64_t{1} << B) - 1;
  size_t i = 0;
  for (; i < n && (first + i) % lanes != 0; ++i) out[i] = sr_rbits(s, first + i);  // head: to a group start
  uint64_t w[kGroupBatch];
  for (; n - i >= lanes * kGroupBatch; i += lanes * kGroupBatch) {  // whole batches of groups
    threefry_batch(s.seed, static_cast<uint32_t>((first + i) / lanes), s.stream, w);
    if (B == 8) split_batch<8>(w, out + i);  // the default: constant lanes, vectorised
    else if (B == 4) split_batch<4>(w, out + i);
    else
      for (size_t g = 0; g < kGroupBatch; ++g)
        for (unsigned j = 0; j < lanes; ++j) out[i + g * lanes + j] = ((w[g] >> (j * B)) & mask) << (64 - B);
  }
  if (i < n) {  // tail: fewer than kGroupBatch groups
    threefry_batch(s.seed, static_cast<uint32_t>((first + i) / lanes), s.stream, w);
    for (size_t k = 0; i < n; ++k, ++i) out[i] = ((w[k / lanes] >> ((k % lanes) * B)) & mask) << (64 - B);
  }
}

__attribute__((target("avx2"))) void fill_avx2(const SrStream& s, uint64_t first, size_t n, uint64_t* out) {
  fill_body(s, first, n, out);
}
void fill_portable(const SrStream& s, uint64_t first, size_t n, uint64_t* out) { fill_body(s, first, n, out); }

}  // namespace

void sr_fill(const SrStream& s, uint64_t first, size_t n, uint64_t* out) {
  if (qdq_fast_isa() == QdqIsa::avx2) fill_avx2(s, first, n, out);
  else fill_portable(s, first, n, out);
}

void validate_sr_bits(unsigned bits) {
  if (bits < 1 || bits > kSrBitsMax)
    throw Error("--sr-bits", std::to_string(bits), "random bits per element must be 1..32");
}

}  // namespace hifsim::fmt
