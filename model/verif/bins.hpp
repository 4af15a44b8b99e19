// Coverage bins the unit benches share (model/verif/*_bench.cpp): the result and rounding classes
// of an FP32 output, the IEEE special cases of a dot product, the E2M1 element bins, and the
// edges of an aligned dot's window.
#pragma once
#include <climits>
#include <cstdint>
#include <cstdio>
#include <string>

#include "datapath/aligned_dot.hpp"
#include "datapath/element.hpp"
#include "datapath/exact.hpp"
#include "formats/bits.hpp"
#include "verif/coverage.hpp"
#include "verif/stimulus.hpp"

namespace hifsim::verif {

// The result and rounding bins of one FP32 output, from its exact value
// (stim::classify_fp32_round), declared in this order with a prefix:
//   result.zero, result.zero_cancellation, result.positive, result.negative,
//   [range] result.subnormal, result.overflow_inf, result.underflow_to_zero,
//           result.underflow_to_neg_zero,
//   round.exact, [rounding] round.inexact, round.tie_to_even_down, round.tie_to_even_up,
//           round.carry_into_exponent.
// Leave out `range` for results that never leave the normal range, `rounding` for sums that
// always fit 24 bits; a bin not declared (-1) is never hit.
struct Fp32ResultBins {
  int zero = -1, cancel = -1, pos = -1, neg = -1, sub = -1, ovf = -1, uz = -1, unz = -1;
  int exact = -1, inexact = -1, tie_down = -1, tie_up = -1, carry = -1;

  void declare(Coverage& c, const std::string& prefix, bool range = true, bool rounding = true) {
    zero = c.declare(prefix + "result.zero");
    cancel = c.declare(prefix + "result.zero_cancellation");
    pos = c.declare(prefix + "result.positive");
    neg = c.declare(prefix + "result.negative");
    if (range) {
      sub = c.declare(prefix + "result.subnormal");
      ovf = c.declare(prefix + "result.overflow_inf");
      uz = c.declare(prefix + "result.underflow_to_zero");
      unz = c.declare(prefix + "result.underflow_to_neg_zero");
    }
    exact = c.declare(prefix + "round.exact");
    if (rounding) {
      inexact = c.declare(prefix + "round.inexact");
      tie_down = c.declare(prefix + "round.tie_to_even_down");
      tie_up = c.declare(prefix + "round.tie_to_even_up");
      carry = c.declare(prefix + "round.carry_into_exponent");
    }
  }

  // Counts a finite exact result `v`; a zero is a cancellation if `nonzero_terms` (some term of
  // the sum was nonzero).
  void count(Coverage& c, const dp::ExactValue& v, bool nonzero_terms) const {
    auto hit = [&c](int id) {
      if (id >= 0) c.hit(id);
    };
    const stim::RoundClass rc = stim::classify_fp32_round(v);
    if (rc.zero) {
      hit(zero);
      if (nonzero_terms) hit(cancel);
      return;
    }
    hit(v.neg ? neg : pos);
    hit(rc.exact ? exact : inexact);
    if (rc.tie) hit(rc.up ? tie_up : tie_down);
    if (rc.carry) hit(carry);
    if (rc.subnormal && !rc.to_zero) hit(sub);
    if (rc.overflow) hit(ovf);
    if (rc.to_zero) hit(v.neg ? unz : uz);
  }
};

// The IEEE special cases among the element pairs of a dot product: a NaN element, Inf x 0, and
// Inf products of either sign.
struct ElemSpecials {
  bool nan = false, inf_zero = false, pinf = false, ninf = false;
  void add(const dp::Elem& x, const dp::Elem& y) {
    if (x.kind == dp::Elem::nan || y.kind == dp::Elem::nan) nan = true;
    else if (x.kind == dp::Elem::inf || y.kind == dp::Elem::inf) {
      if ((x.kind == dp::Elem::num && !x.sig) || (y.kind == dp::Elem::num && !y.sig)) inf_zero = true;
      else ((x.neg != y.neg) ? ninf : pinf) = true;
    }
  }
};

// One bin per special case; count() hits the one that decides the result (a NaN element, else
// Inf x 0, else +Inf + -Inf, else +Inf, else -Inf). A bin left at -1 is never hit.
struct SpecialBins {
  int nan = -1, inf_zero = -1, inf_inf = -1, pos_inf = -1, neg_inf = -1;

