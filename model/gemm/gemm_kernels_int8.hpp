// Tile kernels of the int8 family (HiF4, NVFP4, MXFP4): MR rows of A x one panel of NR = NV * L
// columns of B, over the whole K. Included only by gemm_variant_*.cpp (see gemm_simd.hpp).
//
// Per sub-block the integer dot product sum_k qA*qB is exact in int32: B's codes carry a bias
// (tile::k*Bias) so one vpdpbusd multiplies unsigned by signed bytes, and each A row's int32
// accumulator starts at -bias * (sum of its codes), which cancels the bias exactly.
//   HiF4   one 64-block: value = I * (fA * fB). fA*fB has <= 6 significant bits and I < 2^17,
//          so the product is exact in FP32 and is the unit's output (hif4_dot.hpp, s7).
//   NVFP4  four 16-blocks: T = sum_j S_j * dB_j * dA_j in double. Each product is exact
//          (<= 20 significant bits) and every partial sum is a multiple of 2^-20 below 2^30:
//          exact. One conversion to FP32 is the unit's single rounding (nvfp4_dot.hpp, s7).
//   MXFP4  two 32-blocks: S0*2^X0 + S1*2^X1 in double, exact when |X0 - X1| <= 39
//          (13-bit terms fit 53 bits) or when S0 or S1 is 0; other blocks go to the unit.
#pragma once
#include "gemm/gemm_simd.hpp"
#include "gemm/gemm_tile.hpp"

