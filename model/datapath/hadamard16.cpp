// Compiled with -ffp-contract=off (the top CMakeLists.txt), as formats/hadamard.cpp: every add and
// multiply rounds on its own, exactly as the definition's steps.
#include "datapath/hadamard16.hpp"

#include "formats/bits.hpp"

namespace hifsim::dp {
namespace {
uint32_t canonical(float f) { return f != f ? fmt::kF32QuietNaN : fmt::f32_bits(f); }
}  // namespace

uint32_t Hadamard16::add(uint32_t a, uint32_t b, bool sub) {
  const float x = fmt::bits_f32(a), y = fmt::bits_f32(b);
  return canonical(sub ? x - y : x + y);
}

uint32_t Hadamard16::scale(uint32_t v) { return canonical(fmt::bits_f32(v) * 0.25f); }

void Hadamard16::compute(const uint32_t* x, uint16_t signs, uint32_t* out, Hadamard16Stages* st) {
  Hadamard16Stages local;
  Hadamard16Stages& s = st ? *st : local;
  for (int j = 0; j < kHad16; ++j) s.v0[j] = x[j] ^ (static_cast<uint32_t>((signs >> j) & 1u) << 31);
  const uint32_t* v = s.v0;
  for (int l = 0; l < kHad16Levels; ++l) {
    const int h = 1 << l;
    for (int i = 0; i < kHad16; ++i) {
      if (i & h) continue;
      s.b[l][i] = add(v[i], v[i + h], false);
      s.b[l][i + h] = add(v[i], v[i + h], true);
    }
    v = s.b[l];
  }
  for (int j = 0; j < kHad16; ++j) out[j] = s.out[j] = scale(v[j]);
}

}  // namespace hifsim::dp
