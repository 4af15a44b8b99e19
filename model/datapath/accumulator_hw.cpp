// The hardware of the FP32-family accumulator (accumulator.hpp; rtl/fp32_acc.sv): an FP adder
// and the register, and the nets one accumulation step toggles.
#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "datapath/accumulator.hpp"
#include "datapath/hw.hpp"
#include "util/error.hpp"

namespace hifsim::dp::hw {
namespace {

int mant_bits(const AccSpec& a) { return a.kind == AccSpec::fp32 ? 23 : a.mant_bits; }

uint32_t fbits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

}  // namespace

int acc_register_bits(const AccSpec& a) { return 1 + 8 + mant_bits(a); }

UnitDesc describe_acc(const AccSpec& a) {
  if (a.kind == AccSpec::kulisch) throw Error("cost", "accumulator", "kulisch is not modelled");
  const int mb = mant_bits(a);
  const int rz = a.kind == AccSpec::fp32_reduced && a.mode == RoundMode::rz ? 1 : 0;
  UnitDesc d;
  d.rtl_top = "fp32_acc";
  d.rtl_params = {{"MANT_BITS", mb}, {"ROUND_RZ", rz}};
  d.label = a.name();
  d.cut_masks = {0};
  d.parts = {{"acc.fpadd", Kind::fpadd, mb, rz, 1, true, false, "FP32-range adder (rtl/fp32_acc.sv, fitted directly)"},
             {"acc.reg", Kind::reg, acc_register_bits(a), 0, 1, true, false, "accumulator register"}};
  d.operand_bits = 32;
  d.rtl_signals = {{"acc_q", acc_register_bits(a)}};
  return d;
}

// The nets of the FP adder (both exponents, the alignment distance, the smaller significand
// before and after alignment with 3 guard bits, the larger one, the 28-bit sum, the result) and
// the register (sign, exponent, the register's mantissa bits).
void acc_nets(float acc, float d, float res, const AccSpec& a, NetSink& s) {
  const uint32_t ua = fbits(acc), ub = fbits(d), ur = fbits(res);
  const int ea = static_cast<int>((ua >> 23) & 0xFF), eb = static_cast<int>((ub >> 23) & 0xFF);
  const uint32_t sa = (ea ? 0x800000u : 0) | (ua & 0x7FFFFF), sb = (eb ? 0x800000u : 0) | (ub & 0x7FFFFF);
  const bool a_big = ea > eb || (ea == eb && sa >= sb);
  const uint32_t big = a_big ? sa : sb, small = a_big ? sb : sa;
  const int diff = std::min(std::abs(ea - eb), 31);
  const uint64_t aligned = diff >= 27 ? 0 : ((static_cast<uint64_t>(small) << 3) >> diff);
  const bool sub = ((ua ^ ub) >> 31) != 0;
  const uint64_t bigx = static_cast<uint64_t>(big) << 3;
  const uint64_t sum = sub ? bigx - aligned : bigx + aligned;
  s.net("acc.fpadd", ea, 8);
  s.net("acc.fpadd", eb, 8);
  s.net("acc.fpadd", diff, 5);
  s.net("acc.fpadd", small, 24);
  s.net("acc.fpadd", aligned, 27);
  s.net("acc.fpadd", bigx, 27);
  s.net("acc.fpadd", sum, 28);
  s.net("acc.fpadd", ur, 32);
  const int mb = mant_bits(a);
  s.net("acc.reg", ur >> (23 - mb), 9 + mb);
}

}  // namespace hifsim::dp::hw
