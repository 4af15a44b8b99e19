// hifsim gemm: C = A * Bᵀ through the bit-exact GEMM engine, optionally with the Rollout-ResQ
// residual correction or ARCQuant channels, and error statistics against FP64.
#include <iostream>

#include "args.hpp"
#include "command.hpp"
#include "eval/gemm_run.hpp"
#include "eval/workload.hpp"
#include "gemm_options.hpp"
#include "io/npy.hpp"
#include "util/error.hpp"
#include "util/files.hpp"
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

  const std::string out = p.get("out");
  OutputSet outs(out + ".manifest.json");
  outs.expect(out);
  if (p.has("stats")) outs.expect(p.get("stats"));
  eval::GemmRequest r;
  r.spec = spec;
  r.residual = res;
  r.arc = arc;
  if (arc && p.get("arc") != "auto") r.arc_channels = static_cast<long>(p.get_int("arc", 0, 1 << 30));
  r.stats = p.has("stats");
  // Inputs, calibration and result in uninitialized storage (util/uninit_buffer.hpp): no zero
  // fill before the read or the GEMM writes them (issue 27: the whole command near its engine).
  io::NpyF32 A = eval::read_matrix_uninit(p.get("a"), "A");
  const size_t M = A.shape[0], K = A.shape[1];
  fmt::validate_rht(spec.rht, K, p.get("a") + " and " + p.get("b"));
  fmt::check_representable(*f, A.values.data(), M, K, p.get("a"));
  io::NpyF32 B;
  auto read_b = [&](UninitBuffer<float> storage) {
    B = eval::read_matrix_uninit(p.get("b"), "B", std::move(storage));
    if (B.shape[1] != K)
      throw Error(p.get("b"), "shape", "K mismatch: A is " + io::shape_str(A.shape) + ", B is " + io::shape_str(B.shape));
    fmt::check_representable(*f, B.values.data(), B.shape[0], K, p.get("b"));
    return eval::Matrix{B.values.data(), B.shape[0], K};
  };
  // The result in storage the process has touched already when it fits (a fresh page costs far
  // more than writing it: docs/performance.md, issue 27), else in a fresh uninitialized buffer.
  UninitBuffer<float> own;
  auto result_in = [&](UninitBuffer<float>& used, size_t m, size_t n) {
    UninitBuffer<float>& c = m * n <= used.capacity() ? used : own;
    c.resize(m * n);
    return c.data();
  };
  float* C = nullptr;
  eval::GemmOutcome g;
  if (!arc && res.kind == dp::ResidualKind::none && !r.stats && !spec.rht.on()) {
    // The plain GEMM: one buffer holds A, then B (read once A is quantized), then C.
    g = eval::run_gemm_staged(spec, {A.values.data(), M, K}, [&] { return read_b(std::move(A.values)); },
                              [&](size_t m, size_t n) { return C = result_in(B.values, m, n); });
  } else {
    r.A = {A.values.data(), M, K};
    r.B = read_b({});
    io::NpyF32 cal;
    if (arc && p.has("arc-calib")) {
      cal = eval::read_matrix_uninit(p.get("arc-calib"), "calibration activations");
      if (cal.shape[1] != K) throw Error(p.get("arc-calib"), "shape", "K differs from A's");
      r.calibration = {cal.values.data(), cal.shape[0], K};
    }
    // C may take A's storage when nothing reads A after the GEMM (the statistics do; run_gemm_into).
    UninitBuffer<float> none;
    C = result_in(r.stats ? none : A.values, M, r.B.rows);
    g = eval::run_gemm_into(r, C);
  }
  const size_t N = B.shape[0];

  outs.add(out, [&](const std::string& path) { io::write_npy(path, {M, N}, C); },
           "float32 " + std::to_string(M) + " x " + std::to_string(N));
  if (r.stats) outs.add(p.get("stats"), g.stats_json, "error statistics");
  Manifest m;
  m.command = "gemm";
  m.argv = argv;
  m.seed = spec.quant.seed;
  m.add_input(p.get("a"));
  m.add_input(p.get("b"));
  m.extra.emplace_back("format", fmt::format_info(*f).name);
  m.extra.emplace_back("accumulator", spec.acc.name());
  m.extra.emplace_back("kernel", dp::resolved_kernel(spec));
  outs.finish(m);
  const double secs = g.seconds, macs = static_cast<double>(M) * N * K;
  if (!p.is_set("quiet"))
    std::cerr << "hifsim gemm: " << fmt::format_info(*f).name << " " << M << "x" << N << "x" << K << " in " << secs
              << " s (" << macs / secs / 1e9 << " GMAC/s, kernel " << dp::resolved_kernel(spec) << ")\n";
  return 0;
}
}  // namespace

HIFSIM_COMMAND("gemm", "bit-exact quantized GEMM C = A*B^T (residual/ARC corrections, error stats)", run);
