// Tile kernel of the fp family (MXFP8, FP8, HiF8, BF16) on integers, for the FP32 accumulator:
// MR rows of A x one panel of NR = NV * L columns of B. Included only by gemm_variant_*.cpp
// (see gemm_simd.hpp).
//
// Packing (gemm_pack.cpp, tile::FpiA/FpiB) writes every operand block of w elements as int16
// q_k over one power of two, value_k = q_k 2^e. Then per block and output
//   S = sum_k qA_k qB_k   int16 pairs multiplied and summed in int32 (vpmaddwd)
// is exact when |qA|_2 |qB|_2 < 2^31 (Cauchy-Schwarz bounds |S|; the int32 arithmetic wraps,
// so only the final sum must fit), and the block's exact value is S 2^(eA + eB). The unit rounds
// that value once to FP32 (mxfp8_dot.hpp s4, aligned_dot.hpp s5): one int -> FP32 conversion
// (RNE of S) times the exact power of two 2^(eA + eB), which is the same while the result is a
// normal float (eA + eB in [-126, 96]: |S| < 2^31). With an alignment window W the unit's sum is
// that exact sum when no product bit falls below the window: dA + dB <= W - P. An int16 form has
// d <= tile::kFpiMaxD = 14 (its elements' bits span at most 15 binades), so the engine runs this
// kernel only where W - P >= 2 kFpiMaxD (gemm_driver.cpp: every window it runs it for, W >= 47,
// has W - P >= 31) and the kernel needs no per-output spread check.
// Outputs whose sum may not fit int32 take the same sum in scalar int64; every other output of
// the block -- a NaN/Inf element or scale, a spread too wide for int16, a subnormal or huge
// result -- is computed by fixup (gemm_fpi_exact.hpp: exact scalar code, or the unit).
// Both count in GemmRunInfo::slow_scale_blocks; unit calls in fallback_blocks.
#pragma once
#include "gemm/gemm_kernels_int8.hpp"

namespace hifsim::dp::HIFSIM_VARIANT_NS {

// One output's block sum in int64 from the packed int16 elements (A contiguous, B in pairs with
// a stride of NR pairs), as the unit's FP32 value S * 2^e (e in [-126, 91]: normal, exact scale).
HIFSIM_INLINE float fpi_lane_int64(const int16_t* a, const int16_t* b, int nr, int w, int32_t e) {
  int64_t S = 0;
  for (int k = 0; k < w; ++k) S += static_cast<int64_t>(a[k]) * b[(k >> 1) * nr * 2 + (k & 1)];
  const uint32_t bits = static_cast<uint32_t>(e + 127) << 23;
  float scale;
  std::memcpy(&scale, &bits, 4);
  return static_cast<float>(S) * scale;  // RNE of S (|S| < 2^36), then an exact power of two
}

template <int MR, int NV>
void fpi_tile(const tile::Call& t, const tile::FpiA& a, const tile::FpiB& b) {
  using VI = Isa::VI;
  using VF = Isa::VF;
  constexpr int L = Isa::L, NR = NV * L;
  const size_t K = t.K, nblk = t.nblk;
  const int w = t.width;
  alignas(64) float acc[MR][NR] = {};
  for (size_t blk = 0; blk < nblk; ++blk) {
    VI S[MR][NV];
    for (int r = 0; r < MR; ++r)
      for (int v = 0; v < NV; ++v) S[r][v] = Isa::zero_i();
    const int16_t* aq = a.q + blk * w;
    const int16_t* bq = b.q + blk * w * NR;
    for (int kp = 0; kp < w / 2; ++kp) {
      VI bv[NV];
      for (int v = 0; v < NV; ++v) bv[v] = Isa::load_i(bq + (kp * NR + v * L) * 2);
      for (int r = 0; r < MR; ++r) {
        const VI av = Isa::bcast4(reinterpret_cast<const int8_t*>(aq + r * K + 2 * kp));
        for (int v = 0; v < NV; ++v) S[r][v] = Isa::madd16(S[r][v], bv[v], av);
      }
    }
    for (int r = 0; r < MR; ++r) {
      const size_t ia = r * nblk + blk;
      const VF na = Isa::set1_f(a.norm[ia]);
      const VI ea = Isa::set1_i(a.e[ia]);
      for (int v = 0; v < NV; ++v) {
        const size_t ib = blk * NR + v * L;
        const VI e = Isa::add_i(ea, Isa::load_i(b.e + ib));
        const VF nn = Isa::mul_f(na, Isa::load_f(b.norm + ib));  // the block sum's bound
        const unsigned ok = Isa::le_f(nn, tile::kFpiNormLimit) & Isa::in_range_i(e, -126, 96);
        VF val = Isa::mul_f(Isa::cvt_f(S[r][v]), Isa::pow2_f(e));
        unsigned bad = ~ok & ((1u << L) - 1);
        if (bad) {
          // Lanes whose int16 forms hold the block but whose sum may not fit int32: the same sum
          // in int64 (|S| < 64 * 2^30), rounded once (int64 -> float) and scaled exactly (normal
          // while eA + eB <= 91). The rest go to fixup (gemm_fpi_exact.hpp).
          const unsigned wide = bad & Isa::le_f(nn, 0x1p127f) & Isa::in_range_i(e, -126, 91);
          alignas(64) float tmp[L];
          alignas(64) int32_t ev[L];
          Isa::store_f(tmp, val);
          Isa::store_i(ev, e);
          for (int l = 0; l < L; ++l) {
            if (!((wide >> l) & 1)) continue;
            bad &= ~(1u << l);
            if (static_cast<size_t>(r) >= t.rows || static_cast<size_t>(v * L + l) >= t.cols) continue;  // padding
            tmp[l] = fpi_lane_int64(aq + r * K, bq + (v * L + l) * 2, NR, w, ev[l]);
            if (t.slow_lanes) ++*t.slow_lanes;
          }
          fix_lanes(t, blk, r, v * L, tmp, L, bad);
          val = Isa::load_f(tmp);
        }
        Isa::store_f(acc[r] + v * L, Isa::add_f(Isa::load_f(acc[r] + v * L), val));
      }
    }
  }
  write_c<MR, NR>(t, &acc[0][0]);
}

}  // namespace hifsim::dp::HIFSIM_VARIANT_NS
