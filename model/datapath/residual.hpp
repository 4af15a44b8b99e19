// Rollout-ResQ sparse residual correction (methods.md section 1; docs/datapath.md unit 7).
//
//   Xq = Q(X)                          the activation in the GEMM's format
//   R  = RNE_bf16(X - deq(Xq))         residual in FP32, then BF16 (the HiF4 quantizer takes BF16)
//   Rq = Q(R)                          the SAME format, its own block scales
//   Rs = S(Rq)                         sparsified AFTER quantization (codes set to +0)
//   Y  = Xq Wqᵀ + Rs Wqᵀ               the same quantized weights
//
// S: dense (identity) | 2:4 (in every 4 consecutive K elements keep the 2 largest |value|;
// ties: the lower index wins) | top50 (keep the K/2 channels, rounded down, with the largest
// L2 norm of the dequantized Rq over all rows; ties: lower index).
// The GEMM with the correction (operands, fused and unfused) is gemm/residual_gemm.hpp.
// fused: the residual blocks go into the same FP32 accumulator after the main K blocks (one
// GEMM over [Xq | Rs] x [Wq | Wq]); unfused (default): two GEMMs from +0.0, then one FP32 RNE add.
// NVFP4: in fused mode the residual is quantized with the activation's per-tensor scale, so one
// alpha applies to the shared accumulator; unfused uses the residual's own per-tensor scale.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "datapath/accumulator.hpp"
#include "formats/tensor.hpp"
#include "formats/hif4.hpp"

namespace hifsim::dp {

enum class ResidualKind { none, dense, sparse24, top50 };
enum class ResidualMode { unfused, fused };

struct ResidualSpec {
  ResidualKind kind = ResidualKind::none;
  ResidualMode mode = ResidualMode::unfused;
  static ResidualKind parse_kind(const std::string& s);  // none | dense | 2:4 | top50
  static ResidualMode parse_mode(const std::string& s);  // fused | unfused
};
const char* residual_name(ResidualKind k);

// Residual values R = RNE_bf16(X - deq(Q(X))) for a quantized activation (rows x cols).
std::vector<float> residual_values(const float* x, const fmt::QTensor& xq);

// Sparsifiers on a quantized tensor (codes of dropped elements set to 0 = +0).
// Returns the keep mask (rows x padded_cols) for inspection and tests.
std::vector<uint8_t> sparsify_24(fmt::QTensor& q);
std::vector<uint8_t> keep_top50_channels(fmt::QTensor& q);

// Concatenates two quantized tensors with equal rows along K (both padded to the unit width).
fmt::QTensor concat_k(const fmt::QTensor& a, const fmt::QTensor& b);

// ---- The 2:4 select-and-multiply unit (the sparse residual path of the matrix unit) ----
// A 2:4-compressed HiF4 unit: for group g (elements 4g..4g+3) two kept nibbles val[2g],
// val[2g+1] at positions idx[2g] < idx[2g+1] (2-bit indices), plus the unit's own metadata.
struct Hif4Sparse24 {
  uint8_t e6m2 = 0, e1_8 = 0;
  uint16_t e1_16 = 0;
  uint8_t val[32] = {};
  uint8_t idx[32] = {};
};
// Compresses a unit with at most 2 nonzeros per group of 4 (throws otherwise); groups with fewer
// nonzeros keep the lowest-index zero positions.
Hif4Sparse24 compress_24(const fmt::Hif4Unit& u);

struct SparseDotStages {
  int8_t r[32];          // s0: residual elements after L3 absorption (|r| <= 14)
  int8_t w[32];          // s0: selected weight elements after L3 absorption (|w| <= 14)
  int16_t p[32];         // s1: 32 products (|p| <= 196)
  int16_t group[8];      // s2: 8 sums of 4 (|.| <= 784)
  int16_t shifted[8];    // s3: level-2 shifts (|.| <= 3136)
  int32_t i_sum;         // s4: |I| <= 25088 (16-bit signed)
  uint8_t scale_prod;    // s5
  int16_t exp;           // s5
  int32_t big;           // s6: |big| <= 1,229,312
  bool nan;
  uint32_t out_bits;     // s7: exact FP32
};
struct SparseDotBounds {
  static constexpr int p = 196, group = 784, shifted = 3136, i_sum = 25088, big = 1229312;
};

class SparseResidualHif4Dot {
 public:
  // The residual unit (compressed) times the dense weight unit; exact, equal to Hif4Dot64 of
  // the decompressed residual.
  static DotResult compute(const Hif4Sparse24& r, const fmt::Hif4Unit& w, SparseDotStages* st = nullptr);
};

}  // namespace hifsim::dp
