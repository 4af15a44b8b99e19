// hifsim gemm: C = A * Bᵀ through the bit-exact GEMM engine, optionally with the Rollout-ResQ
// residual correction or ARCQuant channels, and error statistics against FP64.
#include <chrono>
#include <cmath>
#include <iostream>

#include "args.hpp"
#include "command.hpp"
#include "datapath/arc.hpp"
#include "datapath/gemm_stats.hpp"
#include "files_and_children.hpp"
#include "gemm_options.hpp"
#include "io/npy.hpp"
#include "util/error.hpp"
#include "util/json.hpp"
#include "util/manifest.hpp"

namespace {
using namespace hifsim;

int run(const std::vector<std::string>& args, const std::vector<std::string>& argv) {
  cli::ArgParser p("hifsim gemm --format F --a A.npy --b B.npy --out C.npy [options]",
                   "C = A * B^T with A (M x K) and B (N x K) quantized along K in format F, computed by the\n"
                   "bit-exact datapath units (docs/datapath.md). Output float32 (M x N).");
  p.option("format", "F", "one of: " + fmt::tensor_format_names(), std::nullopt, true);
  p.option("a", "A.npy", "activations, float32 M x K", std::nullopt, true);
  p.option("b", "B.npy", "weights, float32 N x K", std::nullopt, true);
  p.option("out", "C.npy", "result, float32 M x N", std::nullopt, true);
  p.option("stats", "S.json", "write error statistics against the FP64 GEMM of the unquantized inputs");
  p.option("arc", "S", "ARCQuant: S augmented residual channels (a multiple of the format's group) or auto");
  p.option("arc-calib", "X.npy", "ARCQuant calibration activations (default: A itself)");
  cli::add_residual_options(p);
  cli::add_gemm_options(p);
  p.flag("quiet", "print nothing on success");
  if (!p.parse(args)) return 0;

  const auto f = fmt::parse_format(p.get("format"));
  if (!f || !fmt::format_info(*f).tensor)
    throw Error("--format", p.get("format"), "unknown tensor format; choose one of: " + fmt::tensor_format_names());
  const dp::GemmSpec spec = cli::read_gemm_options(p, *f);
  const dp::ResidualSpec res = cli::read_residual_options(p);
  const bool arc = p.has("arc");
  if (arc && res.kind != dp::ResidualKind::none)
    throw Error("command line", "--arc", "cannot be combined with --residual (choose one correction)");

  const io::NpyArray A = cli::read_matrix(p.get("a"), "A"), B = cli::read_matrix(p.get("b"), "B");
  const size_t M = A.shape[0], K = A.shape[1], N = B.shape[0];
  if (B.shape[1] != K)
    throw Error(p.get("b"), "shape", "K mismatch: A is " + io::shape_str(A.shape) + ", B is " + io::shape_str(B.shape));
  fmt::check_representable(*f, A.f32.data(), M, K, p.get("a"));
  fmt::check_representable(*f, B.f32.data(), N, K, p.get("b"));

  const auto t0 = std::chrono::steady_clock::now();
  std::vector<float> C;
  size_t arc_channels = 0;
  if (arc) {
    const std::string v = p.get("arc");
    long S = -1;
    if (v != "auto") S = static_cast<long>(p.get_int("arc", 0, 1 << 30));
    dp::ArcPlan plan;
    if (p.has("arc-calib")) {
      const io::NpyArray cal = cli::read_matrix(p.get("arc-calib"), "calibration activations");
      if (cal.shape[1] != K) throw Error(p.get("arc-calib"), "shape", "K differs from A's");
      plan = dp::arc_plan(cal.f32.data(), cal.shape[0], K, S, *f);
    } else {
      plan = dp::arc_plan(A.f32.data(), M, K, S, *f);
    }
    arc_channels = plan.S;
    C = dp::gemm_arc(A.f32.data(), M, K, B.f32.data(), N, spec, plan);
  } else {
    C = dp::gemm_with_residual(A.f32.data(), M, K, B.f32.data(), N, spec, res);
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double macs = static_cast<double>(M) * N * K;

  std::string stats_json;
  if (p.has("stats")) {
    const std::vector<double> ref = dp::gemm_fp64(A.f32.data(), M, K, B.f32.data(), N, spec.threads);
    const dp::GemmError e = dp::gemm_error(C, ref);
    JsonWriter w;
    w.begin_object()
        .kv("format", fmt::format_info(*f).name)
        .kv("M", static_cast<uint64_t>(M))
        .kv("N", static_cast<uint64_t>(N))
        .kv("K", static_cast<uint64_t>(K))
        .kv("accumulator", spec.acc.name())
        .kv("residual", dp::residual_name(res.kind))
        .kv("residual_mode", res.mode == dp::ResidualMode::fused ? "fused" : "unfused")
        .kv("arc_channels", static_cast<uint64_t>(arc_channels))
        .kv("kernel", dp::resolved_kernel(spec))
        .kv("seconds", secs)
        .kv("macs_per_second", secs > 0 ? macs / secs : 0.0);
    w.key("error_vs_fp64");
    e.write(w);
    w.end_object();
    stats_json = w.str() + "\n";
  }
  io::write_npy(p.get("out"), {M, N}, C.data());
  if (!stats_json.empty()) io::write_file_atomic(p.get("stats"), stats_json);
  Manifest m;
  m.command = "gemm";
  m.argv = argv;
  m.seed = spec.quant.seed;
  m.add_input(p.get("a"));
  m.add_input(p.get("b"));
  m.outputs.emplace_back(p.get("out"), "float32 " + std::to_string(M) + " x " + std::to_string(N));
  if (p.has("stats")) m.outputs.emplace_back(p.get("stats"), "error statistics");
  m.extra.emplace_back("format", fmt::format_info(*f).name);
  m.extra.emplace_back("accumulator", spec.acc.name());
  m.extra.emplace_back("kernel", dp::resolved_kernel(spec));
  m.write(p.get("out") + ".manifest.json");
  if (!p.is_set("quiet"))
    std::cerr << "hifsim gemm: " << fmt::format_info(*f).name << " " << M << "x" << N << "x" << K << " in " << secs
              << " s (" << macs / secs / 1e9 << " GMAC/s, kernel " << dp::resolved_kernel(spec) << ")\n";
  return 0;
}
}  // namespace

HIFSIM_COMMAND("gemm", "bit-exact quantized GEMM C = A*B^T (residual/ARC corrections, error stats)", run);
