#include "perf/values.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>

#include "datapath/accumulator.hpp"
#include "formats/bits.hpp"
#include "formats/nvfp4.hpp"
#include "formats/packed.hpp"
#include "gemm/gemm.hpp"
#include "gemm/residual_gemm.hpp"
#include "util/error.hpp"
#include "util/manifest.hpp"

namespace hifsim::perf {
namespace {

uint16_t f32_to_bf16_rne(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  if ((b & 0x7F800000u) == 0x7F800000u && (b & 0x007FFFFFu)) return static_cast<uint16_t>((b >> 16) | 0x40);
  const uint32_t lsb = (b >> 16) & 1u;
  b += 0x7FFFu + lsb;
  return static_cast<uint16_t>(b >> 16);
}

float bf16_to_f32(uint16_t h) {
  const uint32_t b = static_cast<uint32_t>(h) << 16;
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

std::vector<float> pad_rows(const float* x, uint64_t rows, uint64_t cols, uint64_t kp) {
  std::vector<float> p(rows * kp, 0.0f);
  for (uint64_t r = 0; r < rows; ++r) std::memcpy(p.data() + r * kp, x + r * cols, cols * sizeof(float));
  return p;
}

// Quantizes a tile of high-precision A rows on the fly (the quantizer unit). Block-local for every
// format; NVFP4 uses the per-tensor scale the host programmed.
fmt::QTensor quantize_tile(const cfg::UnitConfig& u, const dp::GemmSpec& spec, const float* x, size_t rows, size_t k,
                           float enc, float dec) {
  if (u.format != fmt::Format::nvfp4) return fmt::quantize(u.format, x, rows, k, spec.quant);
  fmt::QTensor q;
  q.format = fmt::Format::nvfp4;
  q.rows = rows;
  q.cols = q.padded_cols = k;
  q.tensor_scale = dec;
  q.tensor_encode = enc;
  const size_t nb = k / 16;
  q.codes.assign(rows * k, 0);
  q.scales.assign(rows * nb, 0);
  const fmt::Nvfp4TensorScale ts{enc, dec};
  for (size_t r = 0; r < rows; ++r)
    for (size_t b = 0; b < nb; ++b) {
      uint8_t codes[16];
      fmt::nvfp4_quantize_block(x + r * k + b * 16, 16, ts, spec.quant.nvfp4_recipe, codes, q.scales[r * nb + b]);
      for (int i = 0; i < 16; ++i) q.codes[r * k + b * 16 + static_cast<size_t>(i)] = codes[i];
    }
  return q;
}

}  // namespace

std::string tensor_image(const fmt::QTensor& q) {
  const std::string s = fmt::pack_tensor(q);
  uint32_t hl = 0;
  for (int i = 0; i < 4; ++i) hl |= static_cast<uint32_t>(static_cast<unsigned char>(s[8 + static_cast<size_t>(i)])) << (8 * i);
  return s.substr(12 + hl);
}

fmt::QTensor decode_tile(fmt::Format f, const uint8_t* bytes, size_t rows, size_t k, float tensor_scale) {
  const fmt::FormatInfo& info = fmt::format_info(f);
  char ts[64];
  std::snprintf(ts, sizeof ts, "%a", static_cast<double>(tensor_scale));
  std::string h = std::string("format=") + info.name + "\nrows=" + std::to_string(rows) + "\ncols=" + std::to_string(k) +
                  "\npadded_cols=" + std::to_string(k) + "\nblock=" + std::to_string(info.block) +
                  "\nrecord_bytes=" + std::to_string(fmt::packed_record_bytes(f)) + "\ntensor_scale=" + ts + "\n";
  const size_t nrec = info.block == 1 ? rows * k : rows * (k / info.block);
  const size_t payload = nrec * fmt::packed_record_bytes(f);
  std::string s = "HIFSIMQ1";
  const uint32_t hl = static_cast<uint32_t>(h.size());
  for (int i = 0; i < 4; ++i) s += static_cast<char>((hl >> (8 * i)) & 0xFF);
  s += h;
  s.append(reinterpret_cast<const char*>(bytes), payload);
  return fmt::unpack_tensor(s, "buffer tile");
}

HostOperands prepare_operands(const cfg::UnitConfig& u, const float* A, const float* B, uint64_t M, uint64_t N,
                              uint64_t K, unsigned threads) {
  const dp::GemmSpec spec = u.gemm_spec(threads);
  dp::validate(spec);
  fmt::check_representable(u.format, A, M, K, "A");
  fmt::check_representable(u.format, B, N, K, "B");
  HostOperands h;
  h.M = M;
  h.N = N;
  h.K = K;
  h.Kp = ceil_div(K, u.dot_width()) * u.dot_width();
  const fmt::QTensor qb = dp::quantize_operand(B, N, K, spec);
  h.b_image = tensor_image(qb);
  h.b_scale = qb.tensor_scale;
  if (u.quantizer) {
    std::vector<float> ap = pad_rows(A, M, K, h.Kp);
    if (u.quant_input == cfg::QuantInput::bf16) {
      h.a_image.resize(ap.size() * 2);
      for (size_t i = 0; i < ap.size(); ++i) {
        const uint16_t v = f32_to_bf16_rne(ap[i]);
        h.a_image[2 * i] = static_cast<char>(v & 0xFF);
        h.a_image[2 * i + 1] = static_cast<char>(v >> 8);
        ap[i] = bf16_to_f32(v);
      }
    } else {
      h.a_image.assign(reinterpret_cast<const char*>(ap.data()), ap.size() * 4);
    }
    if (u.format == fmt::Format::nvfp4) {
      float amax = 0.0f;
      for (float v : ap) amax = std::max(amax, std::fabs(v));
      const fmt::Nvfp4TensorScale ts = fmt::nvfp4_tensor_scale(amax, spec.quant.nvfp4_recipe);
      h.a_encode = ts.encode;
      h.a_scale = ts.decode;
    }
    return h;
  }
  if (u.residual) {
    const dp::ResidualOperands ops = dp::make_residual_operands(A, M, K, spec, u.residual_spec);
    h.a_image = tensor_image(ops.main);
    h.r_image = tensor_image(ops.residual);
    h.a_scale = ops.main.tensor_scale;
    h.r_scale = ops.residual.tensor_scale;
    return h;
  }
  const fmt::QTensor qa = dp::quantize_operand(A, M, K, spec);
  h.a_image = tensor_image(qa);
  h.a_scale = qa.tensor_scale;
  return h;
}

std::string float_checksum(const float* x, size_t n) {
  return fnv1a64_hex(std::string(reinterpret_cast<const char*>(x), n * sizeof(float)));
}

// ---------------------------------------------------------------------------------------------

struct ValueEngine::Impl {
  const cfg::UnitConfig& u;
  const Tiling& t;
  GemmCommand c;
  dp::GemmSpec spec;
  bool unfused = false;
  // gemm engine: the K parts of the current output tile
  std::vector<fmt::QTensor> am, bm, ar, br;
  // unit engine: accumulator state of the current output tile
  std::vector<dp::Accumulator> accm, accr;
  uint64_t ml = 0, nl = 0;

