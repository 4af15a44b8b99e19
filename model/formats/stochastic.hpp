// The stochastic-rounding random stream and rounding rule (docs/training.md, "Stochastic
// rounding"): specified so that an RTL block reproduces it bit for bit.
//
// Generator: Threefry-2x32 with 20 rounds (Salmon, Moraes, Dror, Shaw, "Parallel random numbers:
// as easy as 1, 2, 3", SC'11): add, rotate by constants, xor; no multiplier. Key = the 64-bit seed,
// counter = (group index, stream id). One call gives 64 bits = L = floor(64 / B) lanes of B bits;
// element index i takes lane i mod L of group i / L. The bits of an element depend only on
// (seed, stream, i, B): never on the thread count or the order of evaluation.
//
// Rule: with T the top B bits of the discarded fraction (zero-extended when fewer bits are
// discarded, bits below the top B dropped) and r the element's B random bits, the kept value
// rounds up (away from zero) iff T + r >= 2^B (the carry out of a B-bit adder).
#pragma once
#include <cstddef>
#include <cstdint>

namespace hifsim::fmt {

constexpr unsigned kSrBitsDefault = 8;  // docs/training.md: why 8
constexpr unsigned kSrBitsMax = 32;
constexpr int kThreefryRounds = 20;

inline uint32_t rotl32(uint32_t x, unsigned r) { return (x << r) | (x >> ((32 - r) & 31)); }

// Threefry-2x32's rotation constants R[r mod 8] and key-schedule parity (also the RTL's,
// datapath/sr_quantizer_hw.cpp).
inline constexpr unsigned kThreefryRot[8] = {13, 15, 26, 6, 17, 29, 16, 24};
inline constexpr uint32_t kThreefryParity = 0x1BD11BDAu;

// Threefry-2x32-20 of counter (c0, c1) under key (k0, k1) = (seed low word, seed high word).
// Returns x0 | x1 << 32. Known answers (Random123 kat_vectors): tests/formats/test_stochastic.cpp.
inline uint64_t threefry2x32_20(uint64_t seed, uint32_t c0, uint32_t c1) {
  const uint32_t k0 = static_cast<uint32_t>(seed), k1 = static_cast<uint32_t>(seed >> 32);
  const uint32_t ks[3] = {k0, k1, kThreefryParity ^ k0 ^ k1};
  uint32_t x0 = c0 + ks[0], x1 = c1 + ks[1];
  for (int r = 0; r < kThreefryRounds; ++r) {
    x0 += x1;
    x1 = rotl32(x1, kThreefryRot[r & 7]);
    x1 ^= x0;
    if ((r & 3) == 3) {  // key injection s after every 4 rounds
      const uint32_t s = static_cast<uint32_t>(r + 1) >> 2;
      x0 += ks[s % 3];
      x1 += ks[(s + 1) % 3] + s;
    }
  }
  return static_cast<uint64_t>(x0) | (static_cast<uint64_t>(x1) << 32);
}

// One tensor's stream: the key and the counter's high word.
struct SrStream {
  uint64_t seed = 0;
  uint32_t stream = 0;              // tensor id (docs/training.md: which tensor gets which id)
  unsigned bits = kSrBitsDefault;   // B, random bits per element, 1..32
};

inline unsigned sr_lanes(unsigned bits) { return 64u / bits; }
// Largest element count a stream covers: 2^32 groups of L elements.
inline uint64_t sr_max_elements(unsigned bits) { return (uint64_t{1} << 32) * sr_lanes(bits); }

// r, the B random bits of element `index`.
inline uint32_t sr_draw(const SrStream& s, uint64_t index) {
  const unsigned lanes = sr_lanes(s.bits);
  const uint64_t w = threefry2x32_20(s.seed, static_cast<uint32_t>(index / lanes), s.stream);
  const uint64_t mask = (uint64_t{1} << s.bits) - 1;
  return static_cast<uint32_t>((w >> ((index % lanes) * s.bits)) & mask);
}

// The codecs' form of r: left-aligned in 64 bits (r << (64 - B)). round_shift_right
// (formats/bits.hpp, sr_round_up) rounds up iff the 64-bit left-aligned discarded fraction plus
// this word carries out of 64 bits, which for a word with 64 - B zero low bits is exactly T + r >= 2^B.
inline uint64_t sr_word(uint32_t r, unsigned bits) { return static_cast<uint64_t>(r) << (64 - bits); }
inline uint64_t sr_rbits(const SrStream& s, uint64_t index) { return sr_word(sr_draw(s, index), s.bits); }

// r of elements first .. first + n - 1 into r (the same bits as sr_draw one by one; eight Threefry
// calls per vector, AVX2 or portable build by qdq_fast_isa(); tests/formats/test_stochastic.cpp).
// fmt::quantize draws each block's r just before its element loop (no per-tensor word buffer).
void sr_draws(const SrStream& s, uint64_t first, size_t n, uint32_t* r);
// The codec words (sr_rbits) of elements first .. first + n - 1 into out, from sr_draws.
void sr_fill(const SrStream& s, uint64_t first, size_t n, uint64_t* out);

// Throws hifsim::Error naming --sr-bits when bits is outside 1..32.
void validate_sr_bits(unsigned bits);

}  // namespace hifsim::fmt
