#include "gemm/gemm_pack.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "datapath/element.hpp"
#include "formats/bits.hpp"
#include "formats/scales.hpp"
#include "util/error.hpp"
#include "util/parallel.hpp"

namespace hifsim::dp {

using fmt::Format;

namespace {

size_t round_up(size_t x, size_t m) { return (x + m - 1) / m * m; }

int sub_width(KernelFamily f) { return f == KernelFamily::nvfp4 ? 16 : f == KernelFamily::mxfp4 ? 32 : 64; }
int bias(KernelFamily f) { return f == KernelFamily::hif4 ? tile::kHif4Bias : tile::kE2m1Bias; }

// One row's integer elements (+ bias) through the variant's row packing.
void row_ints(const fmt::QTensor& t, KernelFamily f, const tile::VariantKernels& vk, size_t row, int b, int8_t* q) {
  const size_t nblk = t.blocks_per_row();
  const uint16_t* c = t.codes.data() + row * t.padded_cols;
  if (f == KernelFamily::hif4) vk.hif4_row(c, t.l2.data() + row * nblk, t.l3.data() + row * nblk, nblk, b, q);
  else vk.e2m1_row(c, t.padded_cols, b, q);
}

// Scale of sub-block `sub` of a row: HiF4's exact float; NVFP4's E4M3 and MXFP4's E8M0 as
// doubles, times 1/2 for the half units of E2M1 (so S * dA * dB is the value).
float hif4_scale(uint8_t e) {
  return e == fmt::kE6M2NaN ? fmt::f32_nan()
                            : static_cast<float>(fmt::e6m2_sig(e)) * fmt::pow2f(fmt::e6m2_exp(e) - 2);
}
double e2m1_scale(KernelFamily f, uint8_t code) {
  if (f == KernelFamily::nvfp4) {
    const Elem e = decode_e4m3(code);
    if (e.kind == Elem::nan) return std::numeric_limits<double>::quiet_NaN();
    const double v = std::ldexp(static_cast<double>(e.sig), e.exp - 1);
    return e.neg ? -v : v;
  }
  if (code == fmt::kE8M0NaN) return std::numeric_limits<double>::quiet_NaN();
  return std::ldexp(1.0, static_cast<int>(code) - 128);
}

// The sub-block scales of one 64-block as integers over one power of two (tile::Int8A::ifac,
// fbase): writes nsb factors to `fac` (stride `step`) and returns the base, NaN when they do
// not fit (then the kernel uses dscale). `elems`: the block's 64 E2M1 codes; a sub-block whose
// elements are all zero has S_j = 0 whatever the other operand, so its scale (unless NaN, which
// makes the unit's result NaN) takes no part: a zero-padded or masked sub-block (causal
// attention probabilities, MX scale code 0) would otherwise widen the span.
float e2m1_int_scales(KernelFamily f, const uint8_t* codes, const uint16_t* elems, size_t nsb, int32_t* fac,
                      size_t step) {
  const float bad = std::numeric_limits<float>::quiet_NaN();
  int sig[4] = {}, ex[4] = {};
  int emin = INT32_MAX;
  // Every factor is written before any early return: the kernel computes every lane of a block
  // whose base is NaN and discards them later, so none may be left unset.
  for (size_t j = 0; j < nsb; ++j) fac[j * step] = 0;
  for (size_t j = 0; j < nsb; ++j) {
    if (f == KernelFamily::nvfp4) {
      const Elem e = decode_e4m3(codes[j]);
      if (e.kind == Elem::nan) return bad;
      sig[j] = e.neg ? -static_cast<int>(e.sig) : static_cast<int>(e.sig);
      ex[j] = e.exp - 1;  // value = sig * 2^(exp - 1): the half units of E2M1
    } else {
      if (codes[j] == fmt::kE8M0NaN) return bad;
      sig[j] = 1;
      ex[j] = static_cast<int>(codes[j]) - 128;
    }
    const size_t sw = 64 / nsb;
    bool zero = true;
    for (size_t k = 0; k < sw; ++k) zero = zero && (elems[j * sw + k] & 7u) == 0;
    if (zero) sig[j] = 0;
    if (sig[j] != 0) emin = std::min(emin, ex[j]);
  }
  if (emin == INT32_MAX) return 1.0f;  // every scale zero: factors 0
  for (size_t j = 0; j < nsb; ++j) {
    if (sig[j] == 0) continue;
    const int sh = ex[j] - emin;
    if (f == KernelFamily::mxfp4) {
      if (sh > tile::kMxMaxShift) return bad;
      fac[j * step] = sh;
    } else {
      if (sh > 30 || std::abs(sig[j]) > (tile::kE2m1MaxFactor >> sh)) return bad;
      fac[j * step] = sig[j] * (1 << sh);
    }
  }
  return std::ldexp(1.0f, emin);  // 2^-128 .. 2^126: exact in float (subnormal at the low end)
}

}  // namespace

tile::Int8A PackedInt8A::at(size_t row, size_t K, size_t nblk, size_t nsub) const {
  tile::Int8A a;
  a.q = q.data() + row * K;
  a.corr = corr.data() + row * nsub;
  if (!fscale.empty()) a.fscale = fscale.data() + row * nblk;
  if (!dscale.empty()) a.dscale = dscale.data() + row * nsub;
  if (!gap.empty()) a.gap = gap.data() + row * nblk;
  if (!ifac.empty()) a.ifac = ifac.data() + row * nsub;
  if (!fbase.empty()) a.fbase = fbase.data() + row * nblk;
  return a;
}

tile::Int8B PackedInt8B::panel(size_t p, size_t nr, size_t K, size_t nblk, size_t nsub) const {
  tile::Int8B b;
  b.q = q.data() + p * nr * K;
  if (!fscale.empty()) b.fscale = fscale.data() + p * nblk * nr;
  if (!dscale.empty()) b.dscale = dscale.data() + p * nsub * nr;
  if (!gap.empty()) b.gap = gap.data() + p * nblk * nr;
  if (!ifac.empty()) b.ifac = ifac.data() + p * nsub * nr;
  if (!fbase.empty()) b.fbase = fbase.data() + p * nblk * nr;
  return b;
}

PackedInt8A pack_int8_a(const fmt::QTensor& t, KernelFamily f, const tile::VariantKernels& vk, size_t mr,
                        unsigned threads, CpuPath* path) {
  PackedInt8A p;
  const size_t K = t.padded_cols, nblk = K / 64, sw = static_cast<size_t>(sub_width(f)), nsub = K / sw;
  p.rows_padded = round_up(t.rows, mr);
  p.q.resize(p.rows_padded * K);
  p.corr.resize(p.rows_padded * nsub);
  if (f == KernelFamily::hif4) p.fscale.resize(p.rows_padded * nblk);
  else p.dscale.resize(p.rows_padded * nsub);
  if (f == KernelFamily::mxfp4) p.gap.resize(p.rows_padded * nblk);
  if (f != KernelFamily::hif4) {
    p.ifac.resize(p.rows_padded * nsub);
    p.fbase.resize(p.rows_padded * nblk);
  }
  const int c = bias(f);
  auto body = [&](size_t r0, size_t r1) {
    for (size_t r = r0; r < r1; ++r) {
      if (r >= t.rows) {  // padding rows of the last tile: zeros
        std::fill_n(p.q.data() + r * K, K, int8_t{0});
        std::fill_n(p.corr.data() + r * nsub, nsub, 0);
        if (!p.fscale.empty()) std::fill_n(p.fscale.data() + r * nblk, nblk, 0.0f);
        if (!p.dscale.empty()) std::fill_n(p.dscale.data() + r * nsub, nsub, 0.0);
        if (!p.gap.empty()) std::fill_n(p.gap.data() + r * nblk, nblk, 0);
        if (!p.ifac.empty()) std::fill_n(p.ifac.data() + r * nsub, nsub, 0);
        if (!p.fbase.empty()) std::fill_n(p.fbase.data() + r * nblk, nblk, 1.0f);
        continue;
      }
      row_ints(t, f, vk, r, 0, p.q.data() + r * K);
      for (size_t blk = 0; blk < nblk; ++blk) {
        const int8_t* q = p.q.data() + r * K + blk * 64;
        for (size_t j = 0; j < 64 / sw; ++j) {
          int sum = 0;
          for (size_t k = 0; k < sw; ++k) sum += q[j * sw + k];
          p.corr[r * nsub + blk * (64 / sw) + j] = -c * sum;
        }
        if (f == KernelFamily::hif4) {
          p.fscale[r * nblk + blk] = hif4_scale(t.scales[r * nblk + blk]);
        } else {
          for (size_t j = 0; j < 64 / sw; ++j) {
            const size_t s = blk * (64 / sw) + j;
            p.dscale[r * nsub + s] = e2m1_scale(f, t.scales[r * nsub + s]);
          }
          if (f == KernelFamily::mxfp4) p.gap[r * nblk + blk] = t.scales[r * nsub + 2 * blk] - t.scales[r * nsub + 2 * blk + 1];
          p.fbase[r * nblk + blk] =
              e2m1_int_scales(f, t.scales.data() + r * nsub + blk * (64 / sw), t.codes.data() + r * K + blk * 64, 64 / sw,
                              p.ifac.data() + r * nsub + blk * (64 / sw), 1);
        }
      }
    }
  };
  CpuRegion region(path);
  parallel_for(p.rows_padded, threads, region.wrap(body), 8);
  return p;
}

PackedInt8B pack_int8_b(const fmt::QTensor& t, KernelFamily f, const tile::VariantKernels& vk, size_t nr,
                        unsigned threads, CpuPath* path) {
  PackedInt8B p;
  const size_t K = t.padded_cols, nblk = K / 64, sw = static_cast<size_t>(sub_width(f)), nsub = K / sw;
  p.panels = round_up(t.rows, nr) / nr;
  const uint8_t c = static_cast<uint8_t>(bias(f));
  p.q.resize(p.panels * nr * K);
  if (f == KernelFamily::hif4) p.fscale.resize(p.panels * nblk * nr);
  else p.dscale.resize(p.panels * nsub * nr);
  if (f == KernelFamily::mxfp4) p.gap.resize(p.panels * nblk * nr);
  if (f != KernelFamily::hif4) {
    p.ifac.resize(p.panels * nsub * nr);
    p.fbase.resize(p.panels * nblk * nr);
  }
  auto body = [&](size_t p0, size_t p1) {
    std::vector<int8_t> row(K);
    for (size_t pi = p0; pi < p1; ++pi) {
      for (size_t j = 0; j < nr; ++j) {
        const size_t n = pi * nr + j;
        const bool real = n < t.rows;  // padding columns: biased zeros, zero scales
        if (real) row_ints(t, f, vk, n, c, row.data());
        else std::fill(row.begin(), row.end(), static_cast<int8_t>(c));
        // Groups of 4 consecutive k of this column go to [blk][group][j][4].
        uint8_t* dst = p.q.data() + pi * nblk * 16 * nr * 4 + j * 4;
        for (size_t g = 0; g < K / 4; ++g) std::memcpy(dst + g * nr * 4, row.data() + 4 * g, 4);
        for (size_t blk = 0; blk < nblk; ++blk) {
          if (f == KernelFamily::hif4) {
            p.fscale[(pi * nblk + blk) * nr + j] = real ? hif4_scale(t.scales[n * nblk + blk]) : 0.0f;
          } else {
            for (size_t s = blk * (64 / sw); s < (blk + 1) * (64 / sw); ++s)
              p.dscale[(pi * nsub + s) * nr + j] = real ? e2m1_scale(f, t.scales[n * nsub + s]) : 0.0;
            if (f == KernelFamily::mxfp4)
              p.gap[(pi * nblk + blk) * nr + j] =
                  real ? t.scales[n * nsub + 2 * blk] - t.scales[n * nsub + 2 * blk + 1] : 0;
            const size_t s0 = blk * (64 / sw);
            int32_t* fac = p.ifac.data() + (pi * nsub + s0) * nr + j;
            if (real) {
              p.fbase[(pi * nblk + blk) * nr + j] = e2m1_int_scales(f, t.scales.data() + n * nsub + s0,
                                                                  t.codes.data() + n * K + blk * 64, 64 / sw, fac, nr);
            } else {
              for (size_t s = 0; s < 64 / sw; ++s) fac[s * nr] = 0;
              p.fbase[(pi * nblk + blk) * nr + j] = 1.0f;
            }
          }
        }
      }
    }
  };
  CpuRegion region(path);
  parallel_for(p.panels, threads, region.wrap(body));
  return p;
}

// ---- fp family ----

namespace {

struct ElemInfo {
  double value = 0;   // exact (NaN, +-Inf kept)
  int16_t exp = 0;
  int16_t lsb = 0;    // exponent of the lowest set bit (value = odd * 2^lsb), finite nonzero only
  int32_t odd = 0;    // the signed odd significand of a finite nonzero element (0 otherwise)
  bool finite_nonzero = false;
  bool special = false;  // NaN or Inf
};

// The unit's decoder of each element code of the fp family (element.hpp).
Elem decode_code(fmt::Code code, uint16_t c) {
  static Elem (*const decoders[])(uint8_t) = {&decode_e4m3, &decode_e5m2, &decode_hif8};
  static const fmt::Code codes[] = {fmt::Code::e4m3, fmt::Code::e5m2, fmt::Code::hif8};
  if (code == fmt::Code::bf16) return decode_bf16(c);
  for (size_t i = 0; i < 3; ++i)
    if (codes[i] == code) return decoders[i](static_cast<uint8_t>(c));
  throw Error("gemm", "element code", "is not an fp-family element");
}

ElemInfo elem_info(fmt::Code code, uint16_t c) {
  const Elem e = decode_code(code, c);
  ElemInfo r;
  if (e.kind == Elem::nan) {
    r.value = std::numeric_limits<double>::quiet_NaN();
    r.special = true;
  } else if (e.kind == Elem::inf) {
    r.value = e.neg ? -HUGE_VAL : HUGE_VAL;
    r.special = true;
  } else {
    const double v = std::ldexp(static_cast<double>(e.sig), e.exp);
    r.value = e.neg ? -v : v;
    r.exp = static_cast<int16_t>(e.exp);
    r.finite_nonzero = e.sig != 0;
    if (e.sig) {
      r.lsb = static_cast<int16_t>(e.exp + __builtin_ctz(e.sig));
      r.odd = static_cast<int32_t>(e.sig >> __builtin_ctz(e.sig)) * (e.neg ? -1 : 1);
    }
  }
  return r;
}

// Every BF16 code decoded once per process (1 MiB): decoding each element while packing took
// 11 % of `hifsim compare`'s CPU time (perf, 3-layer SmolLM2 trace).
const ElemInfo* bf16_table() {
  static const std::vector<ElemInfo> table = [] {
    std::vector<ElemInfo> t(65536);
    for (uint32_t i = 0; i < 65536; ++i) t[i] = elem_info(fmt::Code::bf16, static_cast<uint16_t>(i));
    return t;
  }();
  return table.data();
}

// Decoded elements: a table of every code (8-bit codes: built per decoder; BF16: shared).
struct Decoder {
  fmt::Code code;
  const ElemInfo* bf16 = nullptr;
  ElemInfo table[256];
  explicit Decoder(fmt::Code c) : code(c) {
    if (code == fmt::Code::bf16)
      bf16 = bf16_table();
    else
      for (int i = 0; i < 256; ++i) table[i] = elem_info(code, static_cast<uint16_t>(i));
  }
  ElemInfo operator()(uint16_t c) const { return bf16 ? bf16[c] : table[c & 0xFF]; }
  const ElemInfo& ref(uint16_t c) const { return bf16 ? bf16[c] : table[c & 0xFF]; }
};

double block_scale(const fmt::QTensor& t, const FpPackParams& pp, size_t row, size_t blk) {
  if (!pp.mx_scaled) return 1.0;
  const uint8_t x = t.scales[row * t.blocks_per_row() + blk];
  return x == fmt::kE8M0NaN ? std::numeric_limits<double>::quiet_NaN() : std::ldexp(1.0, static_cast<int>(x) - 127);
}

int ceil_log2(int w) {
  int l = 0;
  while ((1 << l) < w) ++l;
  return l;
}

// Where one block of one row goes: element k to x[k * stride] (and ex[k * stride]), the
// block's metadata to the rest.
struct FpBlockOut {
  double* x;
  double* ex;  // nullptr unless exponents are packed
  size_t stride;
  double *scale, *norm, *wmax, *spanf;
  uint8_t* special;
};

void pack_fp_block(const fmt::QTensor& t, const Decoder& dec, const FpPackParams& pp, size_t row, size_t blk,
                   double extra_norm, double extra_wmax, const FpBlockOut& o) {
  const uint16_t* c = t.codes.data() + row * t.padded_cols + blk * pp.width;
  double ss = 0;
  int lo = INT16_MAX, hi = INT16_MIN;
  bool special = false;
  for (int k = 0; k < pp.width; ++k) {
    const ElemInfo e = dec(c[k]);
    o.x[k * o.stride] = e.value;
    special |= e.special;
    if (o.ex) o.ex[k * o.stride] = e.finite_nonzero ? e.exp : -HUGE_VAL;
    if (e.finite_nonzero) {
      ss += e.value * e.value;
      lo = std::min<int>(lo, e.exp);
      hi = std::max<int>(hi, e.exp);
    }
  }
  const double scale = block_scale(t, pp, row, blk);
  *o.scale = scale;
  *o.norm = std::sqrt(ss) * scale * extra_norm;
  *o.wmax = hi == INT16_MIN ? 0.0 : std::ldexp(scale, hi) * extra_wmax;
  *o.spanf = hi == INT16_MIN ? 1.0 : std::ldexp(1.0, hi - lo);
  if (o.special) *o.special = special;
}

// A padding row or column: zero elements (exponent -inf), the neutral block metadata. Element k
// of block blk goes to x[(blk * width + k) * stride] like pack_fp_block's.
void pack_fp_padding(const FpPackParams& pp, size_t nblk, const FpBlockOut& o, size_t meta_stride) {
  for (size_t k = 0; k < nblk * static_cast<size_t>(pp.width); ++k) {
    o.x[k * o.stride] = 0.0;
    if (o.ex) o.ex[k * o.stride] = -HUGE_VAL;
  }
  for (size_t blk = 0; blk < nblk; ++blk) {
    const size_t i = blk * meta_stride;
    o.scale[i] = 1.0;
    o.norm[i] = 0.0;
    o.wmax[i] = 0.0;
    o.spanf[i] = 1.0;
    if (o.special) o.special[i] = 0;
  }
}

template <class Packed>
void size_fp(Packed& p, size_t elems, size_t blocks, bool exponents) {
  p.x.resize(elems);
  p.scale.resize(blocks);
  p.norm.resize(blocks);
  p.wmax.resize(blocks);
  p.spanf.resize(blocks);
  if (exponents) {
    p.e.resize(elems);
    p.special.resize(blocks);
  }
}

}  // namespace

tile::FpA PackedFpA::at(size_t row, size_t K, size_t nblk) const {
  tile::FpA a;
  a.x = x.data() + row * K;
  a.scale = scale.data() + row * nblk;
  a.norm = norm.data() + row * nblk;
  a.wmax = wmax.data() + row * nblk;
  a.spanf = spanf.data() + row * nblk;
  if (!e.empty()) a.e = e.data() + row * K;
  if (!special.empty()) a.special = special.data() + row * nblk;
  return a;
}

tile::FpB PackedFpB::panel(size_t p, size_t nr, size_t K, size_t nblk) const {
  tile::FpB b;
  b.x = x.data() + p * K * nr;
  b.scale = scale.data() + p * nblk * nr;
  b.norm = norm.data() + p * nblk * nr;
  b.wmax = wmax.data() + p * nblk * nr;
  b.spanf = spanf.data() + p * nblk * nr;
  if (!e.empty()) b.e = e.data() + p * K * nr;
  if (!special.empty()) b.special = special.data() + p * nblk * nr;
  return b;
}

PackedFpA pack_fp_a(const fmt::QTensor& t, const FpPackParams& pp, size_t mr, unsigned threads, CpuPath* path) {
  PackedFpA p;
  const size_t K = t.padded_cols, nblk = K / static_cast<size_t>(pp.width);
  p.rows_padded = round_up(t.rows, mr);
  size_fp(p, p.rows_padded * K, p.rows_padded * nblk, pp.exponents);
  const Decoder dec(pp.element);
  auto out = [&](size_t r, size_t blk) {
    // Tiles of mr rows interleaved along K ([tile][k][mr]): one stream of broadcasts per tile.
    const size_t i = r * nblk + blk, x0 = ((r / mr) * K + blk * pp.width) * mr + r % mr;
    return FpBlockOut{p.x.data() + x0, pp.exponents ? p.e.data() + x0 : nullptr, mr, &p.scale[i], &p.norm[i],
                      &p.wmax[i], &p.spanf[i], pp.exponents ? &p.special[i] : nullptr};
  };
  auto body = [&](size_t r0, size_t r1) {
    for (size_t r = r0; r < r1; ++r) {
      if (r >= t.rows) {
        pack_fp_padding(pp, nblk, out(r, 0), 1);
        continue;
      }
      for (size_t blk = 0; blk < nblk; ++blk) pack_fp_block(t, dec, pp, r, blk, 1.0, 1.0, out(r, blk));
    }
  };
  CpuRegion region(path);
  parallel_for(p.rows_padded, threads, region.wrap(body), 8);
  return p;
}

PackedFpB pack_fp_b(const fmt::QTensor& t, const FpPackParams& pp, size_t nr, unsigned threads, CpuPath* path) {
  PackedFpB p;
  const size_t K = t.padded_cols, nblk = K / static_cast<size_t>(pp.width);
  p.panels = round_up(t.rows, nr) / nr;
  size_fp(p, p.panels * nr * K, p.panels * nblk * nr, pp.exponents);
  // The tile kernel's bound factors (gemm_kernels_fp.hpp), folded into B's per-block values.
  const double extra_norm = 0x1p-45;
  const double extra_wmax = pp.window > 0 ? std::ldexp(1.0, pp.pbits + ceil_log2(pp.width) + 1 - pp.window) : 0.0;
  const Decoder dec(pp.element);
  auto out = [&](size_t pi, size_t j, size_t blk) {
    const size_t i = (pi * nblk + blk) * nr + j, x0 = (pi * K + blk * pp.width) * nr + j;
    return FpBlockOut{p.x.data() + x0, pp.exponents ? p.e.data() + x0 : nullptr, nr, &p.scale[i], &p.norm[i],
                      &p.wmax[i], &p.spanf[i], pp.exponents ? &p.special[i] : nullptr};
  };
  auto body = [&](size_t p0, size_t p1) {
    for (size_t pi = p0; pi < p1; ++pi)
      for (size_t j = 0; j < nr; ++j) {
        const size_t n = pi * nr + j;
        if (n >= t.rows) {
          pack_fp_padding(pp, nblk, out(pi, j, 0), nr);
          continue;
        }
        for (size_t blk = 0; blk < nblk; ++blk) pack_fp_block(t, dec, pp, n, blk, extra_norm, extra_wmax, out(pi, j, blk));
      }
  };
  CpuRegion region(path);
  parallel_for(p.panels, threads, region.wrap(body));
  return p;
}

// ---- fp family on integers ----

namespace {

// One block of w element codes as int16 q_k with value_k = q_k 2^e (tile::FpiA): q to q[0..w),
// the block's e and norm returned. No such form (a NaN/Inf element, a NaN
// scale, |q| > kFpiMaxQ): norm +Inf, q zero.
struct FpiMeta {
  int32_t e = 0;
  float norm = 0;
};
FpiMeta pack_fpi_block(const fmt::QTensor& t, const Decoder& dec, const FpPackParams& pp, size_t row, size_t blk,
                       int16_t* q) {
  const uint16_t* c = t.codes.data() + row * t.padded_cols + blk * pp.width;
  FpiMeta m;
  int lo = INT16_MAX, hi = INT16_MIN;
  bool special = false;
  const ElemInfo* el[64];  // pointers: an array of ElemInfo would be zero-filled on every call
  for (int k = 0; k < pp.width; ++k) {
    const ElemInfo& e = *(el[k] = &dec.ref(c[k]));
    special |= e.special;
    if (e.finite_nonzero) {
      lo = std::min<int>(lo, e.lsb);
      hi = std::max<int>(hi, e.exp);
    }
  }
  int scale_exp = 0;
  if (pp.mx_scaled) {
    const uint8_t x = t.scales[row * t.blocks_per_row() + blk];
    special |= x == fmt::kE8M0NaN;
    scale_exp = static_cast<int>(x) - 127;
  }
  const float inf = std::numeric_limits<float>::infinity();
  if (special) m.norm = inf;
  int64_t ss = 0;
  for (int k = 0; k < pp.width; ++k) {
    const ElemInfo& e = *el[k];
    const int sh = e.lsb - lo;  // >= 0 for every finite nonzero element
    const int32_t v = special || !e.finite_nonzero || sh > 15 ? (e.finite_nonzero && !special ? INT32_MAX : 0)
                                                              : e.odd * (1 << sh);
    if (v > tile::kFpiMaxQ || v < -tile::kFpiMaxQ) m.norm = inf;
    else ss += static_cast<int64_t>(v) * v;  // < 64 * 2^30
    q[k] = static_cast<int16_t>(v);
  }
  if (m.norm == inf) {
    for (int k = 0; k < pp.width; ++k) q[k] = 0;
    return m;
  }
  if (hi == INT16_MIN) return m;  // every element zero: S = 0, +0.0
  m.e = lo + scale_exp;
  const double n = std::sqrt(static_cast<double>(ss));  // ss < 2^36: exact; the root correctly rounded
  float f = static_cast<float>(n);
  if (static_cast<double>(f) < n) f = std::nextafter(f, inf);
  m.norm = f * (1.0f + 0x1p-20f);  // margin for the double sqrt's rounding
  return m;
}

}  // namespace

double fpi_wide_share(const fmt::QTensor& t, const FpPackParams& pp, size_t sample_rows) {
  const size_t nblk = t.padded_cols / static_cast<size_t>(pp.width), n = std::min(t.rows, sample_rows);
  if (!n || !nblk) return 0.0;
  const Decoder dec(pp.element);
  int16_t q[64];
  size_t wide = 0;
  for (size_t i = 0; i < n; ++i) {
    const size_t r = i * t.rows / n;
    for (size_t blk = 0; blk < nblk; ++blk) wide += std::isinf(pack_fpi_block(t, dec, pp, r, blk, q).norm);
  }
  return static_cast<double>(wide) / static_cast<double>(n * nblk);
}

tile::FpiA PackedFpiA::at(size_t row, size_t K, size_t nblk) const {
  return {q.data() + row * K, e.data() + row * nblk, norm.data() + row * nblk};
}

tile::FpiB PackedFpiB::panel(size_t p, size_t nr, size_t K, size_t nblk) const {
  return {q.data() + p * K * nr, e.data() + p * nblk * nr, norm.data() + p * nblk * nr};
}

PackedFpiA pack_fpi_a(const fmt::QTensor& t, const FpPackParams& pp, size_t mr, unsigned threads, CpuPath* path) {
  PackedFpiA p;
  const size_t K = t.padded_cols, nblk = K / static_cast<size_t>(pp.width);
  p.rows_padded = round_up(t.rows, mr);
  p.q.resize(p.rows_padded * K);
  p.e.resize(p.rows_padded * nblk);
  p.norm.resize(p.rows_padded * nblk);
  const Decoder dec(pp.element);
  std::atomic<size_t> wide_total{0};
  auto body = [&](size_t r0, size_t r1) {
    size_t wide = 0;
    for (size_t r = r0; r < r1; ++r) {
      if (r >= t.rows) {  // padding rows of the last tile: zeros
        std::fill_n(p.q.data() + r * K, K, int16_t{0});
        std::fill_n(p.e.data() + r * nblk, nblk, 0);
        std::fill_n(p.norm.data() + r * nblk, nblk, 0.0f);
        continue;
      }
      for (size_t blk = 0; blk < nblk; ++blk) {
        const FpiMeta m = pack_fpi_block(t, dec, pp, r, blk, p.q.data() + r * K + blk * pp.width);
        p.e[r * nblk + blk] = m.e;
        p.norm[r * nblk + blk] = m.norm;
        wide += std::isinf(m.norm);
      }
    }
    wide_total += wide;
  };
  CpuRegion region(path);
  parallel_for(p.rows_padded, threads, region.wrap(body), 8);
  p.wide_blocks = wide_total.load();
  return p;
}

PackedFpiB pack_fpi_b(const fmt::QTensor& t, const FpPackParams& pp, size_t nr, unsigned threads, CpuPath* path) {
  PackedFpiB p;
  const size_t K = t.padded_cols, w = static_cast<size_t>(pp.width), nblk = K / w;
  p.panels = round_up(t.rows, nr) / nr;
  p.q.resize(p.panels * nr * K);
  p.e.resize(p.panels * nblk * nr);
  p.norm.resize(p.panels * nblk * nr);
  const Decoder dec(pp.element);
  std::atomic<size_t> wide_total{0};
  auto body = [&](size_t p0, size_t p1) {
    size_t wide = 0;
    std::vector<int16_t> row(K);
    for (size_t pi = p0; pi < p1; ++pi)
      for (size_t j = 0; j < nr; ++j) {
        const size_t n = pi * nr + j;
        for (size_t blk = 0; blk < nblk; ++blk) {
          FpiMeta m;  // padding columns: zeros
          if (n < t.rows) m = pack_fpi_block(t, dec, pp, n, blk, row.data() + blk * w);
          else std::fill_n(row.data() + blk * w, w, int16_t{0});
          const size_t i = (pi * nblk + blk) * nr + j;
          p.e[i] = m.e;
          p.norm[i] = m.norm;
          wide += std::isinf(m.norm);
        }
        // Pairs of consecutive k of this column go to [k / 2][j][2].
        int16_t* dst = p.q.data() + pi * K * nr + j * 2;
        for (size_t kp = 0; kp < K / 2; ++kp) std::memcpy(dst + kp * nr * 2, row.data() + 2 * kp, 4);
      }
    wide_total += wide;
  };
  CpuRegion region(path);
  parallel_for(p.panels, threads, region.wrap(body));
  p.wide_blocks = wide_total.load();
  return p;
}

}  // namespace hifsim::dp