  Impl(const cfg::UnitConfig& uu, const Tiling& tt, const GemmCommand& cc, unsigned threads)
      : u(uu), t(tt), c(cc), spec(uu.gemm_spec(threads)) {
    unfused = u.residual && u.residual_spec.mode == dp::ResidualMode::unfused;
  }

  // Decodes the A slot into the main tile and (residual on) the residual tile.
  void decode_a(const Step& s, const uint8_t* a, fmt::QTensor& main, fmt::QTensor* res) const {
    if (u.quantizer) {
      std::vector<float> x(s.ml * s.kl);
      if (u.quant_input == cfg::QuantInput::fp32) {
        std::memcpy(x.data(), a, x.size() * 4);
      } else {
        for (size_t i = 0; i < x.size(); ++i) x[i] = bf16_to_f32(static_cast<uint16_t>(a[2 * i] | (a[2 * i + 1] << 8)));
      }
      main = quantize_tile(u, spec, x.data(), s.ml, s.kl, c.a_encode, c.a_scale);
      if (res) {
        const std::vector<float> R = dp::residual_values(x.data(), main);
        *res = quantize_tile(u, spec, R.data(), s.ml, s.kl, c.a_encode, c.a_scale);
        if (u.residual_spec.kind == dp::ResidualKind::sparse24) dp::sparsify_24(*res);
      }
      return;
    }
    main = decode_tile(u.format, a, s.ml, s.kl, c.a_scale);
    if (res) *res = decode_tile(u.format, a + s.ml * u.row_bytes(s.kl), s.ml, s.kl, c.r_scale);
  }

  struct Cached {
    uint64_t load = UINT64_MAX;
    fmt::QTensor main, res;
  };
  std::map<const uint8_t*, Cached> a_cache, b_cache;

