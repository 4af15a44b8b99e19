// The accumulator parameter set of the benches whose unit ends in the FP32 accumulator register
// (fp32_acc, sparse_residual_add): the RTL parameters MANT_BITS and ROUND_RZ as a dp::AccSpec.
#pragma once
#include <cstdint>
#include <string>

#include "datapath/accumulator.hpp"

namespace hifsim::verif {

struct AccVariant {
  int mant_bits;
  bool rz;
  dp::AccSpec spec() const {
    dp::AccSpec s;
    if (mant_bits == 23 && !rz) return s;  // `fp32`: the host binary32 addition
    s.kind = dp::AccSpec::fp32_reduced;
    s.mant_bits = mant_bits;
    s.mode = rz ? dp::RoundMode::rz : dp::RoundMode::rne;
    return s;
  }
  int precision() const { return mant_bits + 1; }
  std::string name() const { return spec().name(); }
  // What the unit takes of init_value: its low 23 - MANT_BITS mantissa bits are ignored (the RTL's
  // documented contract; a value of the register's precision is unchanged).
  uint32_t init_seen(uint32_t init) const { return init & ~((1u << (23 - mant_bits)) - 1u); }
};

}  // namespace hifsim::verif
