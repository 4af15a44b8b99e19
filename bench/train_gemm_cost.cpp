// What the training numerics add to a GEMM (docs/performance.md, "Training GEMMs"): for each
// 4-bit format, the plain GEMM (round-to-nearest operands, quantize + engine) against the
// training GEMM of the recipes (stochastic rounding of both operands, 16-point random Hadamard
// transform), and wgrad with its two FP32 transposes on top. Best of --reps runs in process CPU
// seconds (use --threads 1), the three interleaved, same operands; prints one line per format, the
// ratios and a breakdown.
//   train_gemm_cost [M N K] [--reps R] [--threads T] [--format F]   (--format: one format only, e.g. under perf)
#include <algorithm>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "gemm/train_gemm.hpp"
#include "util/rng.hpp"

using namespace hifsim;

namespace {
// Process CPU seconds: on a shared, loaded machine far steadier than wall time (docs/performance.md
// reports the load next to the figures); with --threads 1 it is the work itself.
double cpu_now() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}
template <class F>
double best_of(int reps, F&& f) {
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    const double t0 = cpu_now();
    f();
    best = std::min(best, cpu_now() - t0);
  }
  return best;
}
}  // namespace

int main(int argc, char** argv) {
  size_t M = 512, N = 512, K = 1024;
  int reps = 3;
  unsigned threads = 1;
  std::string only;
  std::vector<size_t> dims;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--reps" && i + 1 < argc) reps = std::atoi(argv[++i]);
    else if (a == "--threads" && i + 1 < argc) threads = static_cast<unsigned>(std::atoi(argv[++i]));
    else if (a == "--format" && i + 1 < argc) only = argv[++i];
    else dims.push_back(static_cast<size_t>(std::atoll(argv[i])));
  }
  if (dims.size() == 3) M = dims[0], N = dims[1], K = dims[2];
  const std::vector<float> A = normal_values(M * K, SplitMix64(1)), B = normal_values(N * K, SplitMix64(2));
  std::printf("train_gemm_cost: M %zu N %zu K %zu, threads %u, best of %d, CPU seconds\n", M, N, K, threads, reps);
  std::printf("%-8s %10s %10s %10s %8s %8s\n", "format", "plain s", "sr+rht s", "wgrad s", "ratio", "wgrad");
  for (fmt::Format f : {fmt::Format::hif4, fmt::Format::nvfp4, fmt::Format::mxfp4, fmt::Format::mxfp8_e4m3,
                        fmt::Format::bf16}) {
    if (!only.empty() && only != fmt::format_info(f).name) continue;
    dp::TrainGemmSpec plain;
    plain.gemm.format = f;
    plain.gemm.threads = plain.a.threads = plain.b.threads = threads;
    dp::TrainGemmSpec train = plain;
    train.gemm.rht = fmt::RhtSpec{16, 1, fmt::RhtSigns::random};
    train.a.rounding = train.b.rounding = fmt::Rounding::stochastic;
    train.a.seed = train.b.seed = 5;
    train.b.sr_stream = 1;
    std::vector<float> c0, c1, c2;
    // The three interleaved rep by rep (plain, training, wgrad, plain, ...), so that a load change
    // on the shared machine hits all three alike; best of reps each, and the median of the reps'
    // own training/plain ratios.
    double tp = 1e30, tt = 1e30, tw = 1e30;
    std::vector<double> ratios;
    for (int rep = 0; rep < reps; ++rep) {
      const double p1 = best_of(1, [&] { c0 = dp::train_gemm_nt(A.data(), M, B.data(), N, K, plain); });
      const double t1 = best_of(1, [&] { c1 = dp::train_gemm_nt(A.data(), M, B.data(), N, K, train); });
      // wgrad with T = K tokens: dY (K x M) and X (K x N) transposed to M x K and N x K.
      const double w1 = best_of(1, [&] { c2 = dp::wgrad(A.data(), B.data(), K, N, M, train); });
      tp = std::min(tp, p1), tt = std::min(tt, t1), tw = std::min(tw, w1);
      ratios.push_back(t1 / p1);
    }
    std::sort(ratios.begin(), ratios.end());
    std::printf("%-8s %10.4f %10.4f %10.4f %8.3f %8.3f  median of paired ratios %.3f\n", fmt::format_info(f).name, tp,
                tt, tw, tt / tp, tw / tp, ratios[ratios.size() / 2]);
    // Where the time goes: quantizing both operands (RNE, SR), the RHT of both, the engine alone.
    dp::GemmSpec ga = plain.gemm, gs = plain.gemm;
    ga.quant = plain.a;
    gs.quant = train.a;
    fmt::QTensor qa, qb;
    const double q_rne = best_of(reps, [&] {
      qa = dp::quantize_operand(A.data(), M, K, ga);
      qb = dp::quantize_operand(B.data(), N, K, ga);
    });
    const double q_sr = best_of(reps, [&] {
      qa = dp::quantize_operand(A.data(), M, K, gs);
      qb = dp::quantize_operand(B.data(), N, K, gs);
    });
    std::vector<float> ha(M * K), hb(N * K);
    const double t_rht = best_of(reps, [&] {
      fmt::rht_rows(train.gemm.rht, A.data(), ha.data(), M, K, threads);
      fmt::rht_rows(train.gemm.rht, B.data(), hb.data(), N, K, threads);
    });
    const double t_eng = best_of(reps, [&] { c0 = dp::gemm_quantized(qa, qb, ga); });
    std::printf("         quantize rne %.4f  sr %.4f  rht %.4f  engine %.4f\n", q_rne, q_sr, t_rht, t_eng);
  }
  return 0;
}
