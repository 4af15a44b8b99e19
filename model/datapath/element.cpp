#include "datapath/element.hpp"

#include "formats/hif8.hpp"

namespace hifsim::dp {

Elem decode_e2m1(uint8_t c) {
  static const uint8_t half_units[8] = {0, 1, 2, 3, 4, 6, 8, 12};
  Elem e;
  e.neg = (c >> 3) & 1;
  e.sig = half_units[c & 7];
  e.exp = -1;
  return e;
}

Elem decode_e4m3(uint8_t c) {
  Elem e;
  e.neg = c >> 7;
  const uint32_t ex = (c >> 3) & 15, m = c & 7;
  if (ex == 15 && m == 7) {
    e.kind = Elem::nan;
    return e;
  }
  e.sig = ex ? 8 + m : m;
  e.exp = (ex ? static_cast<int>(ex) : 1) - 10;
  return e;
}

namespace {
Elem decode_hif8_slow(uint8_t c) {
  Elem e;
  if (c == fmt::kHif8NaN) {
    e.kind = Elem::nan;
    return e;
  }
  e.neg = c >> 7;
  if ((c & 0x7F) == fmt::kHif8PosInf) {
    e.kind = Elem::inf;
    return e;
  }
  if (c == 0) return e;
  // Read the exact value from the decode table and split it (every HiF8 value is 1.mmm * 2^E).
  const float v = fmt::hif8_decode(static_cast<uint8_t>(c & 0x7F));
  int E;
  const float fr = __builtin_frexpf(v, &E);  // v = fr * 2^E, fr in [0.5, 1)
  e.sig = static_cast<uint32_t>(fr * 16.0f);  // exact: 1.mmm * 8 = 8..15
  e.exp = E - 4;
  return e;
}
}  // namespace

Elem decode_hif8(uint8_t c) {
  // All 256 codes split once (the reference GEMM decodes every element of every block).
  static const struct Table {
    Elem e[256];
    Table() {
      for (int i = 0; i < 256; ++i) e[i] = decode_hif8_slow(static_cast<uint8_t>(i));
    }
  } table;
  return table.e[c];
}

}  // namespace hifsim::dp
