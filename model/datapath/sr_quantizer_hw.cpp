// The hardware of the stochastic-rounding element quantizer (sr_quantizer.hpp; rtl/sr_quantizer.sv):
// W = SrqBounds::words(B) Threefry-2x32-20 cores in parallel, unrolled, pipelined at their key
// injections; a lane select per element; the element rounding (T + r >= 2^B). Widths from B.
#include "datapath/hw.hpp"
#include "datapath/sr_quantizer.hpp"
#include "formats/stochastic.hpp"

namespace hifsim::dp::hw {
namespace {

Component c(const char* name, Kind k, int p1, int p2, int count, const char* what) {
  return {name, k, p1, p2, count, false, false, what};
}

std::vector<PkgConst> pkg() {
  std::vector<PkgConst> p = {{"SRQ_LANES", kSrqLanes, "elements per operation"},
                             {"SRQ_TF_ROUNDS", fmt::kThreefryRounds, "Threefry-2x32 rounds"},
                             {"SRQ_TF_PARITY", static_cast<long long>(fmt::kThreefryParity), "key schedule parity constant (Threefry-2x32)"},
                             {"SRQ_E2M1_SAT", 0x41000000, "FP32 bits of 8.0: E2M1 saturates from here (FMT 0)"},
                             {"SRQ_S1P2_SAT", 0x40E00000, "FP32 bits of 7.0: S1P2 saturates from here (FMT 1)"}};
  for (int r = 0; r < 8; ++r)
    p.push_back({"SRQ_TF_R" + std::to_string(r), static_cast<long long>(fmt::kThreefryRot[r]), r ? "" : "rotations R[r mod 8]"});
  return p;
}

}  // namespace

UnitDesc describe_sr_quantizer(SrElem elem, unsigned bits, int stages) {
  const int B = static_cast<int>(bits), L = SrqBounds::lanes_per_word(bits), W = SrqBounds::words(bits);
  const int a_bits = 32 * kSrqLanes, code_bits = 4 * kSrqLanes, lane_bits = 6;
  UnitDesc d;
  d.rtl_top = "sr_quantizer";
  d.rtl_params = {{"STAGES", stages}, {"SR_BITS", B}, {"FMT", static_cast<int>(elem)}};
  d.label = std::string(sr_elem_name(elem)) + " SR element quantizer x16 B=" + std::to_string(B);
  d.stages = stages;
  // Candidate ranks: after each of the five key injections (rounds 3, 7, 11, 15, 19; the W
  // states, the seed, the lane and the elements travel) and the output register.
  d.cut_masks = {0b000000, 0b100000, 0b100100, 0b101010, 0b110101, 0b101111, 0b111111};
  const int t_bits = 64 * W + 64 + lane_bits + a_bits;
  for (int s = 1; s <= 5; ++s) d.cuts.push_back({"t" + std::to_string(s), "u_cut_t" + std::to_string(s), t_bits});
  d.cuts.push_back({"q", "u_cut_q", code_bits});
  d.parts = {
      c("sr.ctr_add", Kind::add, 32, 0, W - 1, "counter c0 = group + w per Threefry core"),
      c("sr.key", Kind::mux, 32, 2, 2, "k2 = parity ^ k0 ^ k1 (xor priced as a 2:1 mux)"),
      c("sr.key_add", Kind::add, 32, 0, 5, "injected key word + s, shared by the cores"),
      c("sr.tf_add", Kind::add, 32, 0, W * 32, "Threefry adds: 2 input, 20 round, 10 injection"),
      c("sr.tf_xor", Kind::mux, 32, 2, W * 20, "Threefry round xors (priced as 2:1 muxes; rotations are wiring)"),
      c("sr.lane_sel", Kind::mux, B, W * L, kSrqLanes, "each element's B bits out of the W words"),
      c("sr.elem_frac", Kind::shift, 24, 6, kSrqLanes, "discarded fraction aligned to its quantum: T"),
      c("sr.elem_carry", Kind::add, B + 1, 0, kSrqLanes, "T + r >= 2^B (the carry out)"),
      c("sr.elem_code", Kind::add, 4, 0, kSrqLanes,
        "kept magnitude + carry, code, saturation and specials (MXFP4: Inf, NaN to 0)"),
  };
  d.operand_bits = a_bits + 64 + 32 + 32 + lane_bits;
  d.cut_rule = "sr_quantizer";
  d.rtl_signals = {{"t5_state", 64 * W}, {"q_r", B * kSrqLanes}, {"q_codes", code_bits}};
  d.stage_table = {{"in", "a[k], FP32 scaled elements", "finite, Inf, NaN", "32"},
                   {"t1..t5", "Threefry state per core after injection s", "mod 2^32", std::to_string(W) + " x 64"},
                   {"q", "r[k]: B bits of lane (lane + k) mod L of word (lane + k) div L", "0 .. 2^B - 1", std::to_string(B)},
                   {"q", "T[k]: top B bits of the discarded fraction", "0 .. 2^B - 1", std::to_string(B)},
                   {"q", "code[k]", "sign | 0..7", "4"}};
  d.pkg = pkg();
  return d;
}

}  // namespace hifsim::dp::hw
