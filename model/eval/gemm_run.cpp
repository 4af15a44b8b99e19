#include "eval/gemm_run.hpp"

#include <chrono>
#include <cstring>

#include "gemm/arc.hpp"
#include "gemm/gemm_stats.hpp"
#include "gemm/residual_gemm.hpp"
#include "util/error.hpp"
#include "util/json.hpp"

namespace hifsim::eval {
namespace {

std::string stats_json(const GemmRequest& r, const GemmOutcome& o, const float* C) {
  const size_t M = r.A.rows, K = r.A.cols, N = r.B.rows;
  const double macs = static_cast<double>(M) * N * K;
  const std::vector<double> ref = dp::gemm_fp64(r.A.data, M, K, r.B.data, N, r.spec.threads);
  const dp::GemmError e = dp::gemm_error(C, ref.data(), M * N);
  JsonWriter w;
  w.begin_object()
      .kv("format", fmt::format_info(r.spec.format).name)
      .kv("M", static_cast<uint64_t>(M))
      .kv("N", static_cast<uint64_t>(N))
      .kv("K", static_cast<uint64_t>(K))
      .kv("accumulator", r.spec.acc.name())
      .kv("residual", dp::residual_name(r.residual.kind))
      .kv("residual_mode", r.residual.mode == dp::ResidualMode::fused ? "fused" : "unfused")
      .kv("arc_channels", static_cast<uint64_t>(o.arc_channels))
      .kv("kernel", dp::resolved_kernel(r.spec))
      .kv("seconds", o.seconds)
      .kv("macs_per_second", o.seconds > 0 ? macs / o.seconds : 0.0);
  w.key("error_vs_fp64");
  e.write(w);
  w.end_object();
  return w.str() + "\n";
}

// The result goes to `into` when given (M x N floats, need not be initialized), else to o.C.
GemmOutcome run(const GemmRequest& r, float* into) {
  GemmOutcome o;
  const size_t M = r.A.rows, K = r.A.cols, N = r.B.rows;
  if (r.spec.rht.on() && (r.arc || r.residual.kind != dp::ResidualKind::none))
    throw Error("command line", "--rht", "cannot be combined with --residual or --arc");
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<float> y;
  if (r.arc) {
    const Matrix& cal = r.calibration.data ? r.calibration : r.A;
    const dp::ArcPlan plan = dp::arc_plan(cal.data, cal.rows, K, r.arc_channels, r.spec.format);
    o.arc_channels = plan.S;
    y = dp::gemm_arc(r.A.data, M, K, r.B.data, N, r.spec, plan);
  } else if (r.residual.kind != dp::ResidualKind::none) {
    y = dp::gemm_with_residual(r.A.data, M, K, r.B.data, N, r.spec, r.residual);
  } else if (into) {
    dp::gemm_into(r.A.data, M, K, r.B.data, N, r.spec, into);  // no result vector to fill and copy
  } else {
    y = dp::gemm(r.A.data, M, K, r.B.data, N, r.spec);
  }
  o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!into) o.C = std::move(y);
  else if (!y.empty()) std::memcpy(into, y.data(), y.size() * sizeof(float));
  if (r.stats) o.stats_json = stats_json(r, o, into ? into : o.C.data());
  return o;
}

}  // namespace

GemmOutcome run_gemm(const GemmRequest& r) { return run(r, nullptr); }

GemmOutcome run_gemm_into(const GemmRequest& r, float* C) { return run(r, C); }

GemmOutcome run_gemm_staged(const dp::GemmSpec& spec, const Matrix& A, const std::function<Matrix()>& read_b,
                            const std::function<float*(size_t, size_t)>& result) {
  using clock = std::chrono::steady_clock;
  dp::validate(spec);
  if (spec.rht.on()) throw Error("gemm", "--rht", "the staged GEMM has no RHT (use run_gemm_into)");
  GemmOutcome o;
  auto t0 = clock::now();
  const fmt::QTensor qa = dp::quantize_operand(A.data, A.rows, A.cols, spec);
  o.seconds = std::chrono::duration<double>(clock::now() - t0).count();
  const Matrix B = read_b();
  t0 = clock::now();
  const fmt::QTensor qb = dp::quantize_operand(B.data, B.rows, B.cols, dp::b_operand_spec(spec));
  dp::gemm_quantized_into(qa, qb, spec, result(A.rows, B.rows));
  o.seconds += std::chrono::duration<double>(clock::now() - t0).count();
  return o;
}

}  // namespace hifsim::eval
