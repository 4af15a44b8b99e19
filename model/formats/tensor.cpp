#include "formats/tensor.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "formats/bits.hpp"
#include "formats/codes.hpp"
#include "formats/hif8.hpp"
#include "formats/minifloat.hpp"
#include "formats/qdq_fast.hpp"
#include "formats/qdq_stochastic.hpp"
#include "formats/stochastic.hpp"
#include "util/error.hpp"
#include "util/parallel.hpp"
#include "util/rng.hpp"

namespace hifsim::fmt {
namespace {

const MiniFloatSpec* element_spec(Format f) { return format_traits(f).minifloat; }

size_t round_up(size_t n, size_t b) { return (n + b - 1) / b * b; }

float decode_elementwise(Format f, uint16_t c) {
  switch (f) {
    case Format::hif8: return hif8_decode(static_cast<uint8_t>(c));
    case Format::fp8_e4m3: return minifloat_decode(kE4M3, static_cast<uint8_t>(c));
    case Format::fp8_e5m2: return minifloat_decode(kE5M2, static_cast<uint8_t>(c));
    case Format::bf16: return bf16_to_float(c);
    default: return 0.0f;
  }
}

// NVFP4 16 x 16 blocks: the amax of every tile of 16 rows x 16 columns (the last tiles partial).
std::vector<float> nvfp4_tile_amax(const float* x, size_t rows, size_t cols) {
  const size_t nb = (cols + kNvfp4Block - 1) / kNvfp4Block, nr = (rows + kNvfp4Block - 1) / kNvfp4Block;
  std::vector<float> t(nr * nb, 0.0f);
  for (size_t r = 0; r < rows; ++r)
    for (size_t c = 0; c < cols; ++c) {
      float& m = t[(r / kNvfp4Block) * nb + c / kNvfp4Block];
      m = std::max(m, std::fabs(x[r * cols + c]));
    }
  return t;
}

}  // namespace

Hif4Unit QTensor::hif4_unit(size_t row, size_t blk) const {
  Hif4Unit u;
  const size_t b = row * blocks_per_row() + blk;
  u.e6m2 = scales[b];
  u.e1_8 = l2[b];
  u.e1_16 = l3[b];
  const uint16_t* c = codes.data() + row * padded_cols + blk * kHif4Block;
  for (int k = 0; k < kHif4Block; ++k) u.nib[k] = static_cast<uint8_t>(c[k]);
  return u;
}

Rounding element_rounding(Format f, const QuantOptions& o) {
  if (f == Format::hif4 && o.hif4_convention == Hif4Convention::ascend_a6) return Rounding::nearest_even;
  return o.rounding ? *o.rounding : format_info(f).default_rounding;
}

Hif4Options hif4_options(const QuantOptions& o) {
  Hif4Options h = hif4_convention_options(o.hif4_convention);
  if (o.hif4_convention == Hif4Convention::official) {
    h.element_rounding = element_rounding(Format::hif4, o);
    h.compare = o.hif4_compare;
  }
  h.inf_to_nan = o.hif4_inf_to_nan;
  return h;
}

void validate_options(Format f, const QuantOptions& o) {
  const FormatInfo& info = format_info(f);
  if (!info.tensor)
    throw Error("--format", info.name, "is an element/scale code format; tensor formats are " + tensor_format_names());
  if (!o.mx_convention.empty() && format_traits(f).scale != Code::e8m0)
    throw Error("--mx-convention", o.mx_convention, std::string("applies to the MX formats only, not ") + info.name);
  if (o.hif4_convention != Hif4Convention::official) {
    if (f != Format::hif4)
      throw Error("--hif4-convention", hif4_convention_name(o.hif4_convention),
                  std::string("applies to hif4 only, not ") + info.name + "; leave it at official");
    if (o.rounding && *o.rounding != Rounding::nearest_even)
      throw Error("--rounding", rounding_name(*o.rounding),
                  "conflicts with --hif4-convention ascend-a6, which rounds elements ties-to-even; leave --rounding out");
  }
  const Rounding r = element_rounding(f, o);
  if (!(info.roundings & rbit(r))) {
    std::string ok;
    for (int i = 0; i <= static_cast<int>(Rounding::hybrid); ++i)
      if (info.roundings & (1u << i)) ok += std::string(ok.empty() ? "" : ", ") + rounding_name(static_cast<Rounding>(i));
    throw Error("--rounding", rounding_name(r), std::string("not supported by ") + info.name + " (supported: " + ok + ")");
  }
  if (r == Rounding::stochastic) validate_sr_bits(o.sr_bits);
  if ((o.nvfp4_2d || !o.nvfp4_tensor_scale) && f != Format::nvfp4)
    throw Error(o.nvfp4_2d ? "--nvfp4-2d" : "--nvfp4-tensor-scale", info.name, "is an nvfp4 option; leave it out");
  if (o.saturate && !info.saturate_option)
    throw Error("--saturate", info.name,
                "has no overflow choice (it always saturates or cannot overflow); leave --saturate out");
}

void check_representable(Format f, const float* x, size_t rows, size_t cols, const std::string& where) {
  if (f != Format::nvfp4) return;  // every other tensor format encodes NaN and Inf (docs/formats.md)
  const size_t n = rows * cols;
  // A branch-free (vectorized) scan for the common case, every element finite; then the first
  // bad one. NaN and Inf are the |x| bit patterns from 0x7F800000 up.
  uint32_t top = 0;
  for (size_t i = 0; i < n; ++i) top = std::max(top, f32_bits(x[i]) & 0x7FFFFFFFu);
  if (top < 0x7F800000u) return;
  for (size_t i = 0; i < n; ++i) {
    if (!std::isfinite(x[i])) {
      throw Error(where, "element [" + std::to_string(i / cols) + ", " + std::to_string(i % cols) + "]",
                  std::string(std::isnan(x[i]) ? "NaN" : "Inf") +
                      " cannot be represented in nvfp4 (E2M1 has no NaN/Inf and the FP32 tensor scale would be "
                      "undefined); clean the input first");
    }
  }
}

QTensor quantize(Format f, const float* x, size_t rows, size_t cols, const QuantOptions& o) {
  validate_options(f, o);
  // NVFP4: the NaN/Inf check and the per-tensor amax in one parallel pass (used below).
  const float nvfp4_amax = f == Format::nvfp4 ? nvfp4_checked_amax(x, rows, cols, o.threads, "input") : 0.0f;
  QTensor q;
  q.format = f;
  q.rows = rows;
  q.cols = cols;
  const size_t blk = format_info(f).block;
  q.padded_cols = round_up(cols, blk);
  const size_t nblk = q.padded_cols / blk;
  q.codes.resize(rows * q.padded_cols);  // uninitialized: every code is written below
  const Rounding r = element_rounding(f, o);

  const bool sr = r == Rounding::stochastic;
  const SrStream stream{o.seed, o.sr_stream, o.sr_bits};
  if (sr && rows * cols > sr_max_elements(o.sr_bits))
    throw Error("input", std::to_string(rows) + " x " + std::to_string(cols),
                "more elements than one stochastic-rounding stream covers (2^32 groups of 64 / --sr-bits)");
  if (blk == 1 && sr) {
    // The words of a whole chunk at once (vectorised), then the codec; bf16 inline.
    parallel_for(rows * cols, o.threads, [&](size_t b, size_t e) {
      uint64_t w[1024];
      for (size_t c = b; c < e; c += 1024) {
        const size_t n = std::min<size_t>(1024, e - c);
        sr_fill(stream, c, n, w);
        if (f == Format::bf16)
          for (size_t i = 0; i < n; ++i) q.codes[c + i] = bf16_from_f32_sr(f32_bits(x[c + i]), w[i]);
        else
          for (size_t i = 0; i < n; ++i) q.codes[c + i] = encode_code_with(f, x[c + i], r, o, w[i]);
      }
    }, 4096);
    return q;
  }
  if (blk == 1) {
    parallel_for(rows * cols, o.threads, [&](size_t b, size_t e) {
      if (encode_codes_fast(f, x + b, e - b, r, o.saturate, q.codes.data() + b)) return;  // = encode_code
      for (size_t i = b; i < e; ++i) q.codes[i] = encode_code(f, x[i], r, o, i);
    }, 4096);
    return q;
  }

  q.scales.assign(rows * nblk, 0);
  if (f == Format::hif4) {
    q.l2.assign(rows * nblk, 0);
    q.l3.assign(rows * nblk, 0);
  }
  Nvfp4TensorScale ts;
  std::vector<float> tile_amax;  // nvfp4 16 x 16 blocks: amax of tile (row / 16, block)
  if (f == Format::nvfp4) {
    if (o.nvfp4_tensor_scale) ts = nvfp4_tensor_scale(nvfp4_amax, o.nvfp4_recipe);
    q.tensor_scale = ts.decode;
    q.tensor_encode = ts.encode;
    if (o.nvfp4_2d) tile_amax = nvfp4_tile_amax(x, rows, cols);
  }
  const Hif4Options h = hif4_options(o);
  MxOptions mo;
  mo.rounding = r;
  mo.scale_rule = o.mx_scale_rule;

  parallel_for(rows * nblk, o.threads, [&](size_t b, size_t e) {
    float buf[64];
    uint8_t codes[128];
    // Stochastic: each element's r, drawn (sr_draws, keyed by the flat element index) for a window
    // of up to 64 elements of the row just before the blocks that use it; zero past the row.
    alignas(32) uint32_t draws[64];
    size_t win_row = SIZE_MAX, win_c0 = 0, win_c1 = 0;
    const uint32_t* rb = nullptr;
    for (size_t bi = b; bi < e; ++bi) {
      const size_t row = bi / nblk, c0 = (bi % nblk) * blk;
      const size_t n = std::min(blk, cols - std::min(cols, c0));
      const float* src = x + row * cols + c0;
      uint16_t* dst = q.codes.data() + row * q.padded_cols + c0;
      if (f == Format::nvfp4 && !sr && !o.nvfp4_2d && bi + 8 <= e && bi % nblk + 8 <= nblk && c0 + 8 * blk <= cols) {
        // Eight full blocks of one row in one call (= nvfp4_quantize_block for each).
        nvfp4_quantize_blocks_fast(src, 8, ts, o.nvfp4_recipe, codes, &q.scales[bi]);
        for (size_t k = 0; k < 8 * blk; ++k) dst[k] = codes[k];
        bi += 7;
        continue;
      }
      if (sr) {
        if (row != win_row || c0 + blk > win_c1) {
          win_row = row;
          win_c0 = c0;
          win_c1 = c0 + 64;
          const size_t m = std::min<size_t>(64, cols - c0);
          sr_draws(stream, row * cols + c0, m, draws);
          std::fill(draws + m, draws + 64, 0u);
        }
        rb = draws + (c0 - win_c0);
      }
      if (f == Format::hif4) {
        std::memset(buf, 0, sizeof buf);
        std::memcpy(buf, src, n * sizeof(float));
        const Hif4Unit u = sr ? hif4_quantize_sr(buf, h, rb, o.sr_bits)  // = hif4_quantize (qdq_stochastic.hpp)
                              : hif4_quantize_fast(buf, h);            // = hif4_quantize (qdq_fast.hpp)
        q.scales[bi] = u.e6m2;
        q.l2[bi] = u.e1_8;
        q.l3[bi] = u.e1_16;
        for (size_t k = 0; k < blk; ++k) dst[k] = u.nib[k];
      } else if (f == Format::nvfp4) {
        const float tile = o.nvfp4_2d ? tile_amax[(row / kNvfp4Block) * nblk + bi % nblk] : -1.0f;
        if (sr)
          nvfp4_quantize_block_sr(src, n, ts, o.nvfp4_recipe, rb, o.sr_bits, tile, codes, q.scales[bi]);
        else if (o.nvfp4_2d)
          nvfp4_quantize_block(src, n, ts, o.nvfp4_recipe, codes, q.scales[bi], nullptr, tile);
        else
          nvfp4_quantize_block_fast(src, n, ts, o.nvfp4_recipe, codes, q.scales[bi]);  // = nvfp4_quantize_block
        for (size_t k = 0; k < blk; ++k) dst[k] = codes[k];
      } else {
        if (sr) mx_quantize_block_sr(*element_spec(f), src, n, mo, rb, o.sr_bits, codes, q.scales[bi]);
        else mx_quantize_block_fast(*element_spec(f), src, n, mo, codes, q.scales[bi]);  // = mx_quantize_block
        for (size_t k = 0; k < blk; ++k) dst[k] = codes[k];
      }
    }
  }, 16);
  return q;
}

std::vector<float> dequantize(const QTensor& q) {
  std::vector<float> out(q.rows * q.cols);
  const size_t blk = q.block();
  if (blk == 1) {
    for (size_t i = 0; i < out.size(); ++i) out[i] = decode_elementwise(q.format, q.codes[i]);
    return out;
  }
  const size_t nblk = q.blocks_per_row();
  for (size_t row = 0; row < q.rows; ++row) {
    for (size_t bk = 0; bk < nblk; ++bk) {
      const size_t c0 = bk * blk;
      if (c0 >= q.cols) break;
      const size_t n = std::min(blk, q.cols - c0);
      const size_t bi = row * nblk + bk;
      const uint16_t* c = q.codes.data() + row * q.padded_cols + c0;
      float* dst = out.data() + row * q.cols + c0;
      if (q.format == Format::hif4) {
        float v[64];
        hif4_decode(q.hif4_unit(row, bk), v);
        std::memcpy(dst, v, n * sizeof(float));
      } else if (q.format == Format::nvfp4) {
        for (size_t k = 0; k < n; ++k) dst[k] = nvfp4_dequantize(static_cast<uint8_t>(c[k]), q.scales[bi], q.tensor_scale);
      } else {
        const MiniFloatSpec& s = *element_spec(q.format);
        for (size_t k = 0; k < n; ++k) dst[k] = mx_dequantize(s, static_cast<uint8_t>(c[k]), q.scales[bi]);
      }
    }
  }
  return out;
}

void quantize_dequantize(Format f, const float* x, float* y, size_t rows, size_t cols, const QuantOptions& o) {
  validate_options(f, o);
  if (qdq_fast(f, x, y, rows, cols, o)) return;
  const QTensor q = quantize(f, x, rows, cols, o);
  const std::vector<float> v = dequantize(q);
  std::memcpy(y, v.data(), v.size() * sizeof(float));
}

}  // namespace hifsim::fmt