  // special.nan_element, special.inf_times_zero, special.pinf_plus_ninf, special.pos_inf, special.neg_inf.
  void declare(Coverage& c) {
    nan = c.declare("special.nan_element");
    inf_zero = c.declare("special.inf_times_zero");
    inf_inf = c.declare("special.pinf_plus_ninf");
    pos_inf = c.declare("special.pos_inf");
    neg_inf = c.declare("special.neg_inf");
  }

  void count(Coverage& c, const ElemSpecials& e) const {
    int id = -1;
    if (e.nan) id = nan;
    else if (e.inf_zero) id = inf_zero;
    else if (e.pinf && e.ninf) id = inf_inf;
    else if (e.pinf) id = pos_inf;
    else if (e.ninf) id = neg_inf;
    if (id >= 0) c.hit(id);
  }
};

// The bins of the HiF4 scale tree (hif4_dot64, and sparse_residual_add, whose dot is HiF4's):
// for each level-2 group with a nonzero sum, the shift 0..2 that the two operands' E1_8 bits give
// it (l2.g<i>.shift<s>); for each level-3 group with a nonzero product, the pair of the operands'
// E1_16 bits (l3.g<j>.<xy><bit x><bit y>, `xy` naming the two operands).
struct Hif4ScaleTreeBins {
  int l2 = -1, l3 = -1;

  void declare(Coverage& c, const std::string& xy) {
    l2 = c.declare_each(8 * 3, [](int k) { return "l2.g" + std::to_string(k / 3) + ".shift" + std::to_string(k % 3); });
    l3 = c.declare_each(16 * 4, [&](int k) {
      return "l3.g" + std::to_string(k / 4) + "." + xy + std::to_string((k >> 1) & 1) + std::to_string(k & 1);
    });
  }

  // `group`: the 8 level-2 sums; `x`, `y`: the operands' scales (e1_8, e1_16); `l3_nonzero(j)`:
  // level-3 group j has a nonzero product.
  template <class ScaleX, class ScaleY, class L3Nonzero>
  void count(Coverage& c, const int16_t* group, const ScaleX& x, const ScaleY& y, L3Nonzero l3_nonzero) const {
    for (int i = 0; i < 8; ++i)
      if (group[i]) c.hit(l2 + 3 * i + ((x.e1_8 >> i) & 1) + ((y.e1_8 >> i) & 1));
    for (int j = 0; j < 16; ++j)
      if (l3_nonzero(j)) c.hit(l3 + 4 * j + 2 * ((x.e1_16 >> j) & 1) + ((y.e1_16 >> j) & 1));
  }
};

// The element bins of an E2M1 dot product (sign bit 3): prod.sign.{pp,pn,np,nn} of the nonzero
// products p[k] = A[k] x B[k], and elem.neg_zero_code (an element code 8, -0).
struct E2m1ElemBins {
  int psign = -1, negzero = -1;

  void declare(Coverage& c) {
    psign = c.declare_group("prod.sign.", {"pp", "pn", "np", "nn"});
    negzero = c.declare("elem.neg_zero_code");
  }

  void count(Coverage& c, const uint8_t* ca, const uint8_t* cb, const int16_t* p, int n) const {
    for (int k = 0; k < n; ++k) {
      if (p[k]) c.hit(psign + 2 * ((ca[k] >> 3) & 1) + ((cb[k] >> 3) & 1));
      if (ca[k] == 8 || cb[k] == 8) c.hit(negzero);
    }
  }
};

// The alignment bins of an aligned dot's products (hif8_dot, bf16_dot64), one set per parameter
// set with prefix <p>:
//   <p>gap.<g>, g < ngap            a nonzero product g binades below the largest (Emax)
//   <p>gap.<window>+_out_of_window  a product entirely below the window (if `out`)
//   <p>drop.partial                 a product that keeps some bits in the window and loses others (if `drop`)
//   <p>sticky.jam_bit_set           a product's sticky bit set by the bits it lost (if `jam`)
struct AlignedGapBins {
  int gap = -1, ngap = 0, out = -1, drop_part = -1, jam = -1;

