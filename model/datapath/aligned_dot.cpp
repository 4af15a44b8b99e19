#include "datapath/aligned_dot.hpp"

#include <algorithm>
#include <climits>

#include "datapath/element.hpp"
#include "formats/bits.hpp"

namespace hifsim::dp {
namespace {

struct Products {
  uint32_t sig[64];
  int16_t exp[64];
  uint8_t neg[64];
  SpecialTracker sp;
};

void product(const Elem& x, const Elem& y, int k, Products& p) {
  p.neg[k] = x.neg != y.neg;
  p.sig[k] = 0;
  p.exp[k] = 0;
  if (x.kind == Elem::nan || y.kind == Elem::nan) {
    p.sp.nan = true;
  } else if (x.kind == Elem::inf || y.kind == Elem::inf) {
    const bool zero = (x.kind == Elem::num && x.sig == 0) || (y.kind == Elem::num && y.sig == 0);
    if (zero) p.sp.nan = true;
    else (p.neg[k] ? p.sp.ninf : p.sp.pinf) = true;
  } else {
    p.sig[k] = x.sig * y.sig;
    p.exp[k] = static_cast<int16_t>(x.exp + y.exp);
  }
}

}  // namespace

AlignSpec default_align(fmt::Format f) {
  AlignSpec a;
  if (fmt::format_traits(f).unit == fmt::DotUnit::bf16_dot64) {
    a.width = 64;
    a.policy = AlignPolicy::sticky;
  }
  return a;  // hif8: exact
}

DotResult aligned_sum(int n, const uint32_t* psig, const int16_t* pexp, const uint8_t* pneg, int pbits,
                      const AlignSpec& spec, AlignedDotStages* st) {
  int emax = INT_MIN;
  for (int k = 0; k < n; ++k)
    if (psig[k]) emax = std::max(emax, pexp[k] + pbits);
  DotResult r;
  if (st) {
    st->term.assign(n, 0);
    st->dropped.assign(n, 0);
    st->emax = emax;
  }
  if (emax == INT_MIN) {  // every product is zero
    r.value = 0.0f;
    if (st) st->sum = 0;
    return r;
  }
  if (spec.width == 0) {  // exact: the sum of every product, rounded once
    int emin = INT_MAX;
    for (int k = 0; k < n; ++k)
      if (psig[k]) emin = std::min<int>(emin, pexp[k]);
    if (emax - emin + 7 <= 126) {
      // The products fit 128 bits aligned to the lowest one (always for HiF8): the same exact
      // value as the 768-bit register below, faster.
      i128 S = 0;
      for (int k = 0; k < n; ++k)
        if (psig[k]) {
          const i128 t = static_cast<i128>(psig[k]) << (pexp[k] - emin);
          S += pneg[k] ? -t : t;
        }
      r.exact = ExactValue::from_int(S, emin);
      r.value = round_to_float(r.exact);
      if (st) st->lsb = INT_MIN;
      return r;
    }
    ExactSum sum;
    for (int k = 0; k < n; ++k)
      if (psig[k]) sum.add(ExactValue::from_int(pneg[k] ? -static_cast<i128>(psig[k]) : psig[k], pexp[k]));
    r.exact = sum.value();
    r.value = round_to_float(r.exact);
    if (st) st->lsb = INT_MIN;
    return r;
  }
  const int W = spec.width;
  const bool sticky = spec.policy == AlignPolicy::sticky;
  const int L = emax - W;
  i128 S = 0;
  for (int k = 0; k < n; ++k) {
    if (!psig[k]) continue;
    // Position of the product's LSB relative to the window LSB (one lower with the jam bit).
    const int rel = pexp[k] - L + (sticky ? 1 : 0);
    u128 t;
    bool dropped = false;
    if (rel >= 0) {
      t = static_cast<u128>(psig[k]) << rel;  // rel + pbits <= W + 1 <= 121
    } else if (-rel >= 32) {
      t = 0;
      dropped = true;
    } else {
      t = psig[k] >> (-rel);
      dropped = (psig[k] & ((1u << (-rel)) - 1)) != 0;
    }
    if (sticky && dropped) t |= 1;
    if (st) {
      st->term[k] = t;
      st->dropped[k] = dropped;
    }
    S += pneg[k] ? -static_cast<i128>(t) : static_cast<i128>(t);
  }
  if (st) {
    st->lsb = L;
    st->sum = S;
  }
  r.exact = ExactValue::from_int(S, L - (sticky ? 1 : 0));
  r.value = round_to_float(r.exact);
  return r;
}

namespace {
DotResult finish(int n, Products& p, int pbits, const AlignSpec& spec, AlignedDotStages* st) {
  if (st) {
    st->psig.assign(p.sig, p.sig + n);
    st->pexp.assign(p.exp, p.exp + n);
    st->pneg.assign(p.neg, p.neg + n);
    st->special = p.sp.any();
    st->nan = p.sp.nan;
    st->pinf = p.sp.pinf;
    st->ninf = p.sp.ninf;
  }
  DotResult r;
  if (p.sp.any()) {
    if (st) aligned_sum(n, p.sig, p.exp, p.neg, pbits, spec, st);  // the stage values only
    r.exact = p.sp.result();
    r.value = round_to_float(r.exact);
  } else {
    r = aligned_sum(n, p.sig, p.exp, p.neg, pbits, spec, st);
  }
  if (st) st->out_bits = fmt::f32_bits(r.value);
  return r;
}
}  // namespace

DotResult Hif8DotN::compute(const uint8_t* a, const uint8_t* b, int n, const AlignSpec& spec, AlignedDotStages* st) {
  Products p;
  for (int k = 0; k < n; ++k) product(decode_hif8(a[k]), decode_hif8(b[k]), k, p);
  return finish(n, p, kHif8ProductBits, spec, st);
}

DotResult Bf16Dot64::compute(const uint16_t* a, const uint16_t* b, const AlignSpec& spec, AlignedDotStages* st) {
  Products p;
  for (int k = 0; k < 64; ++k) product(decode_bf16(a[k]), decode_bf16(b[k]), k, p);
  return finish(64, p, kBf16ProductBits, spec, st);
}

}  // namespace hifsim::dp
