#include "datapath/gemm_formats.hpp"

#include "datapath/hif4_dot.hpp"
#include "datapath/mx_dot.hpp"
#include "datapath/nvfp4_dot.hpp"
#include "util/error.hpp"

namespace hifsim::dp {

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

template <bool kE4m3, bool kScaled>
DotResult unit_fp8(const fmt::QTensor& A, size_t m, const fmt::QTensor& B, size_t n, size_t blk, const GemmSpec&) {
  // Plain FP8 is the MXFP8 unit with unit scales (E8M0 127 = 2^0).
  const size_t nb = A.blocks_per_row();
  const uint8_t sa = kScaled ? A.scales[m * nb + blk] : 127, sb = kScaled ? B.scales[n * nb + blk] : 127;
  return Mxfp8Dot32::compute(kE4m3 ? fmt::kE4M3 : fmt::kE5M2, Bytes(A, m, blk, 32).v, sa, Bytes(B, n, blk, 32).v, sb);
}

DotResult unit_hif8(const fmt::QTensor& A, size_t m, const fmt::QTensor& B, size_t n, size_t blk, const GemmSpec& s) {
  const size_t w = static_cast<size_t>(s.hif8_lanes);
  return Hif8DotN::compute(Bytes(A, m, blk, w).v, Bytes(B, n, blk, w).v, s.hif8_lanes, effective_align(s));
}

DotResult unit_bf16(const fmt::QTensor& A, size_t m, const fmt::QTensor& B, size_t n, size_t blk, const GemmSpec& s) {
  return Bf16Dot64::compute(A.codes.data() + m * A.padded_cols + blk * 64, B.codes.data() + n * B.padded_cols + blk * 64,
                            effective_align(s));
}

using KF = KernelFamily;
const GemmFormatRecord kRecords[] = {
    {Format::hif4, 64, KF::hif4, 0, false, true, &unit_hif4},
    {Format::nvfp4, 64, KF::nvfp4, 0, false, true, &unit_nvfp4},
    {Format::mxfp4, 64, KF::mxfp4, 0, false, true, &unit_mxfp4},
    {Format::mxfp8_e4m3, 32, KF::fp, 8, false, true, &unit_fp8<true, true>},
    {Format::mxfp8_e5m2, 32, KF::fp, 6, false, false, &unit_fp8<false, true>},
    {Format::fp8_e4m3, 32, KF::fp, 8, false, true, &unit_fp8<true, false>},
    {Format::fp8_e5m2, 32, KF::fp, 6, false, false, &unit_fp8<false, false>},
    {Format::hif8, 0, KF::fp, kHif8ProductBits, true, false, &unit_hif8},
    {Format::bf16, 64, KF::fp, kBf16ProductBits, true, false, &unit_bf16},
};

}  // namespace

const GemmFormatRecord& gemm_format_record(Format f) {
  for (const GemmFormatRecord& r : kRecords)
    if (r.format == f) return r;
  throw Error("gemm", fmt::format_info(f).name, "has no dot-product unit");
}

}  // namespace hifsim::dp