  void declare(Coverage& c, const std::string& p, int gaps, int window, bool with_out, bool drop, bool with_jam) {
    ngap = gaps;
    gap = c.declare_each(gaps, [&](int g) { return p + "gap." + std::to_string(g); });
    out = with_out ? c.declare(p + "gap." + std::to_string(window) + "+_out_of_window") : -1;
    drop_part = drop ? c.declare(p + "drop.partial") : -1;
    jam = with_jam ? c.declare(p + "sticky.jam_bit_set") : -1;
  }

  // Counts the first n products of `st` (pbits bits each) in a window of `window` bits; returns
  // whether any product is nonzero.
  bool count(Coverage& c, const dp::AlignedDotStages& st, int n, int window, int pbits) const {
    bool any = false;
    for (int k = 0; k < n; ++k) {
      const size_t kk = static_cast<size_t>(k);
      if (!st.psig[kk]) continue;
      any = true;
      const int g = st.emax - (st.pexp[kk] + pbits);
      if (g < ngap) c.hit(gap + g);
      else if (out >= 0) c.hit(out);
      if (st.dropped[kk]) {
        if (g < window && drop_part >= 0) c.hit(drop_part);
        if (jam >= 0 && (st.term[kk] & 1)) c.hit(jam);
      }
    }
    return any;
  }
};

// Bins at the edges of an aligned dot's window (hif8_dot, bf16_dot64) for two bugs the random
// sources almost never reach, with the directed vectors that hit them (aligned_edge_corners):
//   <p>sticky.only_highest_dropped_bit_set  (sticky windows) a product loses bits below the window
//        and only the highest of them is 1: the sticky bit then depends on counting every lost bit
//   <p>zero_product_above_window  a zero product (0 x a large value) whose exponent lies more than
//        the window above the largest nonzero product's: a maximum-exponent tree that let zero
//        products in would push the nonzero products out of the window
struct WindowEdgeBins {
  int top_drop = -1, zero_above = -1;

  // Declares the bins the parameter set can reach: `drop` (a sticky window that can lose bits),
  // `zero` (zero products can lie that far above the nonzero ones).
  void declare(Coverage& c, const std::string& prefix, bool drop, bool zero) {
    top_drop = drop ? c.declare(prefix + "sticky.only_highest_dropped_bit_set") : -1;
    zero_above = zero ? c.declare(prefix + "zero_product_above_window") : -1;
  }

  // `zero_exp[k]`: the exponent sum of lane k's elements when its product is zero and both are
  // numbers (what the RTL's exponent tree sees), else INT_MIN. `window`: W plus the sticky bit.
  void count(Coverage& c, const dp::AlignedDotStages& st, const int* zero_exp, int n, int window, int pbits) const {
    if (st.psig.empty() || st.emax == INT_MIN) return;
    const int drop_from = window - pbits;  // a product at gap g loses g - drop_from bits
    for (int k = 0; k < n; ++k) {
      const size_t kk = static_cast<size_t>(k);
      if (st.psig[kk]) {
        const int lost = st.emax - (st.pexp[kk] + pbits) - drop_from;
        if (top_drop >= 0 && lost >= 1 && lost <= pbits && ((st.psig[kk] >> (lost - 1)) & 1) &&
            (st.psig[kk] & ((1u << (lost - 1)) - 1)) == 0)
          c.hit(top_drop);
      } else if (zero_above >= 0 && zero_exp[k] != INT_MIN && zero_exp[k] - (st.emax - pbits) > drop_from) {
        c.hit(zero_above);
      }
    }
  }
};

// The bins of one parameter set of an aligned-dot unit (hif8_dot, bf16_dot64).
struct AlignedDotBins {
  AlignedGapBins gaps;
  WindowEdgeBins edge;
  Fp32ResultBins result;
};

// The model line of one parameter set of an aligned-dot unit (hifsim::dp::AlignedDotStages):
// "model <name>: Emax=.. L=.. exact .. -> 0x........ (value)\n".
inline std::string aligned_model_line(const std::string& name, const dp::AlignedDotStages& st, const dp::ExactValue& exact) {
  char line[256];
  std::snprintf(line, sizeof line, "model %s: Emax=%d L=%d exact %s -> 0x%08x (%a)\n", name.c_str(), st.emax, st.lsb,
                exact.str().c_str(), st.out_bits, static_cast<double>(fmt::bits_f32(st.out_bits)));
  return line;
}

}  // namespace hifsim::verif
