// Port helpers of the unit harnesses (cosim/<unit>/main.cpp): the packed operand ports a and b
// of a Verilated model from a transaction's words, and random junk on them while in_valid = 0.
#pragma once
#include <cstdint>

#include "util/rng.hpp"

namespace hifsim::cosim {

// a[0..n) and b[0..n) (32-bit port words) from words 0..n-1 and n..2n-1.
template <class Model>
void set_ab(Model& m, const uint32_t* w, int n) {
  for (int i = 0; i < n; ++i) {
    m.a[i] = w[i];
    m.b[i] = w[n + i];
  }
}

// Random words on a[0..n) and b[0..n), drawn a[i], b[i], a[i + 1], ...
template <class Model>
void set_ab_random(Model& m, SplitMix64& r, int n) {
  for (int i = 0; i < n; ++i) {
    m.a[i] = r.next32();
    m.b[i] = r.next32();
  }
}

}  // namespace hifsim::cosim
