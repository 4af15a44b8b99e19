// Quantize-dequantize throughput of the format library (formats/qdq_fast.hpp and the reference
// path), in bytes of float32 input per second. One benchmark per format and thread count:
//   BM_qdq/<format>/threads:<n>/isa:<auto|portable>
// The input is the same for every format: 1000 x 4096 float32 (16.4 MB), normal(0, 1) with 1%
// outliers x 30, generated with a fixed seed. scripts/bench_formats.sh runs this next to the
// ml-dtypes peer (scripts/bench_peer_mldtypes.py) and writes docs/performance.md.
#include <benchmark/benchmark.h>

#include <cmath>
#include <random>
#include <thread>
#include <vector>

#include "formats/codes.hpp"
#include "formats/qdq_fast.hpp"
#include "formats/tensor.hpp"
#include "util/parallel.hpp"

using namespace hifsim::fmt;

namespace {

constexpr size_t kRows = 1000, kCols = 4096;

const std::vector<float>& input() {
  static const std::vector<float> x = [] {
    std::vector<float> v(kRows * kCols);
    std::mt19937_64 g(20261129);
    std::normal_distribution<float> n(0.0f, 1.0f);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    for (auto& e : v) {
      e = n(g);
      if (u(g) < 0.01f) e *= 30.0f;
    }
    return v;
  }();
  return x;
}

// The formats benchmarked, in table order. fp4-e2m1 is the plain element (no scale), the peer
// of ml-dtypes float4_e2m1fn.
const Format kFormats[] = {Format::hif4,     Format::hif8,       Format::nvfp4,      Format::mxfp4,
                           Format::mxfp8_e4m3, Format::fp8_e4m3, Format::fp8_e5m2,   Format::bf16,
                           Format::fp4_e2m1};

void BM_qdq(benchmark::State& st) {
  const Format f = kFormats[st.range(0)];
  const unsigned threads = static_cast<unsigned>(st.range(1));
  qdq_fast_set_isa(st.range(2) ? QdqIsa::portable : QdqIsa::automatic);
  const std::vector<float>& x = input();
  std::vector<float> y(x.size());
  QuantOptions o;
  o.threads = threads;
  for (auto _ : st) {
    if (!qdq_fast(f, x.data(), y.data(), kRows, kCols, o)) quantize_dequantize(f, x.data(), y.data(), kRows, kCols, o);
    benchmark::DoNotOptimize(y.data());
    benchmark::ClobberMemory();
  }
  st.SetBytesProcessed(static_cast<int64_t>(st.iterations()) * static_cast<int64_t>(x.size() * sizeof(float)));
  st.SetLabel(std::string(format_info(f).name) + " threads=" + std::to_string(threads) + " isa=" +
              qdq_isa_name(qdq_fast_isa()));
  qdq_fast_set_isa(QdqIsa::automatic);
}

// The reference path (quantize + dequantize through QTensor), for scale.
void BM_reference(benchmark::State& st) {
  const Format f = kFormats[st.range(0)];
  const std::vector<float>& x = input();
  QuantOptions o;
  o.threads = static_cast<unsigned>(st.range(1));
  for (auto _ : st) {
    const QTensor q = quantize(f, x.data(), kRows, kCols, o);
    std::vector<float> y = dequantize(q);
    benchmark::DoNotOptimize(y.data());
  }
  st.SetBytesProcessed(static_cast<int64_t>(st.iterations()) * static_cast<int64_t>(x.size() * sizeof(float)));
  st.SetLabel(std::string(format_info(f).name) + " reference threads=" + std::to_string(o.threads));
}

// Quantization to codes (fmt::quantize, what the GEMM operands go through) for the element-wise
// formats: BM_codes with fast = 1 is quantize (encode_codes_fast), fast = 0 the reference encoder
// loop it replaced (encode_code per element, same split over threads); nvfp4 (block codes and
// scales, nvfp4_quantize_block_fast) has the quantize row only.
const Format kCodeFormats[] = {Format::hif8, Format::fp8_e4m3, Format::fp8_e5m2, Format::bf16, Format::nvfp4};
void BM_codes(benchmark::State& st) {
  const Format f = kCodeFormats[st.range(0)];
  const std::vector<float>& x = input();
  QuantOptions o;
  o.threads = static_cast<unsigned>(st.range(1));
  const bool fast = st.range(2) != 0;
  std::vector<uint16_t> codes(x.size());
  for (auto _ : st) {
    if (fast || format_info(f).block != 1) {
      const QTensor q = quantize(f, x.data(), kRows, kCols, o);
      benchmark::DoNotOptimize(q.codes.data());
    } else {
      const Rounding r = element_rounding(f, o);
      hifsim::parallel_for(x.size(), o.threads, [&](size_t b, size_t e) {
        for (size_t i = b; i < e; ++i) codes[i] = encode_code(f, x[i], r, o, i);
      }, 4096);
      benchmark::DoNotOptimize(codes.data());
    }
    benchmark::ClobberMemory();
  }
  st.SetBytesProcessed(static_cast<int64_t>(st.iterations()) * static_cast<int64_t>(x.size() * sizeof(float)));
  st.SetLabel(std::string(format_info(f).name) + (fast ? " quantize" : " reference encoder") +
              " threads=" + std::to_string(o.threads));
}
void code_args(benchmark::internal::Benchmark* b) {
  const long all = static_cast<long>(std::max(1u, std::thread::hardware_concurrency()));
  for (long f = 0; f < static_cast<long>(sizeof kCodeFormats / sizeof kCodeFormats[0]); ++f)
    for (long t : all > 1 ? std::vector<long>{1, all} : std::vector<long>{1})
      for (long fast : {0L, 1L})
        if (fast || kCodeFormats[f] != Format::nvfp4) b->Args({f, t, fast});  // nvfp4: quantize only
  b->ArgNames({"format", "threads", "fast"})->UseRealTime()->Unit(benchmark::kMillisecond);
}

void args(benchmark::internal::Benchmark* b) {
  const long all = static_cast<long>(std::max(1u, std::thread::hardware_concurrency()));
  for (long f = 0; f < static_cast<long>(sizeof kFormats / sizeof kFormats[0]); ++f) {
    b->Args({f, 1, 0});
    if (all > 1) b->Args({f, all, 0});
    b->Args({f, 1, 1});
  }
  b->ArgNames({"format", "threads", "portable"})->UseRealTime()->Unit(benchmark::kMillisecond);
}
void ref_args(benchmark::internal::Benchmark* b) {
  for (long f = 0; f < 8; ++f) b->Args({f, 1});
  b->ArgNames({"format", "threads"})->UseRealTime()->Unit(benchmark::kMillisecond);
}

}  // namespace

BENCHMARK(BM_qdq)->Apply(args);
BENCHMARK(BM_reference)->Apply(ref_args);
BENCHMARK(BM_codes)->Apply(code_args);
BENCHMARK_MAIN();
