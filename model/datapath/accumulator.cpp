#include "datapath/accumulator.hpp"

#include <cstdlib>

#include "datapath/fp_add.hpp"
#include "formats/bits.hpp"
#include "util/error.hpp"

namespace hifsim::dp {

AccSpec AccSpec::parse(const std::string& s) {
  AccSpec a;
  if (s == "fp32") return a;
  if (s == "kulisch") {
    a.kind = kulisch;
    return a;
  }
  // fp32-m<bits>-rz | fp32-m<bits>-rne
  if (s.rfind("fp32-m", 0) == 0) {
    const size_t dash = s.find('-', 6);
    if (dash != std::string::npos) {
      const std::string bits = s.substr(6, dash - 6), mode = s.substr(dash + 1);
      char* end = nullptr;
      const long b = std::strtol(bits.c_str(), &end, 10);
      if (!bits.empty() && *end == '\0' && (mode == "rz" || mode == "rne")) {
        if (b < 1 || b > 23) throw Error("--acc", s, "mantissa bits must be in [1, 23]");
        a.kind = fp32_reduced;
        a.mant_bits = static_cast<int>(b);
        a.mode = mode == "rz" ? RoundMode::rz : RoundMode::rne;
        return a;
      }
    }
  }
  throw Error("--acc", s, "expected fp32, fp32-m<bits>-rz, fp32-m<bits>-rne or kulisch");
}

std::string AccSpec::name() const {
  switch (kind) {
    case fp32: return "fp32";
    case kulisch: return "kulisch";
    case fp32_reduced: return "fp32-m" + std::to_string(mant_bits) + (mode == RoundMode::rz ? "-rz" : "-rne");
  }
  return "?";
}

void Accumulator::reset(float init) {
  sum_.clear();
  if (spec_.kind == AccSpec::kulisch) {
    acc_ = 0.0f;
    sum_.add(ExactValue::from_float(init));
  } else if (spec_.kind == AccSpec::fp32_reduced) {
    acc_ = fp_round(init, spec_.mant_bits + 1, spec_.mode);
  } else {
    acc_ = init;
  }
}

void Accumulator::add_value(float v) {
  switch (spec_.kind) {
    case AccSpec::fp32: acc_ = acc_ + v; break;  // host IEEE binary32 addition, RNE
    case AccSpec::fp32_reduced: acc_ = fp_add(acc_, v, spec_.mant_bits + 1, spec_.mode); break;
    case AccSpec::kulisch: sum_.add(ExactValue::from_float(v)); break;
  }
}

void Accumulator::add(const DotResult& d) {
  if (spec_.kind == AccSpec::kulisch) sum_.add(d.exact);
  else add_value(d.value);
}

float Accumulator::result() const {
  float r = spec_.kind == AccSpec::kulisch ? sum_.round() : acc_;
  if (r != r) r = fmt::f32_nan();
  return r;
}

}  // namespace hifsim::dp
