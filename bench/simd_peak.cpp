// The machine's SIMD multiply-accumulate ceilings, measured: the denominators of the roofline
// statement in docs/performance.md. Each loop issues only independent instructions of one kind
// (12 accumulators, no loads), so its rate is the core's throughput bound for that instruction
// (SIMD width x ports x clock, whatever the clock is under the current load). Run by
// scripts/bench_gemm.sh next to the GEMM benchmark; prints one JSON line per ceiling, with the
// wall-clock rate of all threads and the rate per CPU second of one thread.
//   simd_peak [threads]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <thread>
#include <vector>

#include <immintrin.h>

#include "gemm/gemm_cpu.hpp"

namespace {

constexpr long kIters = 20'000'000;

// 12 independent int8 dot products per iteration: vpdpbusd zmm (64 MACs each).
__attribute__((target("avx512f,avx512bw,avx512vnni"), noinline)) double vnni512(long n) {
  __m512i acc[12];
  for (auto& a : acc) a = _mm512_setzero_si512();
  __m512i x = _mm512_set1_epi8(3), y = _mm512_set1_epi8(5);
  for (long i = 0; i < n; ++i) {
    for (auto& a : acc) a = _mm512_dpbusd_epi32(a, x, y);
    __asm__ volatile("" : "+v"(x), "+v"(y));
  }
  long s = 0;
  for (auto& a : acc) s += _mm512_reduce_add_epi32(a);
  __asm__ volatile("" ::"r"(s));
  return 12.0 * 64 * n;
}

__attribute__((target("avx512f"), noinline)) double fma512_ps(long n) {
  __m512 acc[12];
  for (auto& a : acc) a = _mm512_setzero_ps();
  const auto x = _mm512_set1_ps(1.0f);
  auto y = _mm512_set1_ps(1e-9f);
  for (long i = 0; i < n; ++i) {
    for (auto& a : acc) a = _mm512_fmadd_ps(x, y, a);
    __asm__ volatile("" : "+v"(y));
  }
  float s = 0;
  for (auto& a : acc) s += _mm512_reduce_add_ps(a);
  __asm__ volatile("" ::"x"(s));
  return 12.0 * 16 * n;
}

__attribute__((target("avx512f"), noinline)) double fma512_pd(long n) {
  __m512d acc[12];
  for (auto& a : acc) a = _mm512_setzero_pd();
  const auto x = _mm512_set1_pd(1.0);
  auto y = _mm512_set1_pd(1e-9);
  for (long i = 0; i < n; ++i) {
    for (auto& a : acc) a = _mm512_fmadd_pd(x, y, a);
    __asm__ volatile("" : "+v"(y));
  }
  double s = 0;
  for (auto& a : acc) s += _mm512_reduce_add_pd(a);
  __asm__ volatile("" ::"x"(s));
  return 12.0 * 8 * n;
}

// AMX-INT8: tdpbsud on four independent 16 x 16 C tiles (16 x 64 bytes by 64 x 16: 16,384 MACs
// each), the instruction of the amx variant's HiF4 kernel. n / 16 iterations of 4.
struct alignas(64) AmxTileConfig {
  uint8_t palette = 1, start_row = 0;
  uint8_t reserved[14] = {};
  uint16_t colsb[16] = {};
  uint8_t rows[16] = {};
};
__attribute__((target("amx-tile,amx-int8"), noinline)) double amx_int8(long n) {
  AmxTileConfig cfg;
  for (int i = 0; i < 6; ++i) {
    cfg.rows[i] = 16;
    cfg.colsb[i] = 64;
  }
  _tile_loadconfig(&cfg);
  alignas(64) static thread_local int8_t ab[2][16][64] = {};
  _tile_zero(0);
  _tile_zero(1);
  _tile_zero(2);
  _tile_zero(3);
  _tile_loadd(4, ab[0], 64);
  _tile_loadd(5, ab[1], 64);
  const long iters = n / 16;
  for (long i = 0; i < iters; ++i) {
    _tile_dpbsud(0, 4, 5);
    _tile_dpbsud(1, 4, 5);
    _tile_dpbsud(2, 5, 4);
    _tile_dpbsud(3, 5, 4);
  }
  alignas(64) static thread_local int32_t c[16][16];
  _tile_stored(0, c, 64);
  _tile_release();
  __asm__ volatile("" ::"r"(c[0][0]));
  return 4.0 * 16384 * static_cast<double>(iters);
}

// AVX2 int8: vpmaddubsw + vpaddw per 32 MACs (the avx2 kernel's int16 stage).
__attribute__((target("avx2"), noinline)) double maddubs256(long n) {
  __m256i acc[12];
  for (auto& a : acc) a = _mm256_setzero_si256();
  __m256i x = _mm256_set1_epi8(3), y = _mm256_set1_epi8(5);
  for (long i = 0; i < n; ++i) {
    for (auto& a : acc) a = _mm256_add_epi16(a, _mm256_maddubs_epi16(x, y));
    __asm__ volatile("" : "+v"(x), "+v"(y));
  }
  int s = 0;
  for (auto& a : acc) s += _mm256_extract_epi16(a, 0);
  __asm__ volatile("" ::"r"(s));
  return 12.0 * 32 * n;
}

// The same on ymm with the VEX encoding of AVX-VNNI (the avxvnni kernel's dot4).
__attribute__((target("avx2,avxvnni"), noinline)) double vnni256(long n) {
  __m256i acc[12];
  for (auto& a : acc) a = _mm256_setzero_si256();
  __m256i x = _mm256_set1_epi8(3), y = _mm256_set1_epi8(5);
  for (long i = 0; i < n; ++i) {
    for (auto& a : acc) a = _mm256_dpbusd_avx_epi32(a, x, y);
    __asm__ volatile("" : "+v"(x), "+v"(y));
  }
  int s = 0;
  for (auto& a : acc) s += _mm256_extract_epi32(a, 0);
  __asm__ volatile("" ::"r"(s));
  return 12.0 * 32 * n;
}

// int16 pairs (the fp family's integer kernel, gemm_kernels_fpi.hpp): vpdpwssd zmm / ymm, and
// vpmaddwd + vpaddd ymm where the CPU has no VNNI.
__attribute__((target("avx512f,avx512bw,avx512vnni"), noinline)) double vnni512_i16(long n) {
  __m512i acc[12];
  for (auto& a : acc) a = _mm512_setzero_si512();
  __m512i x = _mm512_set1_epi16(3), y = _mm512_set1_epi16(5);
  for (long i = 0; i < n; ++i) {
    for (auto& a : acc) a = _mm512_dpwssd_epi32(a, x, y);
    __asm__ volatile("" : "+v"(x), "+v"(y));
  }
  long s = 0;
  for (auto& a : acc) s += _mm512_reduce_add_epi32(a);
  __asm__ volatile("" ::"r"(s));
  return 12.0 * 32 * n;
}

__attribute__((target("avx2,avxvnni"), noinline)) double vnni256_i16(long n) {
  __m256i acc[12];
  for (auto& a : acc) a = _mm256_setzero_si256();
  __m256i x = _mm256_set1_epi16(3), y = _mm256_set1_epi16(5);
  for (long i = 0; i < n; ++i) {
    for (auto& a : acc) a = _mm256_dpwssd_avx_epi32(a, x, y);
    __asm__ volatile("" : "+v"(x), "+v"(y));
  }
  int s = 0;
  for (auto& a : acc) s += _mm256_extract_epi32(a, 0);
  __asm__ volatile("" ::"r"(s));
  return 12.0 * 16 * n;
}

__attribute__((target("avx2"), noinline)) double madd256_i16(long n) {
  __m256i acc[12];
  for (auto& a : acc) a = _mm256_setzero_si256();
  __m256i x = _mm256_set1_epi16(3), y = _mm256_set1_epi16(5);
  for (long i = 0; i < n; ++i) {
    for (auto& a : acc) a = _mm256_add_epi32(a, _mm256_madd_epi16(x, y));
    __asm__ volatile("" : "+v"(x), "+v"(y));
  }
  int s = 0;
  for (auto& a : acc) s += _mm256_extract_epi32(a, 0);
  __asm__ volatile("" ::"r"(s));
  return 12.0 * 16 * n;
}

__attribute__((target("avx2,fma"), noinline)) double fma256_ps(long n) {
  __m256 acc[12];
  for (auto& a : acc) a = _mm256_setzero_ps();
  const auto x = _mm256_set1_ps(1.0f);
  auto y = _mm256_set1_ps(1e-9f);
  for (long i = 0; i < n; ++i) {
    for (auto& a : acc) a = _mm256_fmadd_ps(x, y, a);
    __asm__ volatile("" : "+v"(y));
  }
  float s = 0;
  for (auto& a : acc) s += _mm256_cvtss_f32(a);
  __asm__ volatile("" ::"x"(s));
  return 12.0 * 8 * n;
}

__attribute__((target("avx2,fma"), noinline)) double fma256_pd(long n) {
  __m256d acc[12];
  for (auto& a : acc) a = _mm256_setzero_pd();
  const auto x = _mm256_set1_pd(1.0);
  auto y = _mm256_set1_pd(1e-9);
  for (long i = 0; i < n; ++i) {
    for (auto& a : acc) a = _mm256_fmadd_pd(x, y, a);
    __asm__ volatile("" : "+v"(y));
  }
  double s = 0;
  for (auto& a : acc) s += _mm256_cvtsd_f64(a);
  __asm__ volatile("" ::"x"(s));
  return 12.0 * 4 * n;
}

// CPU time of the calling thread, in seconds.
double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

struct Rate {
  double wall = 0;  // MAC/s of `threads` copies, wall clock
  double cpu = 0;   // MAC per CPU second of one copy: the core's throughput while it runs, which
                    // other jobs on a shared machine change far less than the wall rate
};

// Best of 5 runs of `threads` copies of fn.
Rate rate(double (*fn)(long), unsigned threads) {
  Rate best;
  for (int rep = 0; rep < 5; ++rep) {
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<std::thread> pool;
    std::vector<double> macs(threads), cpu(threads);
    for (unsigned t = 0; t < threads; ++t)
      pool.emplace_back([&, t] {
        const double c0 = thread_cpu_seconds();
        macs[t] = fn(kIters / 4);
        cpu[t] = thread_cpu_seconds() - c0;
      });
    for (auto& t : pool) t.join();
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    double total = 0;
    for (unsigned t = 0; t < threads; ++t) {
      total += macs[t];
      if (cpu[t] > 0) best.cpu = std::max(best.cpu, macs[t] / cpu[t]);
    }
    best.wall = std::max(best.wall, total / s);
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  const unsigned threads = argc > 1 ? static_cast<unsigned>(std::atoi(argv[1])) : 1;
  using hifsim::dp::CpuVariant;
  struct Ceiling {
    const char* name;
    const char* what;
    CpuVariant needs;
    double (*fn)(long);
  };
  const Ceiling all[] = {
      {"avx512_vnni_int8", "vpdpbusd zmm: 64 int8 MACs", CpuVariant::avx512, &vnni512},
      {"avx512_fma_fp32", "vfmadd231ps zmm: 16 FP32 MACs", CpuVariant::avx512, &fma512_ps},
      {"avx512_fma_fp64", "vfmadd231pd zmm: 8 FP64 MACs", CpuVariant::avx512, &fma512_pd},
      {"avx512_vnni_int16", "vpdpwssd zmm: 32 int16 MACs", CpuVariant::avx512, &vnni512_i16},
      {"amx_int8", "tdpbsud: 16 x 16 x 64 int8 MACs", CpuVariant::amx, &amx_int8},
      {"avxvnni_int8", "vpdpbusd ymm (VEX): 32 int8 MACs", CpuVariant::avxvnni, &vnni256},
      {"avxvnni_int16", "vpdpwssd ymm (VEX): 16 int16 MACs", CpuVariant::avxvnni, &vnni256_i16},
      {"avx2_maddubs_int8", "vpmaddubsw + vpaddw ymm: 32 int8 MACs", CpuVariant::avx2, &maddubs256},
      {"avx2_madd_int16", "vpmaddwd + vpaddd ymm: 16 int16 MACs", CpuVariant::avx2, &madd256_i16},
      {"avx2_fma_fp32", "vfmadd231ps ymm: 8 FP32 MACs", CpuVariant::avx2, &fma256_ps},
      {"avx2_fma_fp64", "vfmadd231pd ymm: 4 FP64 MACs", CpuVariant::avx2, &fma256_pd},
  };
  for (const Ceiling& c : all) {
    if (!hifsim::dp::variant_runnable(c.needs)) {
      std::printf("{\"ceiling\": \"%s\", \"skipped\": \"%s\"}\n", c.name,
                  hifsim::dp::variant_unavailable_reason(c.needs).c_str());
      continue;
    }
    const Rate r = rate(c.fn, threads);
    std::printf("{\"ceiling\": \"%s\", \"what\": \"%s\", \"threads\": %u, \"macs_per_second\": %.6g, "
                "\"macs_per_cpu_second\": %.6g}\n",
                c.name, c.what, threads, r.wall, r.cpu);
    std::fflush(stdout);
  }
  return 0;
}
