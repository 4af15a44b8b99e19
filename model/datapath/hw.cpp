#include "datapath/hw.hpp"

#include "util/error.hpp"

namespace hifsim::dp::hw {

const char* kind_name(Kind k) {
  switch (k) {
    case Kind::mul: return "mul";
    case Kind::smul: return "smul";
    case Kind::add: return "add";
    case Kind::tree: return "tree";
    case Kind::shift: return "shift";
    case Kind::norm: return "norm";
    case Kind::mux: return "mux";
    case Kind::max: return "max";
    case Kind::reg: return "reg";
    case Kind::fpadd: return "fpadd";
    case Kind::dec: return "dec";
  }
  return "?";
}

bool UnitDesc::cut_on(int k) const {
  if (stages < 0 || stages > max_stages())
    throw Error(rtl_top.empty() ? label : rtl_top, "STAGES",
                "has 0.." + std::to_string(max_stages()) + " register ranks, got " + std::to_string(stages));
  if (k < 1 || k > static_cast<int>(cuts.size())) throw Error(rtl_top, "cut", "no cut point " + std::to_string(k));
  return (cut_masks[static_cast<size_t>(stages)] >> (k - 1)) & 1u;
}

std::vector<Component> inventory(const UnitDesc& d) {
  std::vector<Component> v = d.parts;
  for (int k = 1; k <= static_cast<int>(d.cuts.size()); ++k) {
    if (!d.cut_on(k)) continue;
    Component c;
    c.name = "pipe.c" + std::to_string(k);
    c.kind = Kind::reg;
    c.p1 = d.cuts[static_cast<size_t>(k - 1)].bits;
    c.what = "pipeline register rank c" + std::to_string(k);
    v.push_back(c);
  }
  return v;
}

void put_cut(NetSink& s, const UnitDesc& d, int k, const std::vector<Field>& fields) {
  if (!d.cut_on(k)) return;
  const std::string name = "pipe.c" + std::to_string(k);
  int bits = 0;
  for (const auto& [v, w] : fields) {
    s.net(name.c_str(), v, w);
    bits += w;
  }
  if (bits != d.cuts[static_cast<size_t>(k - 1)].bits)
    throw Error(d.rtl_top, name,
                "the trace reports " + std::to_string(bits) + " bits, the description has " +
                    std::to_string(d.cuts[static_cast<size_t>(k - 1)].bits) + " (internal inconsistency)");
}

i128 put_tree(NetSink& s, const char* comp, std::vector<i128> v, int w) {
  for (const i128 x : v) s.net(comp, x, w);
  while (v.size() > 1) {
    ++w;
    std::vector<i128> next;
    for (size_t i = 0; i + 1 < v.size(); i += 2) next.push_back(v[i] + v[i + 1]);
    if (v.size() % 2) next.push_back(v.back());
    for (const i128 x : next) s.net(comp, x, w);
    v.swap(next);
  }
  return v.front();
}

void put_operand(NetSink& s, const uint16_t* codes, int n, int code_bits, const uint8_t* scales, int n_scales) {
  for (int k = 0; k < n; ++k) s.net("in.operands", codes[k], code_bits);
  for (int j = 0; j < n_scales; ++j) s.net("in.operands", scales[j], 8);
}

void put_fp4_products(NetSink& s, const char* dec, const uint8_t* code_a, const uint8_t* code_b, const int8_t* a,
                      const int8_t* b, const int16_t* p, int n, int mag_bits, int p_bits) {
  auto mag = [](int v) { return v < 0 ? -v : v; };
  for (int k = 0; k < n; ++k) {
    s.net(dec, code_a[k] & 7, 3);
    s.net(dec, mag(a[k]), mag_bits);
    s.net(dec, code_b[k] & 7, 3);
    s.net(dec, mag(b[k]), mag_bits);
    s.net("s1.prod", mag(a[k]), mag_bits);
    s.net("s1.prod", mag(b[k]), mag_bits);
    s.net("s1.prod", ((code_a[k] ^ code_b[k]) >> 3) & 1, 1);
    s.net("s1.prod", p[k], p_bits);
  }
}

const uint16_t* block_codes(const fmt::QTensor& q, size_t row, size_t blk, int n) {
  return q.codes.data() + row * q.padded_cols + blk * static_cast<size_t>(n);
}
const uint8_t* block_scales(const fmt::QTensor& q, size_t row, size_t blk, int per_block) {
  return q.scales.data() + row * q.blocks_per_row() + blk * static_cast<size_t>(per_block);
}

BlockOperands block_operands(const fmt::QTensor& A, size_t m, const fmt::QTensor& B, size_t n, size_t blk, int elems,
                             int code_bits, int n_scales, NetSink& s) {
  if (elems < 1 || elems > 64) throw Error("", "", "block_operands: " + std::to_string(elems) + " elements (1..64)");
  BlockOperands o;
  o.ca = block_codes(A, m, blk, elems);
  o.cb = block_codes(B, n, blk, elems);
  if (n_scales > 0) o.sa = block_scales(A, m, blk, n_scales), o.sb = block_scales(B, n, blk, n_scales);
  for (int k = 0; k < elems; ++k) o.a8[k] = static_cast<uint8_t>(o.ca[k]), o.b8[k] = static_cast<uint8_t>(o.cb[k]);
  put_operand(s, o.ca, elems, code_bits, o.sa, n_scales);
  put_operand(s, o.cb, elems, code_bits, o.sb, n_scales);
  return o;
}

void put_fp32_conversion(NetSink& s, const char* abs_n, const char* norm_n, const char* round_n, const char* exp_n,
                         i128 sum, int sum_bits, int exp_in, int exp_bits, uint32_t out) {
  const u128 mag = sum < 0 ? static_cast<u128>(-sum) : static_cast<u128>(sum);
  s.net(abs_n, sum, sum_bits);
  s.net(abs_n, static_cast<i128>(mag), sum_bits - 1);
  s.net(norm_n, static_cast<i128>(mag), sum_bits - 1);
  // The truncated 24-bit significand (before rounding).
  int lead = -1;
  for (int b = 127; b >= 0; --b)
    if ((mag >> b) & 1) {
      lead = b;
      break;
    }
  const uint64_t trunc = lead < 0 ? 0 : static_cast<uint64_t>(lead >= 23 ? (mag >> (lead - 23)) : (mag << (23 - lead)));
  s.net(norm_n, trunc, 24);
  if (round_n) {
    s.net(round_n, trunc, 24);
    s.net(round_n, out & 0x7FFFFF, 23);
  }
  s.net(exp_n, exp_in, exp_bits);
  s.net(exp_n, (out >> 23) & 0xFF, 8);
}

// ---- the dot units of the tensor formats ----

extern const DotUnitHw kHif4Dot64;
extern const DotUnitHw kNvfp4Dot64;
extern const DotUnitHw kMxfp4Dot64;
extern const DotUnitHw kMxfp8Dot32;
extern const DotUnitHw kAlignedDot;

const DotUnitHw& dot_unit(fmt::Format f) {
  using U = fmt::DotUnit;  // the unit of each format: its FormatTraits row
  static const std::pair<U, const DotUnitHw*> table[] = {
      {U::hif4_dot64, &kHif4Dot64},   {U::nvfp4_dot64, &kNvfp4Dot64}, {U::mxfp4_dot64, &kMxfp4Dot64},
      {U::mxfp8_dot32, &kMxfp8Dot32}, {U::hif8_dot, &kAlignedDot},    {U::bf16_dot64, &kAlignedDot},
  };
  for (const auto& [u, hw] : table)
    if (u == fmt::format_traits(f).unit) return *hw;
  throw Error("cost", fmt::format_info(f).name, "has no dot-product unit in the cost model");
}

UnitDesc describe_dot(const DotParams& p) { return dot_unit(p.format).describe(p); }

DotParams dot_params(fmt::Format f, int lanes, const AlignSpec& a, int stages) {
  DotParams p;
  p.format = f;
  p.lanes = lanes;
  p.policy = a.policy;
  p.align_width = a.width;
  // W = 0 is the exact window: the unit builds the window that never drops a bit.
  const fmt::DotUnit u = fmt::format_traits(f).unit;
  if (u == fmt::DotUnit::hif8_dot && a.width == 0) p.align_width = kHif8ExactWidth;
  if (u == fmt::DotUnit::bf16_dot64 && a.width == 0) p.align_width = kBf16ExactWidth;
  p.stages = stages;
  return p;
}

DotParams default_dot_params(fmt::Format f, int stages) {
  const fmt::FormatTraits& t = fmt::format_traits(f);
  const int lanes = t.unit == fmt::DotUnit::hif8_dot ? kHif8DefaultLanes : static_cast<int>(t.unit_lanes);
  return dot_params(f, lanes, default_align(f), stages);
}

}  // namespace hifsim::dp::hw
