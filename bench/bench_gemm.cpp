// Bit-exact GEMM throughput (multiply-accumulates per second) per format, one thread and all
// threads. Operands are quantized once outside the timed region; the timed region is
// gemm_quantized (the engine, including operand repacking). scripts/bench_gemm.sh runs this
// next to numpy's float32 matmul (OpenBLAS) on the same shapes and writes docs/performance.md.
#include <benchmark/benchmark.h>

#include <cmath>
#include <thread>
#include <vector>

#include "datapath/gemm.hpp"
#include "util/rng.hpp"

using namespace hifsim;

namespace {
std::vector<float> gaussian(size_t n, uint64_t seed) {
  SplitMix64 r(seed);
  std::vector<float> x(n);
  for (auto& v : x) {
    const double u1 = r.uniform() + 1e-12, u2 = r.uniform();
    v = static_cast<float>(std::sqrt(-2 * std::log(u1)) * std::cos(6.283185307179586 * u2));
  }
  return x;
}

void BM_Gemm(benchmark::State& st, fmt::Format f, size_t M, size_t N, size_t K) {
  dp::GemmSpec s;
  s.format = f;
  s.threads = static_cast<unsigned>(st.range(0));
  const auto A = gaussian(M * K, 1), B = gaussian(N * K, 2);
  const auto qa = dp::quantize_operand(A.data(), M, K, s), qb = dp::quantize_operand(B.data(), N, K, s);
  for (auto _ : st) {
    auto C = dp::gemm_quantized(qa, qb, s);
    benchmark::DoNotOptimize(C.data());
  }
  const double macs = static_cast<double>(M) * N * K;
  st.counters["MAC/s"] = benchmark::Counter(macs, benchmark::Counter::kIsIterationInvariantRate);
  st.SetLabel(std::string(fmt::format_info(f).name) + " " + dp::resolved_kernel(s));
}

void register_all() {
  const long all = static_cast<long>(std::max(1u, std::thread::hardware_concurrency()));
  struct Shape {
    size_t M, N, K;
    const char* name;
  };
  const Shape big[] = {{1024, 1024, 1024, "1024^3"}, {4096, 4096, 512, "4096x4096x512"}};
  for (const Shape& sh : big) {
    benchmark::RegisterBenchmark((std::string("gemm/hif4/") + sh.name).c_str(), BM_Gemm, fmt::Format::hif4, sh.M, sh.N, sh.K)
        ->Arg(1)->Arg(all)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0);
  }
  // The other formats on 1024^3 (their kernels are slower; one iteration is representative).
  for (fmt::Format f : {fmt::Format::nvfp4, fmt::Format::mxfp4, fmt::Format::hif8, fmt::Format::mxfp8_e4m3,
                        fmt::Format::bf16}) {
    benchmark::RegisterBenchmark((std::string("gemm/") + fmt::format_info(f).name + "/1024^3").c_str(), BM_Gemm, f,
                                 1024, 1024, 1024)
        ->Arg(1)->Arg(all)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);
  }
}
}  // namespace

int main(int argc, char** argv) {
  register_all();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
