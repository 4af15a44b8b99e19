#include "gemm/gemm.hpp"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <optional>
#include <utility>

#include "formats/bits.hpp"
#include "gemm/gemm_cpu.hpp"
#include "gemm/gemm_cpu_path.hpp"
#include "gemm/gemm_driver.hpp"
#include "gemm/gemm_formats.hpp"
#include "util/error.hpp"
#include "util/parallel.hpp"

namespace hifsim::dp {

using fmt::Format;

namespace {
// The one correspondence between the CPU variants (gemm_cpu.hpp, their names and order) and
// the spec's kernel choices.
constexpr std::pair<CpuVariant, GemmKernel> kVariantKernels[] = {
    {CpuVariant::portable, GemmKernel::portable}, {CpuVariant::avx2, GemmKernel::avx2},
    {CpuVariant::avxvnni, GemmKernel::avxvnni},   {CpuVariant::avx512, GemmKernel::avx512},
    {CpuVariant::amx, GemmKernel::amx}};
static_assert(std::size(kVariantKernels) == std::size(kAllVariants), "every CPU variant is a kernel choice");
}  // namespace

GemmKernel gemm_kernel_of(CpuVariant v) {
  for (const auto& [cv, k] : kVariantKernels)
    if (cv == v) return k;
  return GemmKernel::portable;  // unreachable: every variant is listed
}

GemmKernel parse_gemm_kernel(const std::string& name, const std::string& option) {
  if (name == "auto") return GemmKernel::automatic;
  if (name == "reference") return GemmKernel::reference;
  if (const std::optional<CpuVariant> v = parse_variant(name)) return gemm_kernel_of(*v);
  std::string choices = "auto";
  for (CpuVariant v : kAllVariants) choices += std::string(", ") + variant_name(v);
  throw Error("command line", option, "'" + name + "' is not " + choices + " or reference");
}

int dot_width(const GemmSpec& s) {
  const fmt::FormatTraits& t = fmt::format_traits(s.format);
  return t.unit == fmt::DotUnit::hif8_dot ? s.hif8_lanes : static_cast<int>(t.unit_lanes);
}

AlignSpec effective_align(const GemmSpec& s) { return s.align_set ? s.align : default_align(s.format); }

void validate(const GemmSpec& s) {
  const fmt::FormatInfo& info = fmt::format_info(s.format);
  if (!info.tensor) throw Error("--format", info.name, "is not a tensor format; choose one of " + fmt::tensor_format_names());
  if (fmt::format_traits(s.format).unit == fmt::DotUnit::hif8_dot && s.hif8_lanes != 16 && s.hif8_lanes != 32 && s.hif8_lanes != 64)
    throw Error("--hif8-lanes", std::to_string(s.hif8_lanes), "must be 16, 32 or 64");
  const AlignSpec a = effective_align(s);
  if (a.width < 0 || a.width > 120) throw Error("--align-width", std::to_string(a.width), "must be 0 (exact) or in [1, 120]");
  fmt::validate_options(s.format, s.quant);
}

fmt::QTensor quantize_operand(const float* x, size_t rows, size_t cols, const GemmSpec& s) {
  const size_t w = static_cast<size_t>(dot_width(s));
  const size_t kp = (cols + w - 1) / w * w;
  if (kp == cols) return fmt::quantize(s.format, x, rows, cols, s.quant);
  std::vector<float> padded(rows * kp, 0.0f);
  for (size_t r = 0; r < rows; ++r) std::memcpy(padded.data() + r * kp, x + r * cols, cols * sizeof(float));
  return fmt::quantize(s.format, padded.data(), rows, kp, s.quant);
}

GemmSpec b_operand_spec(const GemmSpec& s) {
  GemmSpec sb = s;
  sb.quant.sr_stream = s.quant.sr_stream + 1;
  return sb;
}

DotResult unit_dot(const fmt::QTensor& A, size_t m, const fmt::QTensor& B, size_t n, size_t blk, const GemmSpec& s) {
  return gemm_format_record(s.format).unit(A, m, B, n, blk, s);
}

float epilogue(float acc, const fmt::QTensor& A, const fmt::QTensor& B) {
  float r = acc;
  if (fmt::format_traits(A.format).tensor_scale) {
    const float alpha = A.tensor_scale * B.tensor_scale;
    r = acc * alpha;
  }
  if (r != r) r = fmt::f32_nan();
  return r;
}

namespace {
// The definition: every output from the unit classes and the Accumulator, block by block.
void gemm_units(const fmt::QTensor& A, const fmt::QTensor& B, const GemmSpec& s, float* C) {
  const size_t M = A.rows, N = B.rows;
  const size_t nblk = A.padded_cols / static_cast<size_t>(dot_width(s));
  parallel_for(M * N, s.threads, [&](size_t b, size_t e) {
    Accumulator acc(s.acc);
    for (size_t i = b; i < e; ++i) {
      const size_t m = i / N, n = i % N;
      acc.reset(0.0f);
      for (size_t blk = 0; blk < nblk; ++blk) acc.add(unit_dot(A, m, B, n, blk, s));
      C[i] = epilogue(acc.result(), A, B);
    }
  }, 64);
}

CpuVariant variant_for(const GemmSpec& s) {
  const auto* it = std::find_if(std::begin(kVariantKernels), std::end(kVariantKernels),
                                [&](const auto& p) { return p.second == s.kernel; });
  if (it == std::end(kVariantKernels)) return automatic_variant();
  const CpuVariant v = it->first;
  const std::string why = variant_unavailable_reason(v);
  if (!why.empty()) throw Error("--kernel", variant_name(v), "cannot run on this machine: " + why);
  return v;
}
}  // namespace

std::string resolved_kernel(const GemmSpec& s) {
  if (s.kernel == GemmKernel::reference) return "reference";
  return variant_name(variant_for(s));
}

void gemm_quantized_into(const fmt::QTensor& A, const fmt::QTensor& B, const GemmSpec& s, float* C, GemmRunInfo* info) {
  validate(s);
  if (A.format != s.format || B.format != s.format)
    throw Error("gemm", "operands", "are not quantized in " + std::string(fmt::format_info(s.format).name));
  if (A.padded_cols != B.padded_cols)
    throw Error("gemm", "K", "A has " + std::to_string(A.cols) + " columns, B has " + std::to_string(B.cols));
  if (A.padded_cols % static_cast<size_t>(dot_width(s)) != 0)
    throw Error("gemm", "K", "operands are not padded to the dot-product width (use quantize_operand)");
  GemmRunInfo local;
  GemmRunInfo& ri = info ? *info : local;
  ri = GemmRunInfo{};
  ri.kernel = resolved_kernel(s);
  ri.unit_blocks = static_cast<uint64_t>(A.rows) * B.rows * (A.padded_cols / static_cast<size_t>(dot_width(s)));
  if (A.rows == 0 || B.rows == 0) return;
  if (s.kernel == GemmKernel::reference) {
    gemm_units(A, B, s, C);
  } else {
    const double cpu0 = thread_cpu_seconds();
    ri.fallback_blocks = gemm_tiled(A, B, s, variant_for(s), C, &ri);
    ri.critical_cpu_seconds = thread_cpu_seconds() - cpu0 + ri.worker_cpu_seconds;
  }
}

std::vector<float> gemm_quantized(const fmt::QTensor& A, const fmt::QTensor& B, const GemmSpec& s, GemmRunInfo* info) {
  std::vector<float> C(A.rows * B.rows, 0.0f);
  gemm_quantized_into(A, B, s, C.data(), info);
  return C;
}

std::vector<float> gemm(const float* A, size_t M, size_t K, const float* B, size_t N, const GemmSpec& s) {
  std::vector<float> C(M * N, 0.0f);
  gemm_into(A, M, K, B, N, s, C.data());
  return C;
}

void gemm_into(const float* A, size_t M, size_t K, const float* B, size_t N, const GemmSpec& s, float* C) {
  validate(s);
  fmt::validate_rht(s.rht, K, "gemm");
  const GemmSpec sb = b_operand_spec(s);
  if (!s.rht.on()) return gemm_quantized_into(quantize_operand(A, M, K, s), quantize_operand(B, N, K, sb), s, C);
  std::vector<float> ha(M * K), hb(N * K);
  fmt::rht_rows(s.rht, A, ha.data(), M, K, s.threads);
  fmt::rht_rows(s.rht, B, hb.data(), N, K, s.threads);
  gemm_quantized_into(quantize_operand(ha.data(), M, K, s), quantize_operand(hb.data(), N, K, sb), s, C);
}

}  // namespace hifsim::dp
