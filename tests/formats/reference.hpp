// Reference codecs for the format tests, written deliberately simply and independently of
// model/formats/ (TestFloat's "slowfloat" idea): values are enumerated or computed as exact
// doubles, rounding is "pick the nearest candidate" with an explicit tie rule, and nothing
// here calls the code under test (the one thing shared with model/formats/ is the FP32 bit cast
// of formats/bits.hpp, a memcpy). Expected values in the tests come from here or from the
// specification data files in data/, never from the codecs being tested.
#pragma once
#include "common/test_env.hpp"
#include "formats/bits.hpp"
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace ref {

inline uint32_t bits(float f) { return hifsim::fmt::f32_bits(f); }
inline float from_bits(uint32_t u) { return hifsim::fmt::bits_f32(u); }

// ---- test seeds and scale: tests/common/test_env.hpp ----
using hifsim::test::scaled;
using hifsim::test::seed_note;
using hifsim::test::test_scale;
using hifsim::test::test_seed;

// A tiny generator of its own (xorshift64*), so the test stimulus does not depend on util/rng.hpp.
struct Gen {
  uint64_t s;
  explicit Gen(uint64_t seed) : s(seed * 0x9E3779B97F4A7C15ull + 1) {}
  uint64_t next() {
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    return s * 0x2545F4914F6CDD1Dull;
  }
  uint32_t u32() { return static_cast<uint32_t>(next() >> 32); }
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
};

// ---- rounding among candidates -------------------------------------------------------------
// `grid`: ascending non-negative candidate magnitudes starting with 0 (or with the smallest
// value for formats without zero), finite. `virt`: a virtual value above the largest finite one
// (the overflow slot: HiF8 Inf behaves like 49152, E4M3 NaN like 480, E5M2 Inf like 65536);
// choosing it means "overflow". Returns the chosen magnitude, or `virt`.
enum class Mode { rne, away, rz, sr, hybrid };

struct Pick {
  double lo, hi;  // lo <= a < hi (hi may be virt)
};
inline Pick bracket(const std::vector<double>& grid, double virt, double a) {
  auto it = std::upper_bound(grid.begin(), grid.end(), a);  // first > a
  if (it == grid.begin()) return {grid.front(), grid.front()};  // below the smallest (callers clamp)
  const double lo = *(it - 1);
  const double hi = it == grid.end() ? virt : *it;
  return {lo, hi};
}
// Nearest; on a tie: away -> larger magnitude; rne -> the candidate that is an even multiple of
// the spacing hi - lo (for every format here this is the code with an even significand).
inline double round_between(double a, double lo, double hi, Mode m, uint64_t rbits = 0) {
  if (a == lo) return lo;
  const double dl = a - lo, dh = hi - a;  // exact: all quantities are short binary fractions
  switch (m) {
    case Mode::rz: return lo;
    case Mode::away: return dl < dh ? lo : hi;
    case Mode::rne: {
      if (dl < dh) return lo;
      if (dh < dl) return hi;
      const double q = hi - lo;
      const double n = lo / q;
      return std::fmod(n, 2.0) == 0.0 ? lo : hi;
    }
    case Mode::sr: {
      // up iff F + rbits >= 2^64, F = floor(2^64 (a - lo) / (hi - lo)) (docs/training.md; the
      // spacing hi - lo is a power of two, so the long double quotient is exact).
      const long double frac = static_cast<long double>(dl) / static_cast<long double>(hi - lo);
      const uint64_t F = static_cast<uint64_t>(std::floor(std::ldexp(frac, 64)));
      return rbits != 0 && F >= uint64_t{0} - rbits ? hi : lo;
    }
    default: return lo;
  }
}

// ---- HiF8 (hif8.md): values from the specification table (data/hif8_reference_table.csv) ----
struct Hif8Grid {
  std::vector<double> grid;    // 0 and the 126 positive finite values, ascending
  std::vector<uint8_t> codes;  // positive code of each grid value
  uint32_t table[256];         // FP32 bits of every code, as in the specification
};
// The rows of the specification's table as transcribed: code, class, FP32 bits of the value.
struct Hif8SpecRow {
  unsigned code;
  std::string cls;
  uint32_t bits;
};
inline std::vector<Hif8SpecRow> hif8_spec_rows() {
  std::ifstream f(HIFSIM_TEST_DATA "/hif8_reference_table.csv");
  if (!f) {
    std::fprintf(stderr, "missing %s\n", HIFSIM_TEST_DATA "/hif8_reference_table.csv");
    std::abort();
  }
  std::vector<Hif8SpecRow> rows;
  std::string line;
  while (std::getline(f, line)) {
    if (line.empty() || line[0] == '#' || line.rfind("code", 0) == 0) continue;
    std::stringstream ss(line);
    std::string code, cls, b;
    std::getline(ss, code, ',');
    std::getline(ss, cls, ',');
    std::getline(ss, b, ',');
    rows.push_back({static_cast<unsigned>(std::stoul(code, nullptr, 16)), cls, static_cast<uint32_t>(std::stoul(b, nullptr, 16))});
  }
  return rows;
}
inline const Hif8Grid& hif8_grid() {
  static const Hif8Grid g = [] {
    Hif8Grid h{};
    std::vector<std::pair<double, uint8_t>> v;
    for (const Hif8SpecRow& r : hif8_spec_rows()) {
      h.table[r.code] = r.bits;
      const float val = from_bits(r.bits);
      if (r.code < 0x80 && std::isfinite(val)) v.push_back({static_cast<double>(val), static_cast<uint8_t>(r.code)});
    }
    std::sort(v.begin(), v.end());
    for (auto& p : v) {
      h.grid.push_back(p.first);
      h.codes.push_back(p.second);
    }
    return h;
  }();
  return g;
}

struct Hif8Opts {
  Mode mode = Mode::away;
  bool saturate = false;
  uint64_t rbits = 0;
  uint32_t t14 = 0;
  bool t14_from_input = true;
  bool strict = false;
};

// hif8.md sections 5 and 6, restated: NaN -> 0x80; Inf -> +-Inf or +-0x6E; the Inf slot acts
// as 1.5*2^15 = 49152 while rounding; zero results are 0x00.
inline uint8_t hif8_encode(float x, const Hif8Opts& o = {}) {
  const Hif8Grid& g = hif8_grid();
  if (std::isnan(x)) return 0x80;
  const uint8_t sign = std::signbit(x) ? 0x80 : 0x00;
  const uint8_t inf = static_cast<uint8_t>(sign | (o.saturate ? 0x6E : 0x6F));
  if (std::isinf(x)) return inf;
  const double a = std::fabs(static_cast<double>(x));
  const double virt = 49152.0;
  const uint8_t ovf = o.mode == Mode::rz ? static_cast<uint8_t>(sign | 0x6E) : inf;
  double r;
  if (a >= virt) return ovf;
  const Pick p = bracket(g.grid, virt, a);
  if (o.mode == Mode::hybrid) {
    if (a >= 40960.0) return ovf;
    if (a < 0x1p-23) return 0x00;
    if (a >= 0.125 && a < 16.0) {
      r = round_between(a, p.lo, p.hi, Mode::away);
    } else {
      const double f14 = std::floor((a - p.lo) / (p.hi - p.lo) * 16384.0);
      const uint32_t t14 = o.t14_from_input ? (bits(x) & 0x3FFF) : (o.t14 & 0x3FFF);
      const bool up = o.strict ? f14 > t14 : f14 >= t14;
      r = up ? p.hi : p.lo;
    }
  } else {
    r = round_between(a, p.lo, p.hi, o.mode, o.rbits);
  }
  if (r == virt) return ovf;
  if (r == 0.0) return 0x00;
  const size_t i = static_cast<size_t>(std::lower_bound(g.grid.begin(), g.grid.end(), r) - g.grid.begin());
  return static_cast<uint8_t>(sign | g.codes[i]);
}

// ---- IEEE-like minifloats (OCP E2M1, E4M3 fn, E5M2) -----------------------------------------
struct Mini {
  int E, M, bias;
  bool ieee_specials;  // E5M2: exponent all ones = Inf/NaN. Otherwise (E4M3 fn) only S.1111.111 is NaN.
  bool has_nan;
  uint8_t nan_mag;     // canonical NaN magnitude code
  int sign_bit() const { return E + M; }
};
inline const Mini kE2M1{2, 1, 1, false, false, 0};
inline const Mini kE4M3{4, 3, 7, false, true, 0x7F};
inline const Mini kE5M2{5, 2, 15, true, true, 0x7E};

// Value of a magnitude code from the textbook formula; NaN for the NaN codes, Inf for E5M2's.
inline double mini_value(const Mini& s, unsigned mag) {
  const unsigned e = mag >> s.M, m = mag & ((1u << s.M) - 1);
  const unsigned eall = (1u << s.E) - 1;
  if (s.ieee_specials && e == eall) return m == 0 ? INFINITY : NAN;
  if (!s.ieee_specials && s.has_nan && mag == ((1u << (s.E + s.M)) - 1)) return NAN;
  if (e == 0) return std::ldexp(static_cast<double>(m), 1 - s.bias - s.M);
  return std::ldexp(1.0 + static_cast<double>(m) / (1 << s.M), static_cast<int>(e) - s.bias);
}
struct MiniGrid {
  std::vector<double> grid;
  std::vector<uint8_t> codes;
  double virt;  // the value one spacing above the largest finite one
};
inline MiniGrid mini_grid(const Mini& s) {
  MiniGrid g;
  for (unsigned c = 0; c < (1u << (s.E + s.M)); ++c) {
    const double v = mini_value(s, c);
    if (std::isfinite(v)) {
      g.grid.push_back(v);
      g.codes.push_back(static_cast<uint8_t>(c));
    }
  }
  const size_t n = g.grid.size();
  g.virt = g.grid[n - 1] + (g.grid[n - 1] - g.grid[n - 2]);
  return g;
}
inline double mini_decode(const Mini& s, uint8_t code) {
  const double v = mini_value(s, code & ((1u << s.sign_bit()) - 1));
  return (code >> s.sign_bit()) & 1 ? -v : v;
}
// NaN -> sign | NaN code; Inf and overflow -> Inf (E5M2) / NaN (E4M3) or +-max when saturating
// (always for E2M1); truncation never overflows a finite value; zero keeps its sign.
inline uint8_t mini_encode(const Mini& s, double x, Mode m, bool saturate, uint64_t rbits = 0) {
  static const MiniGrid g2 = mini_grid(kE2M1), g4 = mini_grid(kE4M3), g5 = mini_grid(kE5M2);
  const MiniGrid& g = s.E == 2 ? g2 : s.E == 4 ? g4 : g5;
  const uint8_t sign = std::signbit(x) ? static_cast<uint8_t>(1u << s.sign_bit()) : 0;
  const uint8_t maxc = g.codes.back();
  const bool sat = saturate || !s.has_nan;
  const uint8_t ovf_mag = sat ? maxc : (s.ieee_specials ? static_cast<uint8_t>(maxc + 1) : s.nan_mag);
  if (std::isnan(x)) return static_cast<uint8_t>(sign | s.nan_mag);
  if (std::isinf(x)) return static_cast<uint8_t>(sign | ovf_mag);
  const double a = std::fabs(x);
  const uint8_t finite_ovf = m == Mode::rz ? maxc : ovf_mag;
  if (a >= g.virt) return static_cast<uint8_t>(sign | finite_ovf);
  const Pick p = bracket(g.grid, g.virt, a);
  const double r = round_between(a, p.lo, p.hi, m, rbits);
  if (r == g.virt) return static_cast<uint8_t>(sign | finite_ovf);
  const size_t i = static_cast<size_t>(std::lower_bound(g.grid.begin(), g.grid.end(), r) - g.grid.begin());
  return static_cast<uint8_t>(sign | g.codes[i]);
}

// ---- BF16 -------------------------------------------------------------------------------------
// Nearest BF16 by exact distance, ties to the even pattern; overflow past the largest finite
// value uses 2^128 as the virtual next value (then Inf). NaN: the canonical quiet NaN with its sign.
inline uint16_t bf16_encode(float x, bool truncate = false) {
  const uint32_t b = bits(x);
  if (std::isnan(x)) return static_cast<uint16_t>(std::signbit(x) ? 0xFFC0 : 0x7FC0);  // canonical, sign kept
  const uint16_t sign = static_cast<uint16_t>(b >> 16) & 0x8000;
  const uint16_t lo = static_cast<uint16_t>((b & 0x7FFFFFFF) >> 16);
  if (std::isinf(x) || truncate) return static_cast<uint16_t>(sign | lo);
  const double a = std::fabs(static_cast<double>(x));
  const double vlo = static_cast<double>(from_bits(static_cast<uint32_t>(lo) << 16));
  const uint16_t hi = static_cast<uint16_t>(lo + 1);
  const double vhi = hi == 0x7F80 ? std::ldexp(1.0, 128) : static_cast<double>(from_bits(static_cast<uint32_t>(hi) << 16));
  if (a == vlo) return static_cast<uint16_t>(sign | lo);
  const double dl = a - vlo, dh = vhi - a;
  const uint16_t pick = dl < dh ? lo : dh < dl ? hi : ((lo & 1) ? hi : lo);
  return static_cast<uint16_t>(sign | pick);
}
inline double bf16_value(uint16_t h) { return static_cast<double>(from_bits(static_cast<uint32_t>(h) << 16)); }
inline double bf16_round(double v) { return bf16_value(bf16_encode(static_cast<float>(v))); }  // v exact in float

// ---- scales ---------------------------------------------------------------------------------
inline double e6m2_value(uint8_t c) {
  if (c == 0xFF) return NAN;
  return std::ldexp(1.0 + (c & 3) / 4.0, static_cast<int>(c >> 2) - 48);
}
// Nearest E6M2 value, ties to even mantissa, clamped to [2^-48, 49152]; NaN -> 0xFF; x <= 0 -> 0x00.
inline uint8_t e6m2_encode(float x) {
  if (std::isnan(x)) return 0xFF;
  if (!(x > 0.0f)) return 0x00;
  const double a = x;
  if (a >= 49152.0) return 0xFE;
  if (a <= 0x1p-48) return 0x00;
  static const std::vector<double> grid = [] {
    std::vector<double> v;
    for (int c = 0; c < 0xFF; ++c) v.push_back(e6m2_value(static_cast<uint8_t>(c)));
    return v;
  }();
  const Pick p = bracket(grid, 57344.0, a);
  double r = round_between(a, p.lo, p.hi, Mode::rne);
  if (r > 49152.0) r = 49152.0;
  return static_cast<uint8_t>(std::lower_bound(grid.begin(), grid.end(), r) - grid.begin());
}
inline double e8m0_value(uint8_t c) { return c == 0xFF ? NAN : std::ldexp(1.0, static_cast<int>(c) - 127); }
// ml-dtypes float8_e8m0fnu behaviour: nearest power of two, 1.5*2^k goes up; < 2^-127 -> 0x00;
// zero, negative, NaN, Inf and >= 1.5*2^127 -> 0xFF.
inline uint8_t e8m0_encode(float x) {
  if (!(x > 0.0f) || std::isinf(x)) return 0xFF;
  const double a = x;
  if (a < 0x1p-127) return 0x00;
  for (int k = -127; k <= 127; ++k) {
    const double lo = std::ldexp(1.0, k);
    if (a < 2 * lo) return a < 1.5 * lo ? static_cast<uint8_t>(k + 127) : (k == 127 ? 0xFF : static_cast<uint8_t>(k + 128));
  }
  return 0xFF;
}
// S1P2 on its own: m = round(4|x|) (away: floor(4|x| + 1/2); rne: ties to even), min 7; sign = x < 0.
inline uint8_t s1p2_encode(double x, Mode m) {
  const double y = std::fabs(x) * 4.0;
  double n = m == Mode::away ? std::floor(y + 0.5) : std::nearbyint(y);
  if (m == Mode::away && y < 0.5) n = 0;  // y + 0.5 cannot round up below 0.5 (exact anyway)
  if (n > 7) n = 7;
  return static_cast<uint8_t>((x < 0 ? 8 : 0) | static_cast<int>(n));
}

// ---- HiF4 (hif4.md section 2, transcribed with exact double arithmetic) ---------------------
struct Hif4 {
  uint8_t e6m2 = 0, e8 = 0;
  uint16_t e16 = 0;
  uint8_t nib[64] = {};
};
struct Hif4Opts {
  bool rne = false;        // element rounding: ties to even instead of half away
  bool bf16_compare = false;
  bool inf_to_nan = false;
};
inline Hif4 hif4_quantize(const float* xin, const Hif4Opts& o = {}) {
  Hif4 u;
  double x[64], mag[64];
  bool any_inf = false;
  for (int k = 0; k < 64; ++k) {
    x[k] = bf16_value(bf16_encode(xin[k]));  // the golden model takes BF16 (RNE from FP32)
    if (std::isnan(x[k])) {
      u.e6m2 = 0xFF;
      return u;
    }
    any_inf |= std::isinf(x[k]);
    mag[k] = std::fabs(x[k]);
  }
  if (any_inf && o.inf_to_nan) {
    u.e6m2 = 0xFF;
    return u;
  }
  double v16[16], v8[8], vmax = 0;
  for (int j = 0; j < 16; ++j) v16[j] = std::max({mag[4 * j], mag[4 * j + 1], mag[4 * j + 2], mag[4 * j + 3]});
  for (int i = 0; i < 8; ++i) {
    v8[i] = std::max(v16[2 * i], v16[2 * i + 1]);
    vmax = std::max(vmax, v8[i]);
  }
  const double c7 = 0.142578125;  // 0x3E12
  double sf = std::isinf(vmax) ? INFINITY : bf16_round(vmax * c7);
  sf = std::min(std::max(sf, 0x1p-48), 49152.0);
  int e;
  std::frexp(sf, &e);
  e -= 1;  // sf = t/4 * 2^e with t in [4, 8)
  double t = std::ldexp(sf, 2 - e);
  t = std::nearbyint(t);  // ties to even
  if (t == 8) {
    t = 4;
    e += 1;
  }
  u.e6m2 = static_cast<uint8_t>(((e + 48) << 2) | static_cast<int>(t - 4));
  const double scale = e6m2_value(u.e6m2);
  const double rec = bf16_round(1.0 / scale);
  auto prod = [&](double v) { return o.bf16_compare ? bf16_round(v * rec) : v * rec; };
  int b8[8], b16[16];
  for (int i = 0; i < 8; ++i) {
    b8[i] = prod(v8[i]) >= 4.0;
    u.e8 |= static_cast<uint8_t>(b8[i] << i);
  }
  for (int j = 0; j < 16; ++j) {
    b16[j] = prod(v16[j]) / (b8[j / 2] ? 2.0 : 1.0) >= 2.0;
    u.e16 |= static_cast<uint16_t>(b16[j] << j);
  }
  for (int k = 0; k < 64; ++k) {
    const double y4 = mag[k] * rec * 4.0 / static_cast<double>(1 << (b8[k / 8] + b16[k / 4]));
    double m = o.rne ? std::nearbyint(y4) : std::floor(y4 + 0.5);
    if (!(m <= 7)) m = 7;  // also Inf
    u.nib[k] = static_cast<uint8_t>((x[k] < 0 ? 8 : 0) | static_cast<int>(m));
  }
  return u;
}
inline double hif4_value(const Hif4& u, int k) {
  if (u.e6m2 == 0xFF) return NAN;
  const double v = (u.nib[k] & 7) / 4.0 * ((u.e8 >> (k / 8)) & 1 ? 2 : 1) * ((u.e16 >> (k / 4)) & 1 ? 2 : 1) *
                   e6m2_value(u.e6m2);
  return u.nib[k] & 8 ? -v : v;
}

// ---- OCP MX (mx-nvfp4-fp8.md section 3) ------------------------------------------------------
inline int mini_emax(const Mini& s) { return s.E == 2 ? 2 : s.E == 4 ? 8 : 15; }
inline double mini_max(const Mini& s) { return s.E == 2 ? 6.0 : s.E == 4 ? 448.0 : 57344.0; }
struct MxBlock {
  uint8_t scale;
  uint8_t codes[32];
};
inline MxBlock mx_quantize(const Mini& s, const float* x, int n, Mode m, bool ceil_rule) {
  MxBlock b{};
  double amax = 0;
  for (int i = 0; i < n; ++i) {
    if (!std::isfinite(x[i])) {
      b.scale = 0xFF;
      return b;
    }
    amax = std::max(amax, std::fabs(static_cast<double>(x[i])));
  }
  int shared;
  if (amax == 0) {
    shared = -127;
  } else if (!ceil_rule) {
    int e;
    std::frexp(amax, &e);
    shared = (e - 1) - mini_emax(s);
  } else {
    shared = -300;
    while (mini_max(s) * std::ldexp(1.0, shared) < amax) ++shared;
  }
  if (shared < -127) shared = -127;
  b.scale = static_cast<uint8_t>(shared + 127);
  for (int i = 0; i < n; ++i) b.codes[i] = mini_encode(s, std::ldexp(static_cast<double>(x[i]), -shared), m, true);
  return b;
}
inline double mx_value(const Mini& s, const MxBlock& b, int i) {
  if (b.scale == 0xFF) return NAN;
  return mini_decode(s, b.codes[i]) * std::ldexp(1.0, static_cast<int>(b.scale) - 127);
}

}  // namespace ref
