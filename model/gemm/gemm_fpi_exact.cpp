#include "gemm/gemm_fpi_exact.hpp"

#include <algorithm>
#include <climits>

#include "datapath/element.hpp"
#include "formats/scales.hpp"

namespace hifsim::dp {

namespace {

// One element code: value = odd * 2^lsb (odd = 0 for zero), the unit's exponent, special.
struct Odd {
  int32_t odd = 0;
  int16_t lsb = 0, exp = 0;
  bool special = false;
};

Odd odd_of(const Elem& e) {
  Odd o;
  if (e.kind != Elem::num) {
    o.special = true;
    return o;
  }
  if (!e.sig) return o;
  const int tz = __builtin_ctz(e.sig);
  o.odd = static_cast<int32_t>(e.sig >> tz) * (e.neg ? -1 : 1);
  o.lsb = static_cast<int16_t>(e.exp + tz);
  o.exp = static_cast<int16_t>(e.exp);
  return o;
}

// Every 8-bit code of one element format, decoded once per process.
template <Elem (*Decode)(uint8_t)>
const Odd* table8() {
  static const struct T {
    Odd v[256];
    T() {
      for (int c = 0; c < 256; ++c) v[c] = odd_of(Decode(static_cast<uint8_t>(c)));
    }
  } t;
  return t.v;
}

const Odd* table_of(fmt::Code code) {
  if (code == fmt::Code::e4m3) return table8<&decode_e4m3>();
  if (code == fmt::Code::e5m2) return table8<&decode_e5m2>();
  if (code == fmt::Code::hif8) return table8<&decode_hif8>();
  return nullptr;  // BF16 and others: the unit
}

}  // namespace

FpiExact::FpiExact(const fmt::QTensor* a, const fmt::QTensor* b, const GemmSpec* spec, int w, int p, int win, bool mx,
                   std::atomic<uint64_t>* calls)
    : A(a), B(b), s(spec), width(w), pbits(p), window(win), mx_scaled(mx), unit_calls(calls),
      table(table_of(fmt::format_traits(spec->format).element)) {}

float fpi_exact_block(const void* ctx, size_t m, size_t n, size_t blk) {
  const FpiExact& c = *static_cast<const FpiExact*>(ctx);
  const fmt::QTensor &A = *c.A, &B = *c.B;
  const Odd* tab = static_cast<const Odd*>(c.table);
  auto unit = [&] {
    c.unit_calls->fetch_add(1, std::memory_order_relaxed);
    return unit_dot(A, m, B, n, blk, *c.s).value;
  };
  if (!tab) return unit();
  const size_t w = static_cast<size_t>(c.width);
  const uint16_t* ca = A.codes.data() + m * A.padded_cols + blk * w;
  const uint16_t* cb = B.codes.data() + n * B.padded_cols + blk * w;
  int scale = 0;
  if (c.mx_scaled) {
    const uint8_t xa = A.scales[m * A.blocks_per_row() + blk], xb = B.scales[n * B.blocks_per_row() + blk];
    if (xa == fmt::kE8M0NaN || xb == fmt::kE8M0NaN) return unit();
    scale = (xa - 127) + (xb - 127);
  }
  int32_t prod[64];
  int16_t lsb[64];
  int lo = INT_MAX, emax = INT_MIN, terms = 0;
  for (size_t k = 0; k < w; ++k) {
    const Odd a = tab[ca[k] & 0xFF], b = tab[cb[k] & 0xFF];
    if (a.special || b.special) return unit();
    if (!a.odd || !b.odd) continue;
    prod[terms] = a.odd * b.odd;
    lsb[terms] = static_cast<int16_t>(a.lsb + b.lsb);
    lo = std::min<int>(lo, lsb[terms]);
    emax = std::max(emax, a.exp + b.exp + c.pbits);
    ++terms;
  }
  if (!terms) return 0.0f;
  // A window keeps the exact sum only when no product bit falls below it (aligned_dot.hpp s3).
  if (c.window > 0 && lo < emax - c.window) return unit();
  // Every term is below 2^(emax - lo), so w <= 64 of them sum below 2^(emax - lo + 6).
  if (emax - lo <= 56) {  // int64 (E4M3 always: products span <= 30 + 8 bits)
    int64_t S = 0;
    for (int t = 0; t < terms; ++t) S += static_cast<int64_t>(static_cast<uint64_t>(static_cast<int64_t>(prod[t])) << (lsb[t] - lo));  // two's complement shift
    return round_to_float(ExactValue::from_int(S, lo + scale));
  }
  if (emax - lo > 120) return unit();  // beyond 128 bits (not reached by the 8-bit codes)
  i128 S = 0;
  for (int t = 0; t < terms; ++t) S += static_cast<i128>(static_cast<unsigned __int128>(static_cast<i128>(prod[t])) << (lsb[t] - lo));
  return round_to_float(ExactValue::from_int(S, lo + scale));
}

}  // namespace hifsim::dp
