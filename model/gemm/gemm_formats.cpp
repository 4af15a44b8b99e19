#include "gemm/gemm_formats.hpp"

#include <map>
#include <mutex>

#include "datapath/hif4_dot.hpp"
#include "datapath/mxfp4_dot.hpp"
#include "datapath/mxfp8_dot.hpp"
#include "datapath/nvfp4_dot.hpp"
#include "util/error.hpp"

namespace hifsim::dp {

using fmt::Code;
using fmt::DotUnit;
using fmt::Format;

namespace {

// The w element codes of block `blk` of a row, as bytes (every unit but BF16 takes 8-bit codes).
struct Bytes {
  uint8_t v[64];
  Bytes(const fmt::QTensor& t, size_t row, size_t blk, size_t w) {
    const uint16_t* c = t.codes.data() + row * t.padded_cols + blk * w;
    for (size_t k = 0; k < w; ++k) v[k] = static_cast<uint8_t>(c[k]);
  }
};

DotResult unit_hif4(const fmt::QTensor& A, size_t m, const fmt::QTensor& B, size_t n, size_t blk, const GemmSpec&) {
  return Hif4Dot64::compute(A.hif4_unit(m, blk), B.hif4_unit(n, blk));
}

DotResult unit_nvfp4(const fmt::QTensor& A, size_t m, const fmt::QTensor& B, size_t n, size_t blk, const GemmSpec&) {
  const size_t nb = A.blocks_per_row();
  return Nvfp4Dot64::compute(Bytes(A, m, blk, 64).v, A.scales.data() + m * nb + blk * 4, Bytes(B, n, blk, 64).v,
                             B.scales.data() + n * nb + blk * 4);
}

DotResult unit_mxfp4(const fmt::QTensor& A, size_t m, const fmt::QTensor& B, size_t n, size_t blk, const GemmSpec&) {
  const size_t nb = A.blocks_per_row();
  return Mxfp4Dot64::compute(Bytes(A, m, blk, 64).v, A.scales.data() + m * nb + blk * 2, Bytes(B, n, blk, 64).v,
                             B.scales.data() + n * nb + blk * 2);
}

DotResult unit_mxfp8(const fmt::QTensor& A, size_t m, const fmt::QTensor& B, size_t n, size_t blk, const GemmSpec& s) {
  // Plain FP8 runs on the MXFP8 unit with unit scales (E8M0 127 = 2^0).
  const fmt::FormatTraits& t = fmt::format_traits(s.format);
  const size_t nb = A.blocks_per_row();
  const uint8_t sa = t.unit_scales ? 127 : A.scales[m * nb + blk], sb = t.unit_scales ? 127 : B.scales[n * nb + blk];
  return Mxfp8Dot32::compute(*t.minifloat, Bytes(A, m, blk, 32).v, sa, Bytes(B, n, blk, 32).v, sb);
}

DotResult unit_hif8(const fmt::QTensor& A, size_t m, const fmt::QTensor& B, size_t n, size_t blk, const GemmSpec& s) {
  const size_t w = static_cast<size_t>(s.hif8_lanes);
  return Hif8DotN::compute(Bytes(A, m, blk, w).v, Bytes(B, n, blk, w).v, s.hif8_lanes, effective_align(s));
}

DotResult unit_bf16(const fmt::QTensor& A, size_t m, const fmt::QTensor& B, size_t n, size_t blk, const GemmSpec& s) {
  return Bf16Dot64::compute(A.codes.data() + m * A.padded_cols + blk * 64, B.codes.data() + n * B.padded_cols + blk * 64,
                            effective_align(s));
}

// What each dot-product unit means for the engine.
struct UnitRow {
  DotUnit unit;
  KernelFamily family;
  bool windowed;
  UnitDotFn fn;
};
const UnitRow kUnits[] = {
    {DotUnit::hif4_dot64, KernelFamily::hif4, false, &unit_hif4},
    {DotUnit::nvfp4_dot64, KernelFamily::nvfp4, false, &unit_nvfp4},
    {DotUnit::mxfp4_dot64, KernelFamily::mxfp4, false, &unit_mxfp4},
    {DotUnit::mxfp8_dot32, KernelFamily::fp, false, &unit_mxfp8},
    {DotUnit::hif8_dot, KernelFamily::fp, true, &unit_hif8},
    {DotUnit::bf16_dot64, KernelFamily::fp, true, &unit_bf16},
};

// Element codes of the fp family: significand bits of a product (element significands: E4M3 4,
// E5M2 3, HiF8 4, BF16 8), and whether w <= 64 such products always sum exactly in a double
// (E4M3: multiples of 2^-18 below 2^23), and whether the int16 kernel runs them with the FP32
// accumulator (8-bit elements; BF16 blocks spread too wide for int16 too often).
struct ElementRow {
  Code code;
  int pbits;
  bool exact_double_sum;
  bool integer_kernel;
};
const ElementRow kElements[] = {{Code::e4m3, 8, true, true},
                                {Code::e5m2, 6, false, true},
                                {Code::hif8, kHif8ProductBits, false, true},
                                {Code::bf16, kBf16ProductBits, false, false}};

GemmFormatRecord build(Format f) {
  const fmt::FormatTraits& t = fmt::format_traits(f);
  for (const UnitRow& u : kUnits) {
    if (u.unit != t.unit) continue;
    GemmFormatRecord r{&t, u.family, u.windowed, 0, true, t.scale == Code::e8m0 && !t.unit_scales, false, u.fn};
    if (u.family == KernelFamily::fp) {
      const ElementRow* e = nullptr;
      for (const ElementRow& x : kElements)
        if (x.code == t.element) e = &x;
      if (!e) throw Error("gemm", fmt::format_info(f).name, "has no element row in the GEMM engine");
      r.pbits = e->pbits;
      r.exact_double_sum = e->exact_double_sum;
      r.integer_kernel = e->integer_kernel;
    }
    return r;
  }
  throw Error("gemm", fmt::format_info(f).name, "has no dot-product unit");
}

}  // namespace

const GemmFormatRecord& gemm_format_record(Format f) {
  static std::mutex mu;
  static std::map<Format, GemmFormatRecord> records;
  std::lock_guard<std::mutex> lock(mu);
  auto it = records.find(f);
  if (it == records.end()) it = records.emplace(f, build(f)).first;
  return it->second;
}

}  // namespace hifsim::dp
