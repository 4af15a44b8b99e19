// Accumulators that sum per-block dot-product results across K (docs/datapath.md, unit 6).
//   fp32              IEEE binary32, RNE, subnormals kept (the default)
//   fp32-m<b>-rne|rz  FP32 exponent range with a b-bit mantissa (reduced-precision tensor cores)
//   kulisch           exact 768-bit fixed point, one RNE rounding to FP32 at the end
#pragma once
#include <string>

#include "datapath/exact.hpp"

namespace hifsim::dp {

// What a dot-product unit hands to the accumulator: its FP32 output and the exact value it
// rounded (the Kulisch accumulator takes the exact one).
struct DotResult {
  float value = 0.0f;
  ExactValue exact;
};

struct AccSpec {
  enum Kind { fp32, fp32_reduced, kulisch } kind = fp32;
  int mant_bits = 23;             // fp32_reduced: mantissa bits (precision = mant_bits + 1)
  RoundMode mode = RoundMode::rne;
  static AccSpec parse(const std::string& s);  // throws hifsim::Error naming --acc
  std::string name() const;
};

class Accumulator {
 public:
  explicit Accumulator(const AccSpec& spec = {}) : spec_(spec) {}
  void reset(float init = 0.0f);
  void add(const DotResult& d);
  void add_value(float v);       // an FP32 value (for kulisch: added exactly)
  float result() const;          // NaN canonicalised to 0x7FC00000
  float state() const { return acc_; }  // the FP32 register (fp32 kinds)
  const AccSpec& spec() const { return spec_; }

 private:
  AccSpec spec_;
  float acc_ = 0.0f;
  ExactSum sum_;
};

}  // namespace hifsim::dp