  void step(const Step& s, const uint8_t* a, uint64_t a_load, const uint8_t* b, uint64_t b_load) {
    const bool need_res = s.res || t.residual_dedicated;
    Cached& ca = a_cache[a];
    if (ca.load != a_load) {
      decode_a(s, a, ca.main, u.residual ? &ca.res : nullptr);
      ca.load = a_load;
    }
    Cached& cb = b_cache[b];
    if (cb.load != b_load) {
      cb.main = decode_tile(u.format, b, s.nl, s.kl, c.b_scale);
      cb.load = b_load;
    }
    const fmt::QTensor& ta = ca.main;
    const fmt::QTensor& tr = ca.res;
    const fmt::QTensor& tb = cb.main;
    if (u.value_engine == cfg::ValueEngine::gemm) {
      if (s.first) {
        am.clear();
        bm.clear();
        ar.clear();
        br.clear();
      }
      if (!s.res) {
        am.push_back(ta);
        bm.push_back(tb);
      }
      if (need_res) {
        ar.push_back(tr);
        br.push_back(tb);
      }
      return;
    }
    // unit engine: the literal dataflow.
    if (s.first) {
      ml = s.ml;
      nl = s.nl;
      accm.assign(ml * nl, dp::Accumulator(spec.acc));
      accr.assign(ml * nl, dp::Accumulator(spec.acc));
    }
    const bool ws = u.dataflow == cfg::Dataflow::ws;
    const bool fp32_state = spec.acc.kind != dp::AccSpec::kulisch;
    auto run = [&](std::vector<dp::Accumulator>& acc, const fmt::QTensor& A) {
      const size_t nblk = s.kl / t.W;
      for (size_t i = 0; i < s.ml; ++i)
        for (size_t j = 0; j < s.nl; ++j) {
          dp::Accumulator& a_ = acc[i * s.nl + j];
          if (fp32_state) a_.reset(a_.state());  // restored from the accumulator buffer
          for (size_t blk = 0; blk < nblk; ++blk) {
            a_.add(dp::unit_dot(A, i, tb, j, blk, spec));
            if (ws && fp32_state) a_.reset(a_.state());  // the FP32 partial sum hops to the next PE
          }
        }
    };
    if (!s.res) run(accm, ta);
    if (s.res) run(unfused ? accr : accm, tr);
    else if (t.residual_dedicated) run(accr, tr);
  }

  static fmt::QTensor scale_only(fmt::Format f, float ts) {
    fmt::QTensor q;
    q.format = f;
    q.tensor_scale = ts;
    return q;
  }

  void finish(const Step& s, float* out) {
    const size_t n = s.ml * s.nl;
    if (u.value_engine == cfg::ValueEngine::gemm) {
      auto cat = [](const std::vector<fmt::QTensor>& parts) {
        fmt::QTensor x = parts[0];
        for (size_t i = 1; i < parts.size(); ++i) x = dp::concat_k(x, parts[i]);
        return x;
      };
      const fmt::QTensor A = cat(am), B = cat(bm);
      std::vector<float> y;
      if (!u.residual) {
        y = dp::gemm_quantized(A, B, spec);
      } else if (!unfused) {
        y = dp::gemm_quantized(dp::concat_k(A, cat(ar)), dp::concat_k(B, cat(br)), spec);
      } else {
        y = dp::gemm_quantized(A, B, spec);
        const std::vector<float> y2 = dp::gemm_quantized(cat(ar), cat(br), spec);
        for (size_t i = 0; i < y.size(); ++i) {
          y[i] = y[i] + y2[i];
          if (y[i] != y[i]) y[i] = fmt::f32_nan();
        }
      }
      std::memcpy(out, y.data(), n * sizeof(float));
      return;
    }
    const fmt::QTensor sa = scale_only(u.format, c.a_scale), sb = scale_only(u.format, c.b_scale),
                       sr = scale_only(u.format, c.r_scale);
    for (size_t i = 0; i < n; ++i) {
      float y = dp::epilogue(accm[i].result(), sa, sb);
      if (unfused) {
        y = y + dp::epilogue(accr[i].result(), sr, sb);
        if (y != y) y = fmt::f32_nan();
      }
      out[i] = y;
    }
  }
};

ValueEngine::ValueEngine(const cfg::UnitConfig& u, const Tiling& t, const GemmCommand& c, unsigned threads)
    : p_(std::make_unique<Impl>(u, t, c, threads)) {}
ValueEngine::~ValueEngine() = default;
void ValueEngine::step(const Step& s, const uint8_t* a, uint64_t a_load, const uint8_t* b, uint64_t b_load) {
  p_->step(s, a, a_load, b, b_load);
}
void ValueEngine::finish(const Step& last, float* out) { p_->finish(last, out); }

}  // namespace hifsim::perf