namespace hifsim::dp::HIFSIM_VARIANT_NS {

// Writes one block's exact values of row r, columns col0.. to the emit buffers.
template <int MR, int NR>
HIFSIM_INLINE void emit_exact(const tile::Call& t, size_t blk, int r, int col0, const float* val, int n) {
  const size_t base = (blk * MR + static_cast<size_t>(r)) * NR + static_cast<size_t>(col0);
  for (int l = 0; l < n; ++l) {
    t.emit_val[base + l] = val[l];
    t.emit_ok[base + l] = tile::kExact;
  }
}

// Replaces the lanes of `val` (columns col0..) flagged in `bad` by the unit's result.
HIFSIM_INLINE void fix_lanes(const tile::Call& t, size_t blk, int r, int col0, float* val, int n, unsigned bad) {
  for (int l = 0; l < n; ++l) {
    if (!((bad >> l) & 1)) continue;
    const size_t col = static_cast<size_t>(col0 + l);
    if (static_cast<size_t>(r) >= t.rows || col >= t.cols) continue;  // padding: discarded
    val[l] = t.fixup(t.fixup_ctx, t.m0 + r, t.n0 + col, blk);
    ++*t.fixups;
  }
}

// C[m0 + r][n0 + c] = acc * alpha, NaN canonical (the FP32 epilogue of every format), for the
// tile's MR x NR accumulators (row stride NR); vector stores when the tile is whole.
template <int MR, int NR>
HIFSIM_INLINE void write_c(const tile::Call& t, const float* acc) {
  constexpr int L = Isa::L;
  if (t.rows == MR && t.cols == NR && NR % L == 0) {
    const Isa::VF alpha = Isa::set1_f(t.alpha);
    for (int r = 0; r < MR; ++r)
      for (int c = 0; c < NR; c += L)
        Isa::store_f(t.C + (t.m0 + r) * t.ldc + t.n0 + c, Isa::canon_nan_f(Isa::mul_f(Isa::load_f(acc + r * NR + c), alpha)));
    return;
  }
  for (size_t r = 0; r < t.rows; ++r)
    for (size_t c = 0; c < t.cols; ++c) {
      float v = acc[r * NR + c] * t.alpha;
      if (v != v) {
        const uint32_t qnan = 0x7FC00000u;
        std::memcpy(&v, &qnan, 4);
      }
      t.C[(t.m0 + r) * t.ldc + t.n0 + c] = v;
    }
}

// I[r][v] += the int8 dot products of `groups` groups of 4 k: A rows r (stride lda) broadcast
// against B's panel vectors (NR columns x 4 bytes per group). With Isa::kPairGroups the
// pair sums are first added in int16 (AVX2), else one dot4 per group (VNNI, portable).
// (S is Isa; a template parameter so that the branch a variant lacks is never instantiated.)
template <int MR, int NV, int GROUPS, class S = Isa>
HIFSIM_INLINE void int8_groups(typename S::VI (&I)[MR][NV], const int8_t* aq, size_t lda, const uint8_t* bq) {
  using VI = typename S::VI;
  constexpr int L = S::L, NR = NV * L;
  if constexpr (S::kPairGroups > 0) {
    constexpr int STAGE = GROUPS < S::kPairGroups ? GROUPS : S::kPairGroups;
    static_assert(GROUPS % STAGE == 0, "groups come in whole int16 stages");
    for (int g0 = 0; g0 < GROUPS; g0 += STAGE) {
      VI P[MR][NV];
      for (int r = 0; r < MR; ++r)
        for (int v = 0; v < NV; ++v) P[r][v] = S::zero_i();
#pragma GCC unroll 8
      for (int g = g0; g < g0 + STAGE; ++g) {
        VI bv[NV];
        for (int v = 0; v < NV; ++v) bv[v] = S::load_i(bq + (g * NR + v * L) * 4);
        for (int r = 0; r < MR; ++r) {
          const VI av = S::bcast4(aq + r * lda + 4 * g);
          for (int v = 0; v < NV; ++v) P[r][v] = S::add16(P[r][v], S::pairs(bv[v], av));
        }
      }
      for (int r = 0; r < MR; ++r)
        for (int v = 0; v < NV; ++v) I[r][v] = S::widen_add(I[r][v], P[r][v]);
    }
  } else {
#pragma GCC unroll 16
    for (int g = 0; g < GROUPS; ++g) {
      VI bv[NV];
      for (int v = 0; v < NV; ++v) bv[v] = S::load_i(bq + (g * NR + v * L) * 4);
      for (int r = 0; r < MR; ++r) {
        const VI av = S::bcast4(aq + r * lda + 4 * g);
        for (int v = 0; v < NV; ++v) I[r][v] = S::dot4(I[r][v], bv[v], av);
      }
    }
  }
}

template <int MR, int NV>
void hif4_tile(const tile::Call& t, const tile::Int8A& a, const tile::Int8B& b) {
  using VI = Isa::VI;
  using VF = Isa::VF;
  constexpr int L = Isa::L, NR = NV * L;
  const size_t K = t.K, nblk = t.nblk;
  VF acc[MR][NV];
  for (int r = 0; r < MR; ++r)
    for (int v = 0; v < NV; ++v) acc[r][v] = Isa::zero_f();
  for (size_t blk = 0; blk < nblk; ++blk) {
    VI I[MR][NV];
    for (int r = 0; r < MR; ++r) {
      const VI init = Isa::set1_i(a.corr[r * nblk + blk]);
      for (int v = 0; v < NV; ++v) I[r][v] = init;
    }
    int8_groups<MR, NV, 16>(I, a.q + blk * 64, K, b.q + blk * 16 * NR * 4);
    for (int r = 0; r < MR; ++r) {
      const VF sa = Isa::set1_f(a.fscale[r * nblk + blk]);
      for (int v = 0; v < NV; ++v) {
        const VF scale = Isa::mul_f(sa, Isa::load_f(b.fscale + blk * NR + v * L));  // exact
        if (!t.emit) {
          acc[r][v] = Isa::fma_exact_f(Isa::cvt_f(I[r][v]), scale, acc[r][v]);
        } else {
          alignas(64) float val[L];
          Isa::store_f(val, Isa::mul_f(Isa::cvt_f(I[r][v]), scale));
          emit_exact<MR, NR>(t, blk, r, v * L, val, L);
        }
      }
    }
  }
  if (t.emit) return;
  alignas(64) float out[MR * NR];
  for (int r = 0; r < MR; ++r)
    for (int v = 0; v < NV; ++v) Isa::store_f(out + r * NR + v * L, acc[r][v]);
  write_c<MR, NR>(t, out);
}

// The exact integer sums S_j of sub-block j of block blk (bias cancelled) for the tile's MR x NV vectors.
template <int MR, int NV, int SUB>
HIFSIM_INLINE void e2m1_sub_sums(Isa::VI (&I)[MR][NV], const tile::Call& t, const tile::Int8A& a, const tile::Int8B& b,
                                 size_t blk, int j) {
  constexpr int NR = NV * Isa::L, NSUB = 64 / SUB, GROUPS = SUB / 4;
  const size_t nsub = t.nblk * NSUB, sub = blk * NSUB + j;
  for (int r = 0; r < MR; ++r) {
    const Isa::VI init = Isa::set1_i(a.corr[r * nsub + sub]);
    for (int v = 0; v < NV; ++v) I[r][v] = init;
  }
  int8_groups<MR, NV, GROUPS>(I, a.q + blk * 64 + j * SUB, t.K, b.q + (blk * 16 + j * GROUPS) * NR * 4);
}

// NVFP4 (SUB = 16, NSUB = 4) and MXFP4 (SUB = 32, NSUB = 2, with the exponent-gap check):
// the block value in double (every lane; the emit mode's kernel, and what e2m1_tile falls back to).
template <int MR, int NV, int SUB, bool kMx>
void e2m1_tile_dd(const tile::Call& t, const tile::Int8A& a, const tile::Int8B& b) {
  using VI = Isa::VI;
  using VF = Isa::VF;
  using VD = Isa::VD;
  constexpr int L = Isa::L, LD = Isa::LD, NR = NV * L, NSUB = 64 / SUB;
  const size_t nblk = t.nblk, nsub = nblk * NSUB;
  VF acc[MR][NV];
  for (int r = 0; r < MR; ++r)
    for (int v = 0; v < NV; ++v) acc[r][v] = Isa::zero_f();
  for (size_t blk = 0; blk < nblk; ++blk) {
    VD lo[MR][NV], hi[MR][NV];
    unsigned all_nonzero[MR][NV];  // MXFP4: lanes where every sub-block sum is nonzero
    for (int r = 0; r < MR; ++r)
      for (int v = 0; v < NV; ++v) all_nonzero[r][v] = ~0u;
    for (int j = 0; j < NSUB; ++j) {
      const size_t sub = blk * NSUB + j;
      VI I[MR][NV];
      e2m1_sub_sums<MR, NV, SUB>(I, t, a, b, blk, j);
      for (int r = 0; r < MR; ++r) {
        const VD sa = Isa::set1_d(a.dscale[r * nsub + sub]);
        for (int v = 0; v < NV; ++v) {
          if (kMx) all_nonzero[r][v] &= Isa::nonzero(I[r][v]);
          const VD sblo = Isa::load_d(b.dscale + sub * NR + v * L), sbhi = Isa::load_d(b.dscale + sub * NR + v * L + LD);
          const VD tlo = Isa::mul_d(Isa::cvt_d_lo(I[r][v]), sblo), thi = Isa::mul_d(Isa::cvt_d_hi(I[r][v]), sbhi);
          if (j == 0) {
            lo[r][v] = Isa::mul_d(tlo, sa);
            hi[r][v] = Isa::mul_d(thi, sa);
          } else {
            lo[r][v] = Isa::fma_exact_d(tlo, sa, lo[r][v]);
            hi[r][v] = Isa::fma_exact_d(thi, sa, hi[r][v]);
          }
        }
      }
    }
    for (int r = 0; r < MR; ++r) {
      for (int v = 0; v < NV; ++v) {
        unsigned bad = 0;
        if (kMx)
          bad = all_nonzero[r][v] &
                Isa::abs_gt(Isa::add_i(Isa::set1_i(a.gap[r * nblk + blk]), Isa::load_i(b.gap + blk * NR + v * L)), 39);
        if (!t.emit) {
          VF val = Isa::f_from_dd(lo[r][v], hi[r][v]);
          if (bad) {
            alignas(64) float tmp[L];
            Isa::store_f(tmp, val);
            fix_lanes(t, blk, r, v * L, tmp, L, bad);
            val = Isa::load_f(tmp);
          }
          acc[r][v] = Isa::add_f(acc[r][v], val);
        } else {
          const size_t base = (blk * MR + r) * NR + v * L;
          Isa::store_d(t.emit_val + base, lo[r][v]);
          Isa::store_d(t.emit_val + base + LD, hi[r][v]);
          for (int l = 0; l < L; ++l) t.emit_ok[base + l] = ((bad >> l) & 1) ? tile::kRecompute : tile::kExact;
        }
      }
    }
  }
  if (t.emit) return;
  alignas(64) float out[MR * NR];
  for (int r = 0; r < MR; ++r)
    for (int v = 0; v < NV; ++v) Isa::store_f(out + r * NR + v * L, acc[r][v]);
  write_c<MR, NR>(t, out);
}

// The exact integer sum S_j of sub-block j of block blk for row r and column col, in scalar code
// from the packed operands: what e2m1_sub_sums gives that lane (bias cancelled by a.corr).
template <int NR, int SUB>
int32_t e2m1_lane_sum(const tile::Call& t, const tile::Int8A& a, const tile::Int8B& b, size_t blk, int j, int r,
                      size_t col) {
  constexpr int NSUB = 64 / SUB, GROUPS = SUB / 4;
  const int8_t* aq = a.q + static_cast<size_t>(r) * t.K + blk * 64 + j * SUB;
  const uint8_t* bq = b.q + (blk * 16 + j * GROUPS) * NR * 4 + col * 4;
  int32_t S = a.corr[static_cast<size_t>(r) * t.nblk * NSUB + blk * NSUB + j];
  for (int g = 0; g < GROUPS; ++g)
    for (int i = 0; i < 4; ++i) S += static_cast<int32_t>(bq[g * NR * 4 + i]) * aq[4 * g + i];
  return S;
}

// One lane of e2m1_tile whose scales have no integer form (tile::Int8A::fbase NaN or the
// product out of range): the double sum of e2m1_tile_dd from the sub-block sums S_j (recomputed
// here, so the vector loop keeps none), or the unit (MXFP4 scale gap, fix_lanes).
template <int MR, int NV, int SUB, bool kMx>
HIFSIM_INLINE float e2m1_lane_dd(const tile::Call& t, const tile::Int8A& a, const tile::Int8B& b, size_t blk, int r,
                                 int v, int l) {
  constexpr int L = Isa::L, NR = NV * L, NSUB = 64 / SUB;
  const size_t nsub = t.nblk * NSUB, col = static_cast<size_t>(v * L + l);
  if (static_cast<size_t>(r) >= t.rows || col >= t.cols) return 0.0f;  // padding: discarded
  if (t.slow_lanes) ++*t.slow_lanes;
  double sum = 0;
  bool all_nonzero = true;
  for (int j = 0; j < NSUB; ++j) {
    const size_t sub = blk * NSUB + j;
    const int32_t S = e2m1_lane_sum<NR, SUB>(t, a, b, blk, j, r, col);
    all_nonzero = all_nonzero && S != 0;
    const double term = static_cast<double>(S) * b.dscale[sub * NR + col] * a.dscale[r * nsub + sub];  // exact
    sum = j == 0 ? term : sum + term;  // exact (see the top of this file)
  }
  if (kMx && all_nonzero) {
    const int32_t g = a.gap[r * t.nblk + blk] + b.gap[blk * NR + col];
    if (g > 39 || g < -39) {
      ++*t.fixups;
      return t.fixup(t.fixup_ctx, t.m0 + r, t.n0 + col, blk);
    }
  }
  return static_cast<float>(sum);
}

// NVFP4 and MXFP4 with the FP32 accumulator: the block's value in integers. The sub-block
// scales are small integers over one power of two per operand and block (dA_j = fA_j 2^eA,
// tile::Int8A::ifac / fbase), so the block is T * 2^(eA + eB) with the integer
// T = sum_j S_j fA_j fB_j, exact in int32 (tile::kE2m1MaxFactor, kMxMaxShift); one int -> FP32
// conversion is the unit's single rounding, and the power-of-two scale is exact while the
// result stays a normal float (the scale in [2^-126, 2^95]; conservative: any exactly computed
// scale >= 2^-149 would do, since T * 2^e below 2^-126 is then a multiple of 2^-149 with
// T < 2^23, and a single 24-bit rounding of T overflows exactly as the unit's). Lanes outside that (NaN scales,
// spans too wide for int32, extreme MX exponents) take the double sum (e2m1_lane_dd).
template <int MR, int NV, int SUB, bool kMx>
void e2m1_tile(const tile::Call& t, const tile::Int8A& a, const tile::Int8B& b) {
  if (t.emit) return e2m1_tile_dd<MR, NV, SUB, kMx>(t, a, b);
  using VI = Isa::VI;
  using VF = Isa::VF;
  constexpr int L = Isa::L, NR = NV * L, NSUB = 64 / SUB;
  const size_t nblk = t.nblk, nsub = nblk * NSUB;
  VF acc[MR][NV];
  for (int r = 0; r < MR; ++r)
    for (int v = 0; v < NV; ++v) acc[r][v] = Isa::zero_f();
  for (size_t blk = 0; blk < nblk; ++blk) {
    VI T[MR][NV];
    for (int j = 0; j < NSUB; ++j) {
      const size_t sub = blk * NSUB + j;
      VI I[MR][NV];
      e2m1_sub_sums<MR, NV, SUB>(I, t, a, b, blk, j);
      for (int r = 0; r < MR; ++r) {
        const VI fa = Isa::set1_i(a.ifac[r * nsub + sub]);
        for (int v = 0; v < NV; ++v) {
          const VI fb = Isa::load_i(b.ifac + sub * NR + v * L);
          const VI term = kMx ? Isa::sllv_i(I[r][v], Isa::add_i(fa, fb)) : Isa::mullo_i(I[r][v], Isa::mullo_i(fa, fb));
          T[r][v] = j == 0 ? term : Isa::add_i(T[r][v], term);
        }
      }
    }
    for (int r = 0; r < MR; ++r) {
      const VF ba = Isa::set1_f(a.fbase[r * nblk + blk]);
      for (int v = 0; v < NV; ++v) {
        const VF scale = Isa::mul_f(ba, Isa::load_f(b.fbase + blk * NR + v * L));  // exact where in range
        VF val = Isa::mul_f(Isa::cvt_f(T[r][v]), scale);
        const unsigned bad = Isa::outside_f(scale, 0x1p-126f, 0x1p95f);
        if (bad) {
          alignas(64) float tmp[L];
          Isa::store_f(tmp, val);
          for (int l = 0; l < L; ++l)
            if ((bad >> l) & 1) tmp[l] = e2m1_lane_dd<MR, NV, SUB, kMx>(t, a, b, blk, r, v, l);
          val = Isa::load_f(tmp);
        }
        acc[r][v] = Isa::add_f(acc[r][v], val);
      }
    }
  }
  alignas(64) float out[MR * NR];
  for (int r = 0; r < MR; ++r)
    for (int v = 0; v < NV; ++v) Isa::store_f(out + r * NR + v * L, acc[r][v]);
  write_c<MR, NR>(t, out);
}

}  // namespace hifsim::dp::HIFSIM_VARIANT_NS
