#include "datapath/residual.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

#include "formats/bits.hpp"
#include "formats/nvfp4.hpp"
#include "formats/scales.hpp"
#include "util/error.hpp"

namespace hifsim::dp {

using fmt::Format;

ResidualKind ResidualSpec::parse_kind(const std::string& s) {
  if (s == "none") return ResidualKind::none;
  if (s == "dense") return ResidualKind::dense;
  if (s == "2:4" || s == "sparse24") return ResidualKind::sparse24;
  if (s == "top50") return ResidualKind::top50;
  throw Error("--residual", s, "expected none, dense, 2:4 or top50");
}

ResidualMode ResidualSpec::parse_mode(const std::string& s) {
  if (s == "fused") return ResidualMode::fused;
  if (s == "unfused") return ResidualMode::unfused;
  throw Error("--residual-mode", s, "expected fused or unfused");
}

const char* residual_name(ResidualKind k) {
  switch (k) {
    case ResidualKind::none: return "none";
    case ResidualKind::dense: return "dense";
    case ResidualKind::sparse24: return "2:4";
    case ResidualKind::top50: return "top50";
  }
  return "?";
}

std::vector<float> residual_values(const float* x, const fmt::QTensor& xq) {
  std::vector<float> r = fmt::dequantize(xq);
  for (size_t i = 0; i < r.size(); ++i) r[i] = fmt::bf16_round(x[i] - r[i]);
  return r;
}

namespace {
// Dequantized values over the padded width (pad = 0).
std::vector<float> values_padded(const fmt::QTensor& q) {
  const std::vector<float> v = fmt::dequantize(q);
  std::vector<float> out(q.rows * q.padded_cols, 0.0f);
  for (size_t r = 0; r < q.rows; ++r) std::memcpy(out.data() + r * q.padded_cols, v.data() + r * q.cols, q.cols * sizeof(float));
  return out;
}

void apply_mask(fmt::QTensor& q, const std::vector<uint8_t>& keep) {
  for (size_t i = 0; i < keep.size(); ++i)
    if (!keep[i]) q.codes[i] = 0;
}

}  // namespace

std::vector<uint8_t> sparsify_24(fmt::QTensor& q) {
  const std::vector<float> v = values_padded(q);
  std::vector<uint8_t> keep(v.size(), 0);
  for (size_t g = 0; g + 4 <= v.size(); g += 4) {
    int order[4] = {0, 1, 2, 3};
    // Larger magnitude first; equal magnitudes keep the lower index first (stable).
    std::stable_sort(order, order + 4, [&](int a, int b) { return std::fabs(v[g + a]) > std::fabs(v[g + b]); });
    keep[g + order[0]] = keep[g + order[1]] = 1;
  }
  apply_mask(q, keep);
  return keep;
}

std::vector<uint8_t> keep_top50_channels(fmt::QTensor& q) {
  const std::vector<float> v = values_padded(q);
  const size_t K = q.padded_cols;
  std::vector<double> norm(q.cols, 0.0);
  for (size_t r = 0; r < q.rows; ++r)
    for (size_t c = 0; c < q.cols; ++c) norm[c] += static_cast<double>(v[r * K + c]) * v[r * K + c];
  std::vector<size_t> order(q.cols);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return norm[a] > norm[b]; });
  std::vector<uint8_t> chan(K, 0);
  for (size_t i = 0; i < q.cols / 2; ++i) chan[order[i]] = 1;
  std::vector<uint8_t> keep(q.rows * K);
  for (size_t r = 0; r < q.rows; ++r) std::memcpy(keep.data() + r * K, chan.data(), K);
  apply_mask(q, keep);
  return keep;
}

