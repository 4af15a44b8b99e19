// Thread scaling of the GEMM engine, robust to other jobs on the machine: for one format and
// shape, runs the engine (operands quantized once, outside) `reps` times with the given thread
// count, each time into a freshly allocated result, and prints one JSON line per thread count:
// the wall time, the process CPU time (user + system) per run, the phases' wall times, the CPU time
// on the critical path (GemmRunInfo, gemm/gemm_cpu_path.hpp) including the result's
// allocation. 1-thread CPU time / 2-thread critical path = the speed-up 2 idle cores give,
// measured while other jobs run (docs/performance.md, "Thread scaling").
//   gemm_scaling FORMAT M N K THREADS[,THREADS...] [REPS] [vector]
// Several thread counts take turns run by run; each line reports medians over the REPS runs.
// `vector`: the result is gemm_quantized's zero-filled std::vector (filled by this thread), as
// before the engine wrote into uninitialized buffers; default: a Buffer (gemm_buffer.hpp).
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "formats/format.hpp"
#include "gemm/gemm.hpp"
#include "gemm/gemm_buffer.hpp"
#include "gemm/gemm_cpu_path.hpp"
#include "util/gaussian.hpp"

using namespace hifsim;

namespace {
double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         1e-6 * static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

struct Run {
  double wall = 0, output = 0, critical = 0, serial = 0;
  dp::GemmRunInfo info;
};

// One GEMM into a new result; `output` and the critical path include the allocation.
Run run_once(const fmt::QTensor& qa, const fmt::QTensor& qb, const dp::GemmSpec& s, bool vector) {
  Run r;
  const auto t0 = std::chrono::steady_clock::now();
  const double c0 = dp::thread_cpu_seconds();
  const size_t n = qa.rows * qb.rows;
  if (vector) {
    std::vector<float> C(n, 0.0f);
    r.output = dp::thread_cpu_seconds() - c0;
    dp::gemm_quantized_into(qa, qb, s, C.data(), &r.info);
  } else {
    dp::Buffer<float> C;
    C.resize(n);
    r.output = dp::thread_cpu_seconds() - c0;
    dp::gemm_quantized_into(qa, qb, s, C.data(), &r.info);
  }
  r.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.critical = r.output + r.info.critical_cpu_seconds;
  r.serial = r.critical - r.info.worker_cpu_seconds;
  return r;
}
}  // namespace

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

int main(int argc, char** argv) {
  if (argc < 6) {
    std::fprintf(stderr, "usage: gemm_scaling FORMAT M N K THREADS[,THREADS...] [REPS] [vector]\n");
    return 2;
  }
  dp::GemmSpec s;
  const auto f = fmt::parse_format(argv[1]);
  if (!f) {
    std::fprintf(stderr, "gemm_scaling: unknown format %s\n", argv[1]);
    return 2;
  }
  s.format = *f;
  const size_t M = std::stoul(argv[2]), N = std::stoul(argv[3]), K = std::stoul(argv[4]);
  std::vector<unsigned> counts;
  for (const char* p = argv[5]; *p;) {
    char* end = nullptr;
    counts.push_back(static_cast<unsigned>(std::strtoul(p, &end, 10)));
    p = *end == ',' ? end + 1 : end;
    if (p == end && *end) return 2;
  }
  const int reps = argc > 6 ? std::stoi(argv[6]) : 5;
  const bool vector = argc > 7 && std::strcmp(argv[7], "vector") == 0;
  const auto A = gaussian(M * K, 1), B = gaussian(N * K, 2);
  const auto qa = dp::quantize_operand(A.data(), M, K, s), qb = dp::quantize_operand(B.data(), N, K, s);
  run_once(qa, qb, s, vector);  // warm-up
  // The thread counts take turns, so a change of load hits all of them alike.
  std::vector<std::vector<Run>> runs(counts.size());
  std::vector<double> cpu(counts.size(), 0.0);
  for (int i = 0; i < reps; ++i)
    for (size_t c = 0; c < counts.size(); ++c) {
      s.threads = counts[c];
      const double c0 = cpu_seconds();
      runs[c].push_back(run_once(qa, qb, s, vector));
      cpu[c] += cpu_seconds() - c0;
    }
  for (size_t c = 0; c < counts.size(); ++c) {
    std::vector<double> wall, crit, serial, pack, tiles;
    for (const Run& r : runs[c]) {
      wall.push_back(r.wall);
      crit.push_back(r.critical);
      serial.push_back(r.serial);
      pack.push_back(r.info.pack_seconds);
      tiles.push_back(r.info.tiles_seconds);
    }
    std::printf("{\"format\":\"%s\",\"M\":%zu,\"N\":%zu,\"K\":%zu,\"threads\":%u,\"kernel\":\"%s\",\"output\":\"%s\","
                "\"reps\":%d,\"best_wall_s\":%.6f,\"median_wall_s\":%.6f,\"median_pack_s\":%.6f,\"median_tiles_s\":%.6f,"
                "\"cpu_s_per_run\":%.6f,\"median_critical_cpu_s\":%.6f,\"median_serial_cpu_s\":%.6f}\n",
                argv[1], M, N, K, counts[c], runs[c][0].info.kernel.c_str(), vector ? "vector" : "buffer", reps,
                *std::min_element(wall.begin(), wall.end()), median(wall), median(pack), median(tiles), cpu[c] / reps,
                median(crit), median(serial));
  }
  return 0;
}
