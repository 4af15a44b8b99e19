// Tensor-level quantization: a rows x cols float matrix, blocks along each row (the last
// axis, the GEMM reduction dimension K). Rows whose length is not a multiple of the block
// are zero-padded to the next multiple (hif4.md 2.1, OFF/VLA); dequantization drops the pad.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "formats/format.hpp"
#include "formats/hif4.hpp"
#include "formats/mx.hpp"
#include "formats/nvfp4.hpp"
#include "util/uninit_buffer.hpp"

namespace hifsim::fmt {

// Where HiF8 hybrid rounding takes its 14-bit threshold T14 from (hif8.md section 6).
enum class HybridThreshold {
  input,   // T14 = the input's own low 14 FP32 fraction bits (the published easyasc/CANN model)
  seeded,  // T14 = 14 bits of counter_random(seed, format, flat index): a seeded stochastic mode
};

struct QuantOptions {
  std::optional<Rounding> rounding;  // element rounding; unset = the format's default
  bool saturate = false;             // hif8, fp8: overflow to +-max finite instead of Inf/NaN
  uint64_t seed = 0;                 // stochastic rounding stream (counter-based, thread-invariant)
  unsigned sr_bits = 8;              // random bits per element B (formats/stochastic.hpp), 1..32
  uint32_t sr_stream = 0;            // the tensor's stream id (docs/training.md)
  NvfpRecipe nvfp4_recipe = NvfpRecipe::te;
  bool nvfp4_2d = false;             // nvfp4: 16 x 16 blocks (one amax per 16 rows x 16 columns)
  bool nvfp4_tensor_scale = true;    // nvfp4: the FP32 per-tensor amax scale (off: 1, single level)
  Hif4Compare hif4_compare = Hif4Compare::exact;
  bool hif4_inf_to_nan = false;
  Hif4Convention hif4_convention = Hif4Convention::official;  // ascend_a6 fixes rounding and compare
  MxScaleRule mx_scale_rule = MxScaleRule::floor;
  std::string mx_convention;         // a named MX convention (mx_conventions()) set rule and rounding; "" = none
  bool hybrid_strict = false;        // hif8 hybrid: round up iff F14 > T14 (default >=)
  HybridThreshold hybrid_threshold = HybridThreshold::input;
  unsigned threads = 0;              // 0 = all hardware threads; results do not depend on it
};

// Unpacked quantized tensor: one code per element plus per-block metadata.
struct QTensor {
  Format format = Format::bf16;
  size_t rows = 0, cols = 0;  // logical shape
  size_t padded_cols = 0;     // cols rounded up to the block
  // rows x padded_cols element codes (BF16 uses all 16 bits). Uninitialized storage
  // (util/uninit_buffer.hpp): quantize() writes every code from its worker threads, with no
  // serial zero fill first (issue 27); resize() leaves new codes unset, assign() sets them.
  UninitBuffer<uint16_t> codes;
  std::vector<uint8_t> scales;   // rows x blocks: E6M2 (hif4), E8M0 (mx), E4M3 (nvfp4)
  std::vector<uint8_t> l2;       // hif4: rows x blocks level-2 bits
  std::vector<uint16_t> l3;      // hif4: rows x blocks level-3 bits
  float tensor_scale = 1.0f;     // nvfp4: per-tensor decode scale
  float tensor_encode = 1.0f;    // nvfp4 TE: per-tensor encode scale (kept for the record)

  size_t block() const { return format_info(format).block; }
  size_t blocks_per_row() const { return padded_cols / block(); }
  Hif4Unit hif4_unit(size_t row, size_t blk) const;
};

// Checks options against the format (throws hifsim::Error naming the option and reason).
void validate_options(Format f, const QuantOptions& o);
// Resolved element rounding for f under o.
Rounding element_rounding(Format f, const QuantOptions& o);
// The HiF4 quantizer options o selects: its convention's rules, plus (official) the element
// rounding and compare options, and the Inf rule (both conventions).
Hif4Options hif4_options(const QuantOptions& o);

QTensor quantize(Format f, const float* x, size_t rows, size_t cols, const QuantOptions& o = {});
// rows x cols values; every dequantized value is exact in FP32 except NVFP4's final
// multiply by the per-tensor scale (one RNE rounding, documented in docs/formats.md).
std::vector<float> dequantize(const QTensor& q);
// quantize + dequantize, through the fast paths where they exist (same bits as the above).
void quantize_dequantize(Format f, const float* x, float* y, size_t rows, size_t cols, const QuantOptions& o = {});

// Non-finite inputs a format cannot represent (NVFP4 has no NaN and no Inf): throws an
// hifsim::Error naming `where` and the first offending element.
void check_representable(Format f, const float* x, size_t rows, size_t cols, const std::string& where);

}  // namespace hifsim::fmt
