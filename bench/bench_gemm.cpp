// Bit-exact GEMM throughput (multiply-accumulates per second) per format, one thread and all
// threads, at 1024^3 and 4096 x 4096 x 512. Operands are quantized once outside the timed
// region; the timed region is the engine, including operand packing and a freshly allocated
// result (a gemm_buffer.hpp Buffer filled by gemm_quantized_into, as numpy allocates its
// result in every `a @ b.T`), after one untimed warm-up GEMM. The counter crit_cpu_s is the least
// CPU time on the engine's critical path of one GEMM (GemmRunInfo) over the iterations:
// 1-thread / N-thread is the speed-up N idle cores give, which other jobs on the machine
// barely change (docs/performance.md, "Thread scaling"). The
// kernel variant is the automatic choice (HIFSIM_KERNEL forces one); each result's label
// names the format and the variant, the JSON context names the CPU. scripts/bench_gemm.sh
// runs this next to numpy's float32 matmul (OpenBLAS) in the same session and writes
// docs/performance.md.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <thread>
#include <vector>

#include "gemm/gemm.hpp"
#include "gemm/gemm_buffer.hpp"
#include "gemm/gemm_cpu.hpp"
#include "util/gaussian.hpp"

using namespace hifsim;

namespace {

// The 1-minute load average, recorded with every result (other jobs on the machine slow it).
double load1() {
  double l = -1;
  if (FILE* f = std::fopen("/proc/loadavg", "r")) {
    if (std::fscanf(f, "%lf", &l) != 1) l = -1;
    std::fclose(f);
  }
  return l;
}

void BM_Gemm(benchmark::State& st, fmt::Format f, size_t M, size_t N, size_t K) {
  dp::GemmSpec s;
  s.format = f;
  s.threads = static_cast<unsigned>(st.range(0));
  const auto A = gaussian(M * K, 1), B = gaussian(N * K, 2);
  const auto qa = dp::quantize_operand(A.data(), M, K, s), qb = dp::quantize_operand(B.data(), N, K, s);
  dp::GemmRunInfo info;
  auto run = [&] {
    dp::Buffer<float> C;
    C.resize(M * N);
    dp::gemm_quantized_into(qa, qb, s, C.data(), &info);
    benchmark::DoNotOptimize(C.data());
  };
  run();  // untimed warm-up: the large shapes run a single timed iteration
  double critical = 1e30;
  for (auto _ : st) {
    run();
    critical = std::min(critical, info.critical_cpu_seconds);
  }
  const double macs = static_cast<double>(M) * N * K;
  st.counters["MAC/s"] = benchmark::Counter(macs, benchmark::Counter::kIsIterationInvariantRate);
  st.counters["fallback_blocks"] = static_cast<double>(info.fallback_blocks);
  st.counters["slow_blocks"] = static_cast<double>(info.slow_scale_blocks);  // off the integer path, exact
  st.counters["load1"] = load1();
  st.counters["crit_cpu_s"] = critical;
  st.SetLabel(std::string(fmt::format_info(f).name) + " " + info.kernel);
}

void register_all() {
  const long all = static_cast<long>(std::max(1u, std::thread::hardware_concurrency()));
  struct Shape {
    size_t M, N, K;
    const char* name;
  };
  const Shape shapes[] = {{1024, 1024, 1024, "1024^3"}, {4096, 4096, 512, "4096x4096x512"}};
  const fmt::Format formats[] = {fmt::Format::hif4,     fmt::Format::nvfp4,      fmt::Format::mxfp4,
                                 fmt::Format::mxfp8_e4m3, fmt::Format::mxfp8_e5m2, fmt::Format::fp8_e4m3,
                                 fmt::Format::fp8_e5m2, fmt::Format::hif8,       fmt::Format::bf16};
  for (fmt::Format f : formats)
    for (const Shape& sh : shapes) {
      auto* b = benchmark::RegisterBenchmark((std::string("gemm/") + fmt::format_info(f).name + "/" + sh.name).c_str(),
                                             BM_Gemm, f, sh.M, sh.N, sh.K);
      b->Arg(1);
      if (all > 1) b->Arg(all);
      b->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(0.5);
    }
}
}  // namespace

int main(int argc, char** argv) {
  register_all();
  benchmark::AddCustomContext("cpu", dp::cpu_description());
  benchmark::AddCustomContext("kernel_variant", dp::variant_name(dp::automatic_variant()));
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
