#include "formats/codes.hpp"

#include <cmath>

#include "formats/bits.hpp"
#include "formats/hif8.hpp"
#include "formats/minifloat.hpp"
#include "formats/s1p2.hpp"
#include "formats/scales.hpp"
#include "formats/stochastic.hpp"
#include "util/error.hpp"
#include "util/parallel.hpp"
#include "util/rng.hpp"

namespace hifsim::fmt {
namespace {
using R = Rounding;
constexpr unsigned kNearest = rbit(R::nearest_even) | rbit(R::nearest_away);

std::string rounding_list(unsigned mask) {
  std::string ok;
  for (int i = 0; i <= static_cast<int>(R::hybrid); ++i)
    if (mask & (1u << i)) ok += std::string(ok.empty() ? "" : ", ") + rounding_name(static_cast<R>(i));
  return ok;
}
}  // namespace

bool is_code_format(Format f) { return f == Format::bf16 || has_code_table(f); }

std::string encode_format_names() {
  std::string s;
  for (const auto& i : all_formats()) {
    if (!is_code_format(i.id)) continue;
    if (!s.empty()) s += ", ";
    s += i.name;
  }
  return s;
}

unsigned code_roundings(Format f) {
  switch (f) {
    case Format::hif8: case Format::fp8_e4m3: case Format::fp8_e5m2: case Format::bf16:
      return format_info(f).roundings;
    case Format::fp4_e2m1: case Format::s1p2: return kNearest;
    case Format::e6m2: return rbit(R::nearest_even);
    case Format::e8m0: return rbit(R::nearest_away);
    default: return 0;
  }
}

Rounding code_default_rounding(Format f) { return format_info(f).default_rounding; }

bool code_has_saturate(Format f) { return f == Format::hif8 || f == Format::fp8_e4m3 || f == Format::fp8_e5m2; }

bool code_rejects_nonfinite(Format f) { return f == Format::fp4_e2m1 || f == Format::s1p2; }

void validate_code_options(Format f, const QuantOptions& o) {
  if (!is_code_format(f))
    throw Error("--format", format_info(f).name,
                "is not an element/scale code format; choose one of: " + encode_format_names());
  const R r = o.rounding ? *o.rounding : code_default_rounding(f);
  if (!(code_roundings(f) & rbit(r)))
    throw Error("--rounding", rounding_name(r),
                std::string("not supported by ") + format_info(f).name + " (supported: " + rounding_list(code_roundings(f)) + ")");
  if (r == R::stochastic) validate_sr_bits(o.sr_bits);
  if (o.saturate && !code_has_saturate(f))
    throw Error("--saturate", format_info(f).name, "has no overflow choice; leave --saturate out");
}

uint16_t encode_code(Format f, float x, R r, const QuantOptions& o, uint64_t index) {
  // Stochastic: the element's word of the training stream (formats/stochastic.hpp). The seeded
  // hybrid threshold keeps its own 64-bit draw (docs/formats.md, HiF8 hybrid rounding).
  const uint64_t rbits = r == R::stochastic ? sr_rbits(SrStream{o.seed, o.sr_stream, o.sr_bits}, index)
                         : (r == R::hybrid && o.hybrid_threshold == HybridThreshold::seeded)
                             ? counter_random(o.seed, static_cast<uint64_t>(f), index)
                             : 0;
  return encode_code_with(f, x, r, o, rbits);
}

uint16_t encode_code_with(Format f, float x, R r, const QuantOptions& o, uint64_t rbits) {
  switch (f) {
    case Format::hif8: {
      Hif8Encode e;
      e.rounding = r;
      e.saturate = o.saturate;
      e.rbits = rbits;
      e.hybrid_strict = o.hybrid_strict;
      if (o.hybrid_threshold == HybridThreshold::seeded) {
        e.hybrid_threshold_from_input = false;
        e.hybrid_t14 = static_cast<uint32_t>(rbits >> 50);  // the top 14 random bits
      }
      return hif8_encode(x, e);
    }
    case Format::fp8_e4m3: case Format::fp8_e5m2: case Format::fp4_e2m1: {
      MiniFloatEncode e;
      e.rounding = r;
      e.saturate = o.saturate;
      e.rbits = rbits;
      const MiniFloatSpec& s = f == Format::fp8_e4m3 ? kE4M3 : f == Format::fp8_e5m2 ? kE5M2 : kE2M1;
      return minifloat_encode(s, x, e);
    }
    case Format::bf16:
      if (r == R::stochastic) return bf16_from_f32_sr(f32_bits(x), rbits);
      return r == R::toward_zero ? bf16_from_f32_rz(f32_bits(x)) : bf16_from_f32_rne(f32_bits(x));
    case Format::s1p2: return s1p2_encode(x, r);
    case Format::e6m2: return e6m2_encode(x);
    case Format::e8m0: return e8m0_encode(x);
    default: throw std::logic_error("encode_code: not a code format");
  }
}

float decode_code(Format f, uint16_t c) {
  if (f == Format::bf16) return bf16_to_float(c);
  return code_decode(f, static_cast<uint8_t>(c));
}

void encode_codes(Format f, const float* x, size_t n, const QuantOptions& o, uint16_t* codes,
                  const std::string& where) {
  validate_code_options(f, o);
  if (code_rejects_nonfinite(f)) {
    for (size_t i = 0; i < n; ++i)
      if (!std::isfinite(x[i]))
        throw Error(where, "element " + std::to_string(i),
                    std::string(std::isnan(x[i]) ? "NaN" : "Inf") + " cannot be represented in " + format_info(f).name +
                        " (it has no NaN or Inf codes); clean the input first");
  }
  const R r = o.rounding ? *o.rounding : code_default_rounding(f);
  parallel_for(n, o.threads, [&](size_t b, size_t e) {
    for (size_t i = b; i < e; ++i) codes[i] = encode_code(f, x[i], r, o, i);
  }, 1 << 14);
}

void decode_codes(Format f, const uint16_t* codes, size_t n, float* out, const std::string& where) {
  if (!is_code_format(f)) throw Error("--format", format_info(f).name, "is not an element/scale code format");
  const unsigned bits = format_info(f).code_bits;
  const uint32_t limit = 1u << bits;
  for (size_t i = 0; i < n; ++i) {
    if (codes[i] >= limit)
      throw Error(where, "element " + std::to_string(i),
                  "code " + std::to_string(codes[i]) + " does not fit in " + std::to_string(bits) + " bits (" +
                      format_info(f).name + ")");
    out[i] = decode_code(f, codes[i]);
  }
}

}  // namespace hifsim::fmt
