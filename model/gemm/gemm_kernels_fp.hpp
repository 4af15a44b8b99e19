// Tile kernel of the fp family (MXFP8, FP8, HiF8, BF16): MR rows of A x one panel of NR = NV * LD
// columns of B, elements as doubles. Included only by gemm_variant_*.cpp (see gemm_simd.hpp).
//
// Per block of w elements D = sum_k a_k * b_k in double, in k order. Every product is exact
// (element significands have <= 8 bits). The sum is exact for E4M3 elements (every partial
// sum is a multiple of 2^-18 below 2^23), so `check == false` converts it directly. For the
// other elements it is exact when the block's products span few enough bits (spanf, see
// tile::Call::exact_limit) -- and then it must be converted as is: these sums are often
// exactly halfway between two floats, where only the exact value decides. Otherwise the
// block value d = D * scale may be rounded, and is compared against the FP32 rounding
// boundaries:
//   |D - exact| <= w * 2^-53 * sum|a_k b_k| <= 2^-47 * |a|_2 |b|_2         (Cauchy-Schwarz)
//   bound = 2^-45 |a|_2 |b|_2 (+ the alignment window's error) + 2^-50 |d|   (4x margin, and
//           the rounding of lo/hi below)
//   lo = d - bound, hi = d + bound: if both round to the same float, so does every value in
//   [lo, hi] -- the exact sum (and the windowed sum) included, since RNE is monotonic.
// A finite alignment window W changes the unit's sum by less than w * 2^(Emax - W) with
// Emax <= emaxA + emaxB + pbits; FpB::wmax carries that bound. Where the check fails the
// block is recomputed by the unit (fixup) or flagged (emit). Specials need no care: double
// arithmetic gives NaN for NaN inputs, Inf*0 and Inf-Inf, and +-Inf otherwise, exactly as
// the units do, and lo == hi == d then.
#pragma once
#include "gemm/gemm_kernels_int8.hpp"

