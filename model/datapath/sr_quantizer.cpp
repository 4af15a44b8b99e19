#include "datapath/sr_quantizer.hpp"

#include <cmath>
#include <string>

#include "formats/bits.hpp"
#include "formats/hif4.hpp"
#include "formats/minifloat.hpp"
#include "formats/stochastic.hpp"
#include "util/error.hpp"

namespace hifsim::dp {

const char* sr_elem_name(SrElem e) {
  switch (e) {
    case SrElem::nvfp4_e2m1: return "nvfp4";
    case SrElem::hif4_s1p2: return "hif4";
    case SrElem::mxfp4_e2m1: return "mxfp4";
  }
  return "?";
}

SrQuantizer::SrQuantizer(SrElem elem, unsigned bits) : elem_(elem), bits_(bits) { fmt::validate_sr_bits(bits); }

void SrQuantizer::compute(const SrqInput& in, SrqStages& s) const {
  const unsigned L = fmt::sr_lanes(bits_);
  if (in.lane >= L)
    throw Error("sr_quantizer", "lane", std::to_string(in.lane) + " is not below L = " + std::to_string(L));
  const fmt::SrStream st{in.seed, in.stream, bits_};
  // Index i = group * L + lane + k, with the group's 32 bits wrapping as the model's counter does.
  const uint64_t first = static_cast<uint64_t>(in.group) * L + in.lane;
  for (int k = 0; k < kSrqLanes; ++k) {
    s.r[k] = fmt::sr_draw(st, first + static_cast<uint64_t>(k));
    const uint64_t w = fmt::sr_word(s.r[k], bits_);
    const uint32_t b = fmt::f32_bits(in.a[k]);
    const float mag = fmt::bits_f32(b & 0x7FFFFFFFu);
    const bool e2m1 = elem_ != SrElem::hif4_s1p2;
    if (elem_ == SrElem::mxfp4_e2m1 && !std::isfinite(mag)) {
      s.code[k] = 0;  // the MX special block: every code 0, unsigned
    } else if (e2m1) {
      fmt::MiniFloatEncode o;
      o.rounding = fmt::Rounding::stochastic;
      o.saturate = true;
      o.rbits = w;
      s.code[k] = fmt::minifloat_encode(fmt::kE2M1, in.a[k], o);
    } else {
      s.code[k] = static_cast<uint8_t>(((b >> 31) << 3) | fmt::hif4_element_sr(static_cast<double>(mag), w));
    }
    // T for the coverage and the net trace: the quantum is 2^(e - 1) (E2M1, e = max(floor(log2), 0))
    // or 1 (S1P2); T = floor(frac * 2^B), exact in double for a finite FP32.
    double t = 0.0;
    if (std::isfinite(mag) && mag < (e2m1 ? 8.0f : 7.0f)) {
      const int e = e2m1 ? std::max(std::ilogb(mag == 0.0f ? 1.0f : mag), 0) - 1 : 0;
      const double y = std::ldexp(static_cast<double>(mag), -e);
      t = std::floor(std::ldexp(y - std::floor(y), static_cast<int>(bits_)));
    }
    s.t[k] = static_cast<uint32_t>(t);
  }
}

}  // namespace hifsim::dp