fmt::QTensor concat_k(const fmt::QTensor& a, const fmt::QTensor& b) {
  if (a.format != b.format || a.rows != b.rows || a.cols != a.padded_cols || b.cols != b.padded_cols)
    throw Error("concat_k", "operands", "need equal formats and rows, and block-aligned K");
  if (a.tensor_scale != b.tensor_scale)
    throw Error("concat_k", "tensor_scale", "NVFP4 operands must share the per-tensor scale to share an accumulator");
  fmt::QTensor c;
  c.format = a.format;
  c.rows = a.rows;
  c.cols = c.padded_cols = a.padded_cols + b.padded_cols;
  c.tensor_scale = a.tensor_scale;
  c.tensor_encode = a.tensor_encode;
  const size_t na = a.blocks_per_row(), nb = b.blocks_per_row();
  c.codes.resize(c.rows * c.padded_cols);
  const bool scaled = !a.scales.empty();
  if (scaled) c.scales.resize(c.rows * (na + nb));
  if (a.format == Format::hif4) {
    c.l2.resize(c.rows * (na + nb));
    c.l3.resize(c.rows * (na + nb));
  }
  for (size_t r = 0; r < c.rows; ++r) {
    std::copy_n(a.codes.data() + r * a.padded_cols, a.padded_cols, c.codes.data() + r * c.padded_cols);
    std::copy_n(b.codes.data() + r * b.padded_cols, b.padded_cols, c.codes.data() + r * c.padded_cols + a.padded_cols);
    if (scaled) {
      std::copy_n(a.scales.data() + r * na, na, c.scales.data() + r * (na + nb));
      std::copy_n(b.scales.data() + r * nb, nb, c.scales.data() + r * (na + nb) + na);
    }
    if (a.format == Format::hif4) {
      std::copy_n(a.l2.data() + r * na, na, c.l2.data() + r * (na + nb));
      std::copy_n(b.l2.data() + r * nb, nb, c.l2.data() + r * (na + nb) + na);
      std::copy_n(a.l3.data() + r * na, na, c.l3.data() + r * (na + nb));
      std::copy_n(b.l3.data() + r * nb, nb, c.l3.data() + r * (na + nb) + na);
    }
  }
  return c;
}

Hif4Sparse24 compress_24(const fmt::Hif4Unit& u) {
  Hif4Sparse24 s;
  s.e6m2 = u.e6m2;
  s.e1_8 = u.e1_8;
  s.e1_16 = u.e1_16;
  for (int g = 0; g < 16; ++g) {
    int kept[2], n = 0;
    for (int i = 0; i < 4; ++i)
      if (u.nib[4 * g + i] & 7) {
        if (n == 2) throw Error("compress_24", "group " + std::to_string(g), "has more than 2 nonzero elements");
        kept[n++] = i;
      }
    for (int i = 0; i < 4 && n < 2; ++i)
      if (!(u.nib[4 * g + i] & 7) && (n == 0 || kept[0] != i)) kept[n++] = i;
    if (kept[0] > kept[1]) std::swap(kept[0], kept[1]);
    for (int j = 0; j < 2; ++j) {
      s.idx[2 * g + j] = static_cast<uint8_t>(kept[j]);
      s.val[2 * g + j] = u.nib[4 * g + kept[j]];
    }
  }
  return s;
}

DotResult SparseResidualHif4Dot::compute(const Hif4Sparse24& r, const fmt::Hif4Unit& w, SparseDotStages* st) {
  SparseDotStages local;
  SparseDotStages& s = st ? *st : local;
  for (int j = 0; j < 32; ++j) {
    const int g = j >> 1, pos = 4 * g + r.idx[j];
    const int mr = (r.val[j] & 7) << ((r.e1_16 >> g) & 1);
    const int mw = (w.nib[pos] & 7) << ((w.e1_16 >> g) & 1);  // the 2:4 select
    s.r[j] = static_cast<int8_t>((r.val[j] & 8) ? -mr : mr);
    s.w[j] = static_cast<int8_t>((w.nib[pos] & 8) ? -mw : mw);
    s.p[j] = static_cast<int16_t>(s.r[j] * s.w[j]);
  }
  int32_t I = 0;
  for (int i = 0; i < 8; ++i) {
    const int sum = s.p[4 * i] + s.p[4 * i + 1] + s.p[4 * i + 2] + s.p[4 * i + 3];
    s.group[i] = static_cast<int16_t>(sum);
    const int sh = ((r.e1_8 >> i) & 1) + ((w.e1_8 >> i) & 1);
    s.shifted[i] = static_cast<int16_t>(sum * (1 << sh));
    I += s.shifted[i];
  }
  s.i_sum = I;
  s.nan = r.e6m2 == fmt::kE6M2NaN || w.e6m2 == fmt::kE6M2NaN;
  s.scale_prod = static_cast<uint8_t>((4 + (r.e6m2 & 3)) * (4 + (w.e6m2 & 3)));
  s.exp = static_cast<int16_t>((r.e6m2 >> 2) + (w.e6m2 >> 2) - 104);
  s.big = I * s.scale_prod;
  DotResult d;
  d.exact = s.nan ? ExactValue::make_nan() : ExactValue::from_int(s.big, s.exp);
  d.value = round_to_float(d.exact);
  s.out_bits = fmt::f32_bits(d.value);
  return d;
}

}  // namespace hifsim::dp