namespace hifsim::dp::HIFSIM_VARIANT_NS {

// One vector of block values d (row r, lanes col0..col0+LD-1 of the tile) leaves the block:
// with the FP32 accumulator its FP32 value `val` -- lanes in `bad` recomputed by the unit --
// is added to acc_row; with the other accumulators d is emitted with what it is worth per lane:
// kRecompute (bad), kExact (exact) or kRounds.
template <int MR, int NR>
HIFSIM_INLINE void fp_lanes_out(const tile::Call& t, size_t blk, int r, int col0, Isa::VD d, Isa::VH val, unsigned bad,
                                unsigned exact, float* acc_row) {
  constexpr int LD = Isa::LD;
  if (!t.emit) {
    if (bad) {
      alignas(64) float tmp[LD];
      Isa::store_h(tmp, val);
      fix_lanes(t, blk, r, col0, tmp, LD, bad);
      val = Isa::load_h(tmp);
    }
    Isa::store_h(acc_row + col0, Isa::add_h(Isa::load_h(acc_row + col0), val));
  } else {
    const size_t base = (blk * MR + r) * NR + col0;
    Isa::store_d(t.emit_val + base, d);
    for (int l = 0; l < LD; ++l)
      t.emit_ok[base + l] = ((bad >> l) & 1) ? tile::kRecompute : ((exact >> l) & 1) ? tile::kExact : tile::kRounds;
  }
}

template <int MR, int NV, bool kCheck>
void fp_tile(const tile::Call& t, const tile::FpA& a, const tile::FpB& b) {
  using VD = Isa::VD;
  using VH = Isa::VH;
  constexpr int LD = Isa::LD, NR = NV * LD;
  const size_t nblk = t.nblk;
  const int w = t.width;
  alignas(64) float acc[MR][NR] = {};
  const VD margin = Isa::set1_d(0x1p-50), limit = Isa::set1_d(t.exact_limit);
  for (size_t blk = 0; blk < nblk; ++blk) {
    VD D[MR][NV];
    for (int r = 0; r < MR; ++r)
      for (int v = 0; v < NV; ++v) D[r][v] = Isa::zero_d();
    const double* bx = b.x + blk * w * NR;
    const double* ax = a.x + blk * w * MR;
    for (int k = 0; k < w; ++k) {
      VD bv[NV];
      for (int v = 0; v < NV; ++v) bv[v] = Isa::load_d(bx + k * NR + v * LD);
      for (int r = 0; r < MR; ++r) {
        const VD av = Isa::set1_d(ax[k * MR + r]);
        for (int v = 0; v < NV; ++v) D[r][v] = Isa::fma_exact_d(av, bv[v], D[r][v]);
      }
    }
    for (int r = 0; r < MR; ++r) {
      const size_t ia = r * nblk + blk;
      const VD sa = Isa::set1_d(a.scale[ia]);
      for (int v = 0; v < NV; ++v) {
        const size_t ib = blk * NR + v * LD;
        const VD d = Isa::mul_d(D[r][v], Isa::mul_d(sa, Isa::load_d(b.scale + ib)));  // powers of two: exact
        VH val;
        unsigned bad = 0;
        unsigned exact = (1u << LD) - 1;
        if (kCheck) {
          VD bound = Isa::fma_d(Isa::set1_d(a.norm[ia]), Isa::load_d(b.norm + ib), Isa::mul_d(Isa::abs_d(d), margin));
          if (t.window) bound = Isa::fma_d(Isa::set1_d(a.wmax[ia]), Isa::load_d(b.wmax + ib), bound);
          const VD span = Isa::mul_d(Isa::set1_d(a.spanf[ia]), Isa::load_d(b.spanf + ib));
          bound = Isa::zero_le_d(bound, span, limit);  // exact lanes: no bound
          if (t.emit) exact = Isa::le_bits_d(span, limit);
          val = Isa::h_from_d(Isa::sub_d(d, bound));
          const VH up = Isa::h_from_d(Isa::add_d(d, bound));
          bad = ~Isa::same_bits_h(val, up) & ((1u << LD) - 1);
        } else {
          val = Isa::h_from_d(d);
        }
        fp_lanes_out<MR, NR>(t, blk, r, v * LD, d, val, bad, exact, acc[r]);
      }
    }
  }
  if (t.emit) return;
  write_c<MR, NR>(t, &acc[0][0]);
}

// Narrow alignment windows (0 < W <= tile::max_double_window(w)): the unit's windowed sum
// itself, lane by lane (aligned_dot.hpp s2-s5), in doubles:
//   pass 1  E = max over the block's products of eA_k + eB_k (zero elements carry -inf), so
//           Emax = E + P and the window LSB is L = E + P - W
//   pass 2  t_k = floor(|a_k b_k| * 2^(W - P - E + s)), s = 1 for sticky (one bit below the
//           window), jammed to odd where bits were dropped; S += sign_k * t_k
//   value   S * 2^(E + P - W - s)
// |a_k b_k| < 2^(E + P), so t_k < 2^(W + s) and |S| < 2^(W + s + log2 w) <= 2^53: every
// step is exact, and so is the value (emitted as exact). Blocks with a NaN or Inf element
// are left to the unit (it handles specials before the window).
template <int MR, int NV, bool kSticky>
void fp_window_tile(const tile::Call& t, const tile::FpA& a, const tile::FpB& b) {
  using VD = Isa::VD;
  using VH = Isa::VH;
  constexpr int LD = Isa::LD, NR = NV * LD, S = kSticky ? 1 : 0;
  const size_t nblk = t.nblk;
  const int w = t.width;
  alignas(64) float acc[MR][NR] = {};
  const VD floor_e = Isa::set1_d(-900.0);
  const VD up = Isa::set1_d(t.window_width - t.pbits + S), down = Isa::set1_d(t.pbits - t.window_width - S);
  for (size_t blk = 0; blk < nblk; ++blk) {
    const double* bx = b.x + blk * w * NR;
    const double* be = b.e + blk * w * NR;
    const double* ax = a.x + blk * w * MR;
    const double* ae = a.e + blk * w * MR;
    VD E[MR][NV];
    for (int r = 0; r < MR; ++r)
      for (int v = 0; v < NV; ++v) E[r][v] = floor_e;
    for (int k = 0; k < w; ++k)
      for (int r = 0; r < MR; ++r) {
        const VD ea = Isa::set1_d(ae[k * MR + r]);
        for (int v = 0; v < NV; ++v) E[r][v] = Isa::max_d(E[r][v], Isa::add_d(ea, Isa::load_d(be + k * NR + v * LD)));
      }
    VD sum[MR][NV], scale[MR][NV];
    for (int r = 0; r < MR; ++r)
      for (int v = 0; v < NV; ++v) {
        sum[r][v] = Isa::zero_d();
        scale[r][v] = Isa::pow2_d(Isa::sub_d(up, E[r][v]));
      }
    for (int k = 0; k < w; ++k) {
      VD bv[NV];
      for (int v = 0; v < NV; ++v) bv[v] = Isa::load_d(bx + k * NR + v * LD);
      for (int r = 0; r < MR; ++r) {
        const VD av = Isa::set1_d(ax[k * MR + r]);
        for (int v = 0; v < NV; ++v) {
          const VD p = Isa::mul_d(av, bv[v]);
          const VD x = Isa::mul_d(Isa::abs_d(p), scale[r][v]);
          VD tk = Isa::floor_d(x);
          if (kSticky) tk = Isa::jam_d(x, tk);
          sum[r][v] = Isa::add_d(sum[r][v], Isa::copysign_d(tk, p));
        }
      }
    }
    for (int r = 0; r < MR; ++r) {
      const bool a_special = a.special[r * nblk + blk];
      for (int v = 0; v < NV; ++v) {
        const VD d = Isa::mul_d(sum[r][v], Isa::pow2_d(Isa::add_d(E[r][v], down)));
        unsigned bad = 0;
        for (int l = 0; l < LD; ++l)
          if (a_special || b.special[blk * NR + v * LD + l]) bad |= 1u << l;
        VH val = Isa::h_from_d(d);
        fp_lanes_out<MR, NR>(t, blk, r, v * LD, d, val, bad, ~0u, acc[r]);  // windowed sums are exact
      }
    }
  }
  if (t.emit) return;
  write_c<MR, NR>(t, &acc[0][0]);
}

}  // namespace hifsim::dp::HIFSIM_VARIANT_NS
