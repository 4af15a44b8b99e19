#include "cost/activity.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>
#include <vector>

#include "datapath/accumulator.hpp"
#include "datapath/aligned_dot.hpp"
#include "datapath/gemm.hpp"
#include "datapath/hif4_dot.hpp"
#include "datapath/mx_dot.hpp"
#include "datapath/nvfp4_dot.hpp"
#include "formats/hif8.hpp"
#include "util/error.hpp"
#include "util/rng.hpp"

namespace hifsim::cost {

using i128 = __int128;
using u128 = unsigned __int128;

// ---------------------------------------------------------------------------------------------
// Activity

double Activity::toggles_per_dot(const std::string& comp) const {
  auto it = toggle_sum.find(comp);
  if (it == toggle_sum.end()) throw Error("cost activity", comp, "no activity was measured for this component");
  return transitions ? it->second / static_cast<double>(transitions) : 0.0;
}
double Activity::bits_per_dot(const std::string& comp) const {
  auto it = bit_sum.find(comp);
  if (it == bit_sum.end()) throw Error("cost activity", comp, "no activity was measured for this component");
  return transitions ? it->second / static_cast<double>(transitions) : 0.0;
}
double Activity::alpha(const std::string& comp) const {
  const double b = bits_per_dot(comp);
  return b > 0 ? toggles_per_dot(comp) / b : 0.0;
}
Activity& Activity::operator+=(const Activity& o) {
  if (source.empty()) source = o.source;
  else if (!o.source.empty() && o.source != source) source += "; " + o.source;
  dots += o.dots;
  transitions += o.transitions;
  for (const auto& [k, v] : o.toggle_sum) toggle_sum[k] += v;
  for (const auto& [k, v] : o.bit_sum) bit_sum[k] += v;
  return *this;
}

// ---------------------------------------------------------------------------------------------
// ToggleRecorder

void ToggleRecorder::begin() {
  for (auto& [k, s] : slots_) {
    s.v.clear();
    s.w.clear();
  }
}

void ToggleRecorder::put(const std::string& comp, uint64_t value, int width) {
  if (width < 1 || width > 64) throw Error("cost activity", comp, "value width must be 1..64");
  Slot& s = slots_[comp];
  s.v.push_back(width == 64 ? value : (value & ((uint64_t{1} << width) - 1)));
  s.w.push_back(width);
}

void ToggleRecorder::put128(const std::string& comp, i128 value, int width) {
  if (width < 1 || width > 128) throw Error("cost activity", comp, "value width must be 1..128");
  const u128 u = static_cast<u128>(value);
  if (width <= 64) {
    put(comp, static_cast<uint64_t>(u), width);
  } else {
    put(comp, static_cast<uint64_t>(u), 64);
    put(comp, static_cast<uint64_t>(u >> 64), width - 64);
  }
}

void ToggleRecorder::end(Activity& into) {
  ++into.dots;
  if (have_prev_) {
    ++into.transitions;
    for (auto& [k, s] : slots_) {
      if (s.w != s.prevw)
        throw Error("cost activity", k, "the recorded nets changed shape between operations (internal error)");
      uint64_t t = 0, b = 0;
      for (size_t i = 0; i < s.v.size(); ++i) {
        t += static_cast<uint64_t>(__builtin_popcountll(s.v[i] ^ s.prev[i]));
        b += static_cast<uint64_t>(s.w[i]);
      }
      into.toggle_sum[k] += static_cast<double>(t);
      into.bit_sum[k] += static_cast<double>(b);
    }
  }
  for (auto& [k, s] : slots_) {
    s.prev.swap(s.v);
    s.prevw.swap(s.w);
  }
  have_prev_ = true;
}

namespace {

using fmt::Format;

int ceil_log2(int n) {
  int l = 0;
  while ((1 << l) < n) ++l;
  return l;
}

uint64_t abs64(int64_t v) { return v < 0 ? static_cast<uint64_t>(-v) : static_cast<uint64_t>(v); }
u128 abs128(i128 v) { return v < 0 ? static_cast<u128>(-v) : static_cast<u128>(v); }

uint32_t fbits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

// A balanced pairwise adder tree over `leaves`: records every node (leaves at `w` bits, each
// level one bit wider). Returns the root.
i128 trace_tree(ToggleRecorder& r, const std::string& comp, std::vector<i128> v, int w) {
  for (const i128 x : v) r.put128(comp, x, w);
  while (v.size() > 1) {
    ++w;
    std::vector<i128> next;
    for (size_t i = 0; i + 1 < v.size(); i += 2) next.push_back(v[i] + v[i + 1]);
    if (v.size() % 2) next.push_back(v.back());
    for (const i128 x : next) r.put128(comp, x, w);
    v.swap(next);
  }
  return v.front();
}

// The final integer -> FP32 conversion shared by the units: |sum|, leading one, rounding, exponent.
// `names` = {abs, norm, round (or empty), exp}; `sum_bits` = width of the signed sum.
void trace_final(ToggleRecorder& r, const char* abs_n, const char* norm_n, const char* round_n, const char* exp_n, i128 sum,
                 int sum_bits, int exp_in, int exp_bits, uint32_t out) {
  const u128 mag = abs128(sum);
  r.put128(abs_n, sum, sum_bits);
  r.put128(abs_n, static_cast<i128>(mag), sum_bits - 1);
  r.put128(norm_n, static_cast<i128>(mag), sum_bits - 1);
  // Truncated 24-bit significand (before rounding) and the output mantissa.
  int lead = -1;
  for (int b = 127; b >= 0; --b)
    if ((mag >> b) & 1) {
      lead = b;
      break;
    }
  const uint64_t trunc = lead < 0 ? 0 : static_cast<uint64_t>(lead >= 23 ? (mag >> (lead - 23)) : (mag << (23 - lead)));
  r.put(norm_n, trunc, 24);
  if (round_n) {
    r.put(round_n, trunc, 24);
    r.put(round_n, out & 0x7FFFFF, 23);
  }
  r.put(exp_n, static_cast<uint64_t>(exp_in), exp_bits);
  r.put(exp_n, (out >> 23) & 0xFF, 8);
}

// FP32-family accumulator step: acc (before) + d -> res (after), recorded as the nets of an FP
// adder (exponents, alignment, significand sum, result) and the register.
void trace_acc(ToggleRecorder& r, float acc, float d, float res, int mant_bits) {
  const uint32_t ua = fbits(acc), ub = fbits(d), ur = fbits(res);
  const int ea = static_cast<int>((ua >> 23) & 0xFF), eb = static_cast<int>((ub >> 23) & 0xFF);
  const uint32_t sa = (ea ? 0x800000u : 0) | (ua & 0x7FFFFF), sb = (eb ? 0x800000u : 0) | (ub & 0x7FFFFF);
  const bool a_big = ea > eb || (ea == eb && sa >= sb);
  const uint32_t big = a_big ? sa : sb, small = a_big ? sb : sa;
  const int diff = std::min(std::abs(ea - eb), 31);
  const uint64_t aligned = diff >= 27 ? 0 : ((static_cast<uint64_t>(small) << 3) >> diff);
  const bool sub = ((ua ^ ub) >> 31) != 0;
  const uint64_t bigx = static_cast<uint64_t>(big) << 3;
  const uint64_t sum = sub ? bigx - aligned : bigx + aligned;
  r.put("acc.fpadd", static_cast<uint64_t>(ea), 8);
  r.put("acc.fpadd", static_cast<uint64_t>(eb), 8);
  r.put("acc.fpadd", static_cast<uint64_t>(diff), 5);
  r.put("acc.fpadd", small, 24);
  r.put("acc.fpadd", aligned, 27);
  r.put("acc.fpadd", bigx, 27);
  r.put("acc.fpadd", sum, 28);
  r.put("acc.fpadd", ur, 32);
  r.put("acc.reg", ur >> (23 - mant_bits), 9 + mant_bits);
}

struct Ctx {
  const UnitSpec& s;
  const fmt::QTensor& A;
  const fmt::QTensor& B;
  ToggleRecorder rec;
};

// ---- per-format tracers: run the unit on block (m, n, blk), record every component's nets;
// return the FP32 output (what the accumulator adds).

void put_pipes(ToggleRecorder& r, const UnitSpec& s, int cut, const std::vector<std::pair<i128, int>>& vals) {
  if (!has_cut(s.stages, cut)) return;
  const std::string n = "pipe.c" + std::to_string(cut);
  for (const auto& [v, w] : vals) r.put128(n, v, w);
}

float trace_hif4(Ctx& c, size_t m, size_t n, size_t blk) {
  const fmt::Hif4Unit ua = c.A.hif4_unit(m, blk), ub = c.B.hif4_unit(n, blk);
  dp::Hif4DotStages st;
  const dp::DotResult res = dp::Hif4Dot64::compute(ua, ub, &st);
  ToggleRecorder& r = c.rec;
  for (const fmt::Hif4Unit* u : {&ua, &ub}) {
    r.put("in.operands", u->e6m2, 8);
    r.put("in.operands", u->e1_8, 8);
    r.put("in.operands", u->e1_16, 16);
    for (int k = 0; k < 64; ++k) r.put("in.operands", u->nib[k], 4);
  }
  for (int k = 0; k < 64; ++k) {
    r.put("s0.l3", ua.nib[k] & 7, 3);
    r.put("s0.l3", abs64(st.a_a[k]), 4);
    r.put("s0.l3", ub.nib[k] & 7, 3);
    r.put("s0.l3", abs64(st.a_b[k]), 4);
    r.put("s1.prod", abs64(st.a_a[k]), 4);
    r.put("s1.prod", abs64(st.a_b[k]), 4);
    r.put("s1.prod", ((ua.nib[k] ^ ub.nib[k]) >> 3) & 1, 1);
    r.put("s1.prod", static_cast<uint64_t>(st.p[k]), 9);
  }
  for (int i = 0; i < 8; ++i) {
    std::vector<i128> leaves(st.p + 8 * i, st.p + 8 * i + 8);
    trace_tree(r, "s2.tree", leaves, 9);
    const int sh = ((ua.e1_8 >> i) & 1) + ((ub.e1_8 >> i) & 1);
    r.put("s3.shift", static_cast<uint64_t>(st.group[i]), 12);
    r.put("s3.shift", static_cast<uint64_t>(sh), 2);
    r.put("s3.shift", static_cast<uint64_t>(st.shifted[i]), 14);
  }
  trace_tree(r, "s4.tree", std::vector<i128>(st.shifted, st.shifted + 8), 14);
  const int sa = 4 + (ua.e6m2 & 3), sb = 4 + (ub.e6m2 & 3);
  r.put("s5.smul", static_cast<uint64_t>(sa), 3);
  r.put("s5.smul", static_cast<uint64_t>(sb), 3);
  r.put("s5.smul", st.scale_prod, 6);
  r.put("s5.exp", ua.e6m2 >> 2, 6);
  r.put("s5.exp", ub.e6m2 >> 2, 6);
  r.put("s5.exp", static_cast<uint64_t>(st.exp), 8);
  r.put("s6.mul", static_cast<uint64_t>(st.i_sum), 17);
  r.put("s6.mul", st.scale_prod, 6);
  r.put("s6.mul", static_cast<uint64_t>(st.big), 23);
  trace_final(r, "s7.abs", "s7.norm", nullptr, "s7.exp", st.big, 23, st.exp, 8, st.out_bits);
  const i128 side = (i128(st.nan) << 14) | (i128(st.exp & 0xFF) << 6) | st.scale_prod;
  const i128 e18 = ua.e1_8 | (ub.e1_8 << 8);
  std::vector<std::pair<i128, int>> c1{{side, 15}, {e18, 16}};
  for (int k = 0; k < 64; ++k) c1.push_back({st.p[k], 9});
  put_pipes(r, c.s, 1, c1);
  std::vector<std::pair<i128, int>> c2{{side, 15}, {e18, 16}};
  for (int i = 0; i < 8; ++i) c2.push_back({st.group[i], 12});
  put_pipes(r, c.s, 2, c2);
  put_pipes(r, c.s, 3, {{side, 15}, {st.i_sum, 17}});
  put_pipes(r, c.s, 4, {{st.nan, 1}, {st.exp, 8}, {st.big, 23}});
  put_pipes(r, c.s, 5, {{st.out_bits, 32}});
  return res.value;
}

// E4M3 scale: sig * 2^t (sig 0..15, t -9..5)
void e4m3_sig(uint8_t code, int& sig, int& t) {
  const int e = (code >> 3) & 0xF, m = code & 7;
  sig = e ? 8 + m : m;
  t = e ? e - 10 : -9;
}

float trace_fp4(Ctx& c, size_t m, size_t n, size_t blk, bool nv) {
  const size_t nb = c.A.blocks_per_row();
  const uint16_t* ca = c.A.codes.data() + m * c.A.padded_cols + blk * 64;
  const uint16_t* cb = c.B.codes.data() + n * c.B.padded_cols + blk * 64;
  uint8_t a8[64], b8[64];
  for (int k = 0; k < 64; ++k) {
    a8[k] = static_cast<uint8_t>(ca[k]);
    b8[k] = static_cast<uint8_t>(cb[k]);
  }
  ToggleRecorder& r = c.rec;
  const int8_t* aa;
  const int8_t* ab;
  const int16_t* p;
  dp::Nvfp4DotStages nst;
  dp::Mxfp4DotStages mst;
  dp::DotResult res;
  const uint8_t* sa;
  const uint8_t* sb;
  if (nv) {
    sa = c.A.scales.data() + m * nb + blk * 4;
    sb = c.B.scales.data() + n * nb + blk * 4;
    res = dp::Nvfp4Dot64::compute(a8, sa, b8, sb, &nst);
    aa = nst.a_a, ab = nst.a_b, p = nst.p;
  } else {
    sa = c.A.scales.data() + m * nb + blk * 2;
    sb = c.B.scales.data() + n * nb + blk * 2;
    res = dp::Mxfp4Dot64::compute(a8, sa, b8, sb, &mst);
    aa = mst.a_a, ab = mst.a_b, p = mst.p;
  }
  for (int k = 0; k < 64; ++k) r.put("in.operands", a8[k], 4);
  for (int j = 0; j < (nv ? 4 : 2); ++j) r.put("in.operands", sa[j], 8);
  for (int k = 0; k < 64; ++k) r.put("in.operands", b8[k], 4);
  for (int j = 0; j < (nv ? 4 : 2); ++j) r.put("in.operands", sb[j], 8);
  for (int k = 0; k < 64; ++k) {
    r.put("s0.dec", a8[k] & 7, 3);
    r.put("s0.dec", abs64(aa[k]), 4);
    r.put("s0.dec", b8[k] & 7, 3);
    r.put("s0.dec", abs64(ab[k]), 4);
    r.put("s1.prod", abs64(aa[k]), 4);
    r.put("s1.prod", abs64(ab[k]), 4);
    r.put("s1.prod", ((a8[k] ^ b8[k]) >> 3) & 1, 1);
    r.put("s1.prod", static_cast<uint64_t>(p[k]), 9);
  }
  const uint32_t out = fbits(res.value);
  if (nv) {
    const dp::Nvfp4DotStages& st = nst;
    for (int j = 0; j < 4; ++j) trace_tree(r, "s2.tree", std::vector<i128>(p + 16 * j, p + 16 * j + 16), 9);
    for (int j = 0; j < 4; ++j) {
      int sga, ta, sgb, tb;
      e4m3_sig(sa[j], sga, ta);
      e4m3_sig(sb[j], sgb, tb);
      r.put("s3.sdec", sa[j] & 0x7F, 7);
      r.put("s3.sdec", static_cast<uint64_t>(sga), 4);
      r.put("s3.sdec", sb[j] & 0x7F, 7);
      r.put("s3.sdec", static_cast<uint64_t>(sgb), 4);
      r.put("s3.smul", static_cast<uint64_t>(sga), 4);
      r.put("s3.smul", static_cast<uint64_t>(sgb), 4);
      r.put("s3.smul", st.ss[j], 8);
      r.put("s3.exp", static_cast<uint64_t>(ta), 5);
      r.put("s3.exp", static_cast<uint64_t>(tb), 5);
      r.put("s3.exp", static_cast<uint64_t>(st.tt[j]), 6);
      r.put("s4.mul", static_cast<uint64_t>(st.sub[j]), 13);
      r.put("s4.mul", st.ss[j], 8);
      r.put("s4.mul", static_cast<uint64_t>(st.partial[j]), 21);
      r.put("s5.shift", static_cast<uint64_t>(st.partial[j]), 21);
      r.put("s5.shift", static_cast<uint64_t>(st.tt[j] + 18), 5);
      r.put("s5.shift", static_cast<uint64_t>(st.aligned[j]), 49);
    }
    trace_tree(r, "s6.tree", std::vector<i128>(st.aligned, st.aligned + 4), 49);
    trace_final(r, "s7.abs", "s7.norm", "s7.round", "s7.exp", st.total, 51, -20, 8, out);
    std::vector<std::pair<i128, int>> sc;
    for (int j = 0; j < 4; ++j) sc.push_back({(i128(sb[j]) << 8) | sa[j], 16});
    std::vector<std::pair<i128, int>> c1 = sc, c2 = sc, c3;
    for (int k = 0; k < 64; ++k) c1.push_back({p[k], 9});
    for (int j = 0; j < 4; ++j) c2.push_back({st.sub[j], 13});
    for (int j = 0; j < 4; ++j) c3.push_back({st.partial[j], 21}), c3.push_back({st.tt[j], 6});
    put_pipes(r, c.s, 1, c1);
    put_pipes(r, c.s, 2, c2);
    put_pipes(r, c.s, 3, c3);
    put_pipes(r, c.s, 4, {{st.total, 51}, {st.nan, 1}});
    put_pipes(r, c.s, 5, {{out, 32}});
  } else {
    const dp::Mxfp4DotStages& st = mst;
    for (int b = 0; b < 2; ++b) trace_tree(r, "s2.tree", std::vector<i128>(p + 32 * b, p + 32 * b + 32), 9);
    for (int b = 0; b < 2; ++b) {
      r.put("s3.exp", sa[b], 8);
      r.put("s3.exp", sb[b], 8);
      r.put("s3.exp", static_cast<uint64_t>(st.exp[b]), 9);
    }
    const int d = st.exp[0] - st.exp[1];
    r.put("s4.cmp", static_cast<uint64_t>(st.exp[0]), 9);
    r.put("s4.cmp", static_cast<uint64_t>(st.exp[1]), 9);
    r.put("s4.cmp", static_cast<uint64_t>(d), 9);
    const bool first_big = d >= 0;
    const i128 big = first_big ? st.block_sum[0] : st.block_sum[1];
    const i128 small = first_big ? st.block_sum[1] : st.block_sum[0];
    r.put("s4.swap", static_cast<uint64_t>(st.block_sum[0]), 14);
    r.put("s4.swap", static_cast<uint64_t>(st.block_sum[1]), 14);
    r.put("s4.swap", static_cast<uint64_t>(big), 14);
    r.put("s4.swap", static_cast<uint64_t>(small), 14);
    const int ad = std::min(std::abs(d), 63);
    // 41-bit window: the larger sum at bit 27, the smaller shifted right by the exponent difference.
    const i128 aligned = ad <= 27 ? small * (i128(1) << (27 - ad)) : (small >> (ad - 27));
    r.put("s4.shift", static_cast<uint64_t>(small), 14);
    r.put("s4.shift", static_cast<uint64_t>(std::min(ad, 31)), 5);
    r.put128("s4.shift", aligned, 41);
    const i128 bigx = big * (i128(1) << 27), sum = bigx + aligned;
    r.put128("s4.add", bigx, 41);
    r.put128("s4.add", aligned, 41);
    r.put128("s4.add", sum, 42);
    trace_final(r, "s5.abs", "s5.norm", "s5.round", "s5.exp", sum, 42, first_big ? st.exp[0] : st.exp[1], 9, out);
    std::vector<std::pair<i128, int>> sc;
    for (int b = 0; b < 2; ++b) sc.push_back({(i128(sb[b]) << 8) | sa[b], 16});
    std::vector<std::pair<i128, int>> c1 = sc, c2 = sc;
    for (int k = 0; k < 64; ++k) c1.push_back({p[k], 9});
    for (int b = 0; b < 2; ++b) c2.push_back({st.block_sum[b], 14});
    put_pipes(r, c.s, 1, c1);
    put_pipes(r, c.s, 2, c2);
    put_pipes(r, c.s, 3, {{st.block_sum[0], 14}, {st.block_sum[1], 14}, {st.exp[0], 9}, {st.exp[1], 9}});
    put_pipes(r, c.s, 4, {{sum, 42}, {first_big ? st.exp[0] : st.exp[1], 9}, {st.nan, 1}});
    put_pipes(r, c.s, 5, {{out, 32}});
  }
  return res.value;
}

// HiF8 / BF16 / MXFP8: products, exponent maximum, alignment, sum, conversion. Element
// significands and exponents come from the codes (hif8: the decoded value).
struct Elem {
  uint32_t sig = 0;
  int exp = 0;
  bool neg = false;
};

Elem hif8_elem(uint8_t code) {
  Elem e;
  const float v = fmt::hif8_decode(code);
  e.neg = std::signbit(v);
  if (v == 0 || !std::isfinite(v)) return e;
  int ex;
  const double fr = std::frexp(std::fabs(static_cast<double>(v)), &ex);  // [0.5, 1)
  e.sig = static_cast<uint32_t>(std::ldexp(fr, 4));                      // 1.mmm -> 8..15
  e.exp = ex - 4;
  return e;
}

Elem bf16_elem(uint16_t code) {
  Elem e;
  const int ef = (code >> 7) & 0xFF;
  e.neg = (code >> 15) & 1;
  if (ef == 0xFF) return e;
  e.sig = (ef ? 0x80u : 0u) | (code & 0x7F);
  e.exp = (ef ? ef : 1) - 127 - 7;
  return e;
}

Elem fp8_elem(uint8_t code, bool e5) {
  Elem e;
  const int mb = e5 ? 2 : 3, eb = e5 ? 5 : 4, bias = e5 ? 15 : 7;
  const int ef = (code >> mb) & ((1 << eb) - 1);
  e.neg = (code >> 7) & 1;
  if (e5 && ef == 31) return e;                      // Inf / NaN
  if (!e5 && (code & 0x7F) == 0x7F) return e;        // NaN
  e.sig = (ef ? (1u << mb) : 0u) | (code & ((1u << mb) - 1));
  e.exp = (ef ? ef : 1) - bias - mb;
  return e;
}

float trace_aligned(Ctx& c, size_t m, size_t n, size_t blk) {
  const UnitSpec& s = c.s;
  const int N = s.lanes;
  const uint16_t* ca = c.A.codes.data() + m * c.A.padded_cols + blk * static_cast<size_t>(N);
  const uint16_t* cb = c.B.codes.data() + n * c.B.padded_cols + blk * static_cast<size_t>(N);
  ToggleRecorder& r = c.rec;
  const bool bf = s.format == Format::bf16;
  const bool mx8 = !bf && s.format != Format::hif8;
  const bool e5 = s.format == Format::mxfp8_e5m2 || s.format == Format::fp8_e5m2;
  const int sig_bits = bf ? 8 : mx8 ? (e5 ? 3 : 4) : 4;
  const int code_bits = bf ? 16 : 8;
  const int ebits = bf ? 9 : mx8 ? (e5 ? 6 : 5) : 7;
  const int pbits = 2 * sig_bits;
  // Run the unit for the output value.
  dp::DotResult res;
  uint8_t a8[64], b8[64];
  for (int k = 0; k < N; ++k) a8[k] = static_cast<uint8_t>(ca[k]), b8[k] = static_cast<uint8_t>(cb[k]);
  uint8_t xa = 127, xb = 127;
  if (bf) {
    res = dp::Bf16Dot64::compute(ca, cb, dp::AlignSpec{s.align_width, s.policy});
  } else if (!mx8) {
    res = dp::Hif8DotN::compute(a8, b8, N, dp::AlignSpec{s.align_width, s.policy});
  } else {
    const size_t nb = c.A.blocks_per_row();
    const bool scaled = s.format == Format::mxfp8_e4m3 || s.format == Format::mxfp8_e5m2;
    if (scaled) xa = c.A.scales[m * nb + blk], xb = c.B.scales[n * nb + blk];
    res = dp::Mxfp8Dot32::compute(e5 ? fmt::kE5M2 : fmt::kE4M3, a8, xa, b8, xb);
  }
  const uint32_t out = fbits(res.value);
  const bool has_scale = s.format == Format::mxfp8_e4m3 || s.format == Format::mxfp8_e5m2;
  for (int k = 0; k < N; ++k) r.put("in.operands", ca[k], code_bits);
  if (has_scale) r.put("in.operands", xa, 8);
  for (int k = 0; k < N; ++k) r.put("in.operands", cb[k], code_bits);
  if (has_scale) r.put("in.operands", xb, 8);
  std::vector<uint32_t> psig(N);
  std::vector<int> pexp(N);
  std::vector<bool> pneg(N);
  int emax = INT_MIN, emin = INT_MAX;
  for (int k = 0; k < N; ++k) {
    const Elem x = bf ? bf16_elem(ca[k]) : mx8 ? fp8_elem(a8[k], e5) : hif8_elem(a8[k]);
    const Elem y = bf ? bf16_elem(cb[k]) : mx8 ? fp8_elem(b8[k], e5) : hif8_elem(b8[k]);
    r.put("s0.dec", ca[k], code_bits);
    r.put("s0.dec", x.sig, sig_bits);
    r.put("s0.dec", static_cast<uint64_t>(x.exp), ebits - 1);
    r.put("s0.dec", cb[k], code_bits);
    r.put("s0.dec", y.sig, sig_bits);
    r.put("s0.dec", static_cast<uint64_t>(y.exp), ebits - 1);
    psig[k] = x.sig * y.sig;
    pexp[k] = x.exp + y.exp;
    pneg[k] = x.neg != y.neg;
    r.put("s1.prod", x.sig, sig_bits);
    r.put("s1.prod", y.sig, sig_bits);
    r.put("s1.prod", psig[k], pbits);
    r.put("s1.exp", static_cast<uint64_t>(x.exp), ebits - 1);
    r.put("s1.exp", static_cast<uint64_t>(y.exp), ebits - 1);
    r.put("s1.exp", static_cast<uint64_t>(pexp[k]), ebits);
    if (psig[k]) emax = std::max(emax, pexp[k] + pbits), emin = std::min(emin, pexp[k]);
  }
  const bool any = emax != INT_MIN;
  std::vector<i128> terms(N, 0);
  int L = 0, W = 0;
  i128 sum = 0;
  int sum_bits = 0;
  if (mx8) {
    W = e5 ? 69 : 41;
    L = any ? emin : 0;
    for (int k = 0; k < N; ++k) {
      const i128 t = psig[k] ? (i128(psig[k]) << (pexp[k] - L)) : 0;
      terms[k] = pneg[k] ? -t : t;
      r.put("s2.shift", psig[k], pbits);
      r.put128("s2.shift", t, W);
      r.put128("s2.neg", t, W);
      r.put128("s2.neg", terms[k], W);
    }
    sum = trace_tree(r, "s2.tree", terms, W + 1);
    sum_bits = W + 1 + ceil_log2(N);
    r.put("s3.exp", xa, 8);
    r.put("s3.exp", xb, 8);
    r.put("s3.exp", static_cast<uint64_t>(int(xa) + int(xb) - 254), 9);
    trace_final(r, "s4.abs", "s4.norm", "s4.round", "s4.exp", sum, sum_bits, L, 9, out);
  } else {
    W = s.align_width;
    const bool sticky = s.policy == dp::AlignPolicy::sticky;
    L = any ? emax - W : 0;
    for (int k = 0; k < N; ++k) r.put("s2.max", static_cast<uint64_t>(psig[k] ? pexp[k] : 0), ebits);
    r.put("s2.max", static_cast<uint64_t>(any ? emax : 0), ebits);
    const int tw = W + (sticky ? 1 : 0);
    for (int k = 0; k < N; ++k) {
      u128 t = 0;
      int rel = 0;
      if (psig[k]) {
        rel = pexp[k] - L + (sticky ? 1 : 0);
        if (rel >= 0) {
          t = u128(psig[k]) << rel;
        } else if (-rel < 32) {
          t = psig[k] >> (-rel);
          if (sticky && (psig[k] & ((1u << (-rel)) - 1))) t |= 1;
        } else if (sticky) {
          t = 1;
        }
      }
      const i128 ti = static_cast<i128>(t);
      terms[k] = pneg[k] ? -ti : ti;
      r.put("s3.diff", static_cast<uint64_t>(psig[k] ? pexp[k] : 0), ebits);
      r.put("s3.diff", static_cast<uint64_t>(std::clamp(any ? emax - pexp[k] : 0, 0, 255)), 8);
      r.put("s3.shift", psig[k], pbits);
      r.put128("s3.shift", ti, tw);
      r.put128("s3.neg", ti, tw);
      r.put128("s3.neg", terms[k], tw + 1);
    }
    sum = trace_tree(r, "s4.tree", terms, W + 2);
    sum_bits = W + (sticky ? 1 : 0) + 1 + ceil_log2(N);
    trace_final(r, "s5.abs", "s5.norm", "s5.round", "s5.exp", sum, std::min(sum_bits, 128), L, bf ? 10 : 8, out);
  }
  // Pipeline ranks (inventory.cpp cut_bits).
  if (s.stages > 0) {
    std::vector<std::pair<i128, int>> c1;
    for (int k = 0; k < N; ++k) {
      c1.push_back({psig[k], pbits});
      c1.push_back({pexp[k], ebits});
      c1.push_back({pneg[k] ? 1 : 0, 1});
    }
    if (mx8) c1.push_back({(i128(xb) << 8) | xa, 16});
    c1.push_back({0, 2});
    const int lbits = bf ? 10 : mx8 ? 9 : 8;
    std::vector<std::pair<i128, int>> cs{{sum, std::min(sum_bits, 128)}, {L, lbits}, {0, 2}};
    if (mx8) cs = {{sum, std::min(sum_bits, 128)}, {L, 9}, {0, 1}};
    put_pipes(r, s, 1, c1);
    if (mx8) {
      put_pipes(r, s, 2, cs);
    } else {
      std::vector<std::pair<i128, int>> c2 = c1;
      c2.push_back({any ? emax : 0, bf ? 10 : 7});
      put_pipes(r, s, 2, c2);
    }
    put_pipes(r, s, 3, cs);
    put_pipes(r, s, 4, cs);
    put_pipes(r, s, 5, {{out, 32}});
  }
  return res.value;
}

float trace_dot(Ctx& c, size_t m, size_t n, size_t blk) {
  switch (c.s.format) {
    case Format::hif4: return trace_hif4(c, m, n, blk);
    case Format::nvfp4: return trace_fp4(c, m, n, blk, true);
    case Format::mxfp4: return trace_fp4(c, m, n, blk, false);
    default: return trace_aligned(c, m, n, blk);
  }
}

}  // namespace

Activity measure_activity(const UnitSpec& s, const fmt::QTensor& A, const fmt::QTensor& B, const ActivityOptions& o) {
  if (A.format != s.format || B.format != s.format) throw Error("cost activity", "operands", "not quantized in the unit's format");
  if (A.padded_cols != B.padded_cols || A.padded_cols % static_cast<size_t>(s.lanes) != 0)
    throw Error("cost activity", "K", "operands are not padded to the same multiple of the unit width");
  if ((s.format == Format::hif8 || s.format == Format::bf16) && s.align_width + 8 > 120)
    throw Error("cost activity", "align_width",
                "windows wider than 112 bits (e.g. the exact BF16 window) are not traced; set pe.align_width <= 112");
  if (s.acc.kind == dp::AccSpec::kulisch) throw Error("cost activity", "accumulator", "kulisch is not modelled");
  const size_t M = A.rows, N = B.rows, nblk = A.padded_cols / static_cast<size_t>(s.lanes);
  Activity act;
  if (M == 0 || N == 0 || nblk == 0) return act;
  Ctx c{s, A, B, {}};
  dp::Accumulator acc(s.acc);
  const int mb = s.acc.kind == dp::AccSpec::fp32 ? 23 : s.acc.mant_bits;
  SplitMix64 rng(mix64(o.seed) ^ 0xC057u);
  const size_t want = std::max<size_t>(o.sample_dots, 2);
  auto step = [&](size_t m, size_t n, size_t blk, float acc_in, float& acc_out) {
    c.rec.begin();
    const float d = trace_dot(c, m, n, blk);
    acc.reset(acc_in);
    acc.add_value(d);
    acc_out = acc.state();
    trace_acc(c.rec, acc_in, d, acc_out, mb);
    c.rec.end(act);
  };
  if (o.order == cfg::Dataflow::os) {
    size_t done = 0;
    while (done < want) {
      const size_t i = rng.below(M * N);
      const size_t m = i / N, n = i % N;
      float a = 0.0f;
      for (size_t blk = 0; blk < nblk && done < want; ++blk, ++done) step(m, n, blk, a, a);
    }
  } else {
    const size_t rows = std::min<size_t>(M, 16);
    std::vector<float> part(rows);
    size_t done = 0;
    while (done < want) {
      const size_t n = rng.below(N);
      std::fill(part.begin(), part.end(), 0.0f);
      for (size_t blk = 0; blk < nblk && done < want; ++blk)
        for (size_t m = 0; m < rows && done < want; ++m, ++done) step(m, n, blk, part[m], part[m]);
    }
  }
  return act;
}

Activity measure_activity(const UnitSpec& s, const dp::GemmSpec& g, const float* A, size_t M, size_t K, const float* B,
                          size_t N, const ActivityOptions& o) {
  const fmt::QTensor qa = dp::quantize_operand(A, M, K, g);
  const fmt::QTensor qb = dp::quantize_operand(B, N, K, g);
  return measure_activity(s, qa, qb, o);
}

}  // namespace hifsim::cost
