// Packed kernels for the element-float formats: HiF8 and BF16 (aligned dot, units 4-5) and
// MXFP8 / FP8 (unit 3). Elements are decoded once. Fast paths compute the block's exact sum
// with integer arithmetic and are taken only where the unit's result provably equals that
// exact sum (no specials in the block, and -- for a finite alignment window -- a product
// exponent span that fits the window, so no bit can be dropped). Everything else goes through
// aligned_sum(), the unit's own arithmetic. tests/datapath/test_gemm.cpp checks the kernels
// against the unit-by-unit reference.
#include <algorithm>
#include <climits>

#include "datapath/element.hpp"
#include "datapath/gemm_kernels.hpp"
#include "formats/bits.hpp"
#include "formats/scales.hpp"
#include "util/parallel.hpp"

namespace hifsim::dp {

using fmt::Format;

namespace {

struct Packed {
  std::vector<uint16_t> sig;
  std::vector<int16_t> exp;
  std::vector<uint8_t> cls;    // bit0 neg, bit1 nan, bit2 inf
  std::vector<int64_t> fx;     // +-sig * 2^(exp - fx_lsb) when the format's span fits 64 bits
  std::vector<uint8_t> blk_special;        // per (row, block)
  std::vector<int16_t> blk_lo, blk_hi;     // element exponent range of nonzero elements per block
};

// Lowest element exponent per format (the fixed-point LSB), or INT_MIN when fx is unused.
int fx_lsb(Format f) {
  switch (f) {
    case Format::hif8: return -26;                                 // 2^-22 as 8 * 2^-26; max 15 * 2^12
    case Format::mxfp8_e4m3: case Format::fp8_e4m3: return -9;    // max 15 * 2^5
    case Format::mxfp8_e5m2: case Format::fp8_e5m2: return -16;   // max 7 * 2^13
    default: return INT_MIN;                                       // BF16 spans 2^-133 .. 2^127
  }
}

Packed pack(const fmt::QTensor& t, int w) {
  Packed p;
  const size_t n = t.codes.size();
  p.sig.resize(n);
  p.exp.resize(n);
  p.cls.resize(n);
  const int lsb = fx_lsb(t.format);
  if (lsb != INT_MIN) p.fx.resize(n);
  for (size_t i = 0; i < n; ++i) {
    Elem e;
    const uint16_t c = t.codes[i];
    switch (t.format) {
      case Format::hif8: e = decode_hif8(static_cast<uint8_t>(c)); break;
      case Format::bf16: e = decode_bf16(c); break;
      case Format::mxfp8_e4m3: case Format::fp8_e4m3: e = decode_e4m3(static_cast<uint8_t>(c)); break;
      default: e = decode_e5m2(static_cast<uint8_t>(c)); break;
    }
    p.sig[i] = static_cast<uint16_t>(e.kind == Elem::num ? e.sig : 0);
    p.exp[i] = static_cast<int16_t>(e.exp);
    p.cls[i] = static_cast<uint8_t>((e.neg ? 1 : 0) | (e.kind == Elem::nan ? 2 : 0) | (e.kind == Elem::inf ? 4 : 0));
    if (lsb != INT_MIN) {
      const int64_t v = e.kind == Elem::num ? static_cast<int64_t>(e.sig) << (e.exp - lsb) : 0;
      p.fx[i] = e.neg ? -v : v;
    }
  }
  const size_t nblk = n / static_cast<size_t>(w);
  p.blk_special.assign(nblk, 0);
  p.blk_lo.assign(nblk, SHRT_MAX);
  p.blk_hi.assign(nblk, SHRT_MIN);
  for (size_t b = 0; b < nblk; ++b) {
    for (int k = 0; k < w; ++k) {
      const size_t i = b * w + k;
      if (p.cls[i] & 6) p.blk_special[b] = 1;
      if (p.sig[i]) {
        p.blk_lo[b] = std::min(p.blk_lo[b], p.exp[i]);
        p.blk_hi[b] = std::max(p.blk_hi[b], p.exp[i]);
      }
    }
  }
  return p;
}

struct Block {
  uint32_t sig[64];
  int16_t exp[64];
  uint8_t neg[64];
  SpecialTracker sp;
};

void products(const Packed& a, size_t ia, const Packed& b, size_t ib, int w, Block& blk) {
  blk.sp = SpecialTracker{};
  for (int k = 0; k < w; ++k) {
    const uint8_t ca = a.cls[ia + k], cb = b.cls[ib + k];
    const bool neg = (ca ^ cb) & 1;
    blk.neg[k] = neg;
    blk.sig[k] = static_cast<uint32_t>(a.sig[ia + k]) * b.sig[ib + k];
    blk.exp[k] = static_cast<int16_t>(a.exp[ia + k] + b.exp[ib + k]);
    if ((ca | cb) & 6) {
      blk.sig[k] = 0;
      if ((ca | cb) & 2) {
        blk.sp.nan = true;
      } else {
        const bool zero = (!(ca & 4) && a.sig[ia + k] == 0) || (!(cb & 4) && b.sig[ib + k] == 0);
        if (zero) blk.sp.nan = true;
        else (neg ? blk.sp.ninf : blk.sp.pinf) = true;
      }
    }
  }
}

inline void finish_exact(i128 s, int exp, DotResult& r) {
  r.exact = ExactValue::from_int(s, exp);
  r.value = round_to_float(r.exact);
}

}  // namespace

void gemm_float_elems(const fmt::QTensor& A, const fmt::QTensor& B, const GemmSpec& s, float* C) {
  const int w = dot_width(s);
  const Packed pa = pack(A, w), pb = pack(B, w);
  const size_t M = A.rows, N = B.rows, K = A.padded_cols;
  const size_t nb = K / static_cast<size_t>(w);
  const bool fp8 = s.format != Format::hif8 && s.format != Format::bf16;
  const bool mx = s.format == Format::mxfp8_e4m3 || s.format == Format::mxfp8_e5m2;
  const AlignSpec align = fp8 ? AlignSpec{} : effective_align(s);
  const int pbits = s.format == Format::bf16 ? kBf16ProductBits : kHif8ProductBits;
  const int lsb = fx_lsb(s.format);
  const bool e4m3 = s.format == Format::mxfp8_e4m3 || s.format == Format::fp8_e4m3;
  parallel_for(M * N, s.threads, [&](size_t b0, size_t b1) {
    Accumulator acc(s.acc);
    Block blk;
    for (size_t i = b0; i < b1; ++i) {
      const size_t m = i / N, n = i % N;
      acc.reset(0.0f);
      for (size_t b = 0; b < nb; ++b) {
        DotResult r;
        const size_t ba = m * nb + b, bb = n * nb + b;
        const size_t ia = ba * w, ib = bb * w;
        int scale_exp = 0;
        if (mx) {
          const uint8_t xa = A.scales[ba], xb = B.scales[bb];
          if (xa == fmt::kE8M0NaN || xb == fmt::kE8M0NaN) {
            r.exact = ExactValue::make_nan();
            r.value = fmt::f32_nan();
            acc.add(r);
            continue;
          }
          scale_exp = (xa - 127) + (xb - 127);
        }
        const bool special = pa.blk_special[ba] || pb.blk_special[bb];
        const bool any = pa.blk_lo[ba] != SHRT_MAX && pb.blk_lo[bb] != SHRT_MAX;
        // Product exponent range of the block (bounded by the element ranges).
        const int plo = any ? pa.blk_lo[ba] + pb.blk_lo[bb] : 0;
        const int phi = any ? pa.blk_hi[ba] + pb.blk_hi[bb] : 0;
        const bool fits_window = align.width == 0 || phi + pbits - plo <= align.width;
        if (!special && !any) {
          r.value = 0.0f;  // every product is zero: +0
        } else if (!special && fits_window && lsb != INT_MIN) {
          const int64_t* fa = pa.fx.data() + ia;
          const int64_t* fb = pb.fx.data() + ib;
          if (e4m3) {  // 18-bit elements: products and their sum fit 64 bits
            int64_t sum = 0;
            for (int k = 0; k < w; ++k) sum += fa[k] * fb[k];
            finish_exact(sum, 2 * lsb + scale_exp, r);
          } else {  // exact: fixed-point elements, 128-bit products
            i128 sum = 0;
            for (int k = 0; k < w; ++k) sum += static_cast<i128>(fa[k]) * fb[k];
            finish_exact(sum, 2 * lsb + scale_exp, r);
          }
        } else if (!special && fits_window && phi - plo + 16 + 7 <= 62) {
          int64_t sum = 0;  // exact: as below, when the block's span fits 64 bits
          for (int k = 0; k < w; ++k) {
            const uint32_t ps = static_cast<uint32_t>(pa.sig[ia + k]) * pb.sig[ib + k];
            if (!ps) continue;  // a zero element's exponent is arbitrary: never shift by it
            const int64_t v = static_cast<int64_t>(ps) << (pa.exp[ia + k] + pb.exp[ib + k] - plo);
            sum += ((pa.cls[ia + k] ^ pb.cls[ib + k]) & 1) ? -v : v;
          }
          finish_exact(sum, plo + scale_exp, r);
        } else if (!special && fits_window && phi - plo + 16 + 7 <= 125) {
          i128 sum = 0;  // exact: shifts relative to the block's lowest product exponent
          for (int k = 0; k < w; ++k) {
            const uint32_t ps = static_cast<uint32_t>(pa.sig[ia + k]) * pb.sig[ib + k];
            if (!ps) continue;
            const i128 v = static_cast<i128>(ps) << (pa.exp[ia + k] + pb.exp[ib + k] - plo);
            sum += ((pa.cls[ia + k] ^ pb.cls[ib + k]) & 1) ? -v : v;
          }
          finish_exact(sum, plo + scale_exp, r);
        } else {
          products(pa, ia, pb, ib, w, blk);
          if (blk.sp.any()) {
            r.exact = blk.sp.result();
            r.value = round_to_float(r.exact);
          } else {
            r = aligned_sum(w, blk.sig, blk.exp, blk.neg, pbits, align, nullptr);
            if (scale_exp != 0 && r.exact.kind == ExactValue::finite) {
              r.exact.exp += scale_exp;
              r.value = round_to_float(r.exact);
            }
          }
        }
        acc.add(r);
      }
      C[i] = epilogue(acc.result(), A, B);
    }
  }, 16);
}

}  // namespace hifsim::dp
