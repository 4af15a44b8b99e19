// How often the GEMM kernels' exact fallback triggers on a real trace (docs/performance.md):
// every op of a captured trace (every batch element) through gemm_quantized in each format
// configuration and accumulator, counting the unit blocks the fast path could not prove and
// recomputed with the dot-product unit (GemmRunInfo::fallback_blocks), and for NVFP4/MXFP4 the
// blocks whose scales had no integer form (GemmRunInfo::slow_scale_blocks: summed in double).
//
//   build/bin/gemm_fallbacks traces/smollm2-135m [configs...]
// A config is a format name, optionally with HiF8 lanes / window: hif8:64:0, bf16:64:64:sticky.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "gemm/gemm.hpp"
#include "io/trace.hpp"
#include "util/error.hpp"
#include "util/text.hpp"

using namespace hifsim;

namespace {
dp::GemmSpec parse_config(const std::string& c) {
  const std::vector<std::string> p = split_list(c, ':');
  dp::GemmSpec s;
  const auto f = fmt::parse_format(p[0]);
  if (!f) throw Error("config", c, "unknown format");
  s.format = *f;
  if (p.size() > 1) s.hif8_lanes = std::atoi(p[1].c_str());
  if (p.size() > 2) {
    s.align.width = std::atoi(p[2].c_str());
    s.align.policy = p.size() > 3 && p[3] == "sticky" ? dp::AlignPolicy::sticky : dp::AlignPolicy::trunc;
    s.align_set = true;
  }
  dp::validate(s);
  return s;
}
}  // namespace

int main(int argc, char** argv) try {
  if (argc < 2) {
    std::fprintf(stderr, "usage: gemm_fallbacks TRACE_DIR [format[:lanes[:width[:trunc|sticky]]] ...]\n");
    return 2;
  }
  std::vector<std::string> configs(argv + 2, argv + argc);
  if (configs.empty())
    configs = {"hif4", "nvfp4", "mxfp4", "mxfp8-e4m3", "mxfp8-e5m2", "fp8-e4m3", "fp8-e5m2", "hif8:64:0", "hif8:32:0",
               "hif8:16:0", "hif8:64:24:trunc", "hif8:64:64:sticky", "bf16", "bf16:64:0"};
  const io::Trace t = io::read_trace(argv[1]);
  std::printf("trace %s: %zu ops; kernel %s\n", t.manifest.c_str(), t.ops.size(),
              dp::resolved_kernel(dp::GemmSpec{}).c_str());
  // slow: blocks an integer kernel left to a slower exact path (NVFP4/MXFP4: the double sum; MXFP8/
  // FP8/HiF8: scalar int64/128-bit code); int16/gemms: GEMMs the fp family's int16 kernel ran (the
  // rest took the double kernel); wide: their operand blocks without an int16 form.
  std::printf("%-20s %-8s %14s %12s %10s %12s %15s %10s  %s\n", "config", "acc", "unit blocks", "fallbacks", "rate", "slow",
              "int16/gemms", "wide", "ops with fallbacks");
  // Operands are loaded once and reused by every configuration.
  struct Op {
    std::string name;
    std::vector<io::Operand> a, b;
  };
  std::vector<Op> ops;
  for (const io::TraceOp& op : t.ops) {
    Op o;
    o.name = op.name;
    for (uint64_t bi = 0; bi < op.batch; ++bi) {
      o.a.push_back(io::load_operand(t, op, "a", bi));
      o.b.push_back(io::load_operand(t, op, "b", bi));
    }
    ops.push_back(std::move(o));
  }
  for (const std::string& c : configs) {
    for (const char* acc : {"fp32", "kulisch"}) {
      dp::GemmSpec s = parse_config(c);
      s.acc = dp::AccSpec::parse(acc);
      uint64_t blocks = 0, fallbacks = 0, slow = 0, fpi_gemms = 0, wide = 0, gemms = 0;
      std::string where;
      for (const Op& o : ops) {
        uint64_t op_fb = 0;
        for (size_t bi = 0; bi < o.a.size(); ++bi) {
          const auto& a = o.a[bi];
          const auto& b = o.b[bi];
          const fmt::QTensor qa = dp::quantize_operand(a.data.data(), a.rows, a.cols, s);
          const fmt::QTensor qb = dp::quantize_operand(b.data.data(), b.rows, b.cols, s);
          dp::GemmRunInfo info;
          dp::gemm_quantized(qa, qb, s, &info);
          blocks += info.unit_blocks;
          op_fb += info.fallback_blocks;
          slow += info.slow_scale_blocks;
          fpi_gemms += info.fp_integer;
          wide += info.fpi_wide_blocks;
          ++gemms;
        }
        fallbacks += op_fb;
        if (op_fb) where += (where.empty() ? "" : ", ") + o.name + " (" + std::to_string(op_fb) + ")";
      }
      std::printf("%-20s %-8s %14llu %12llu %9.2e %12llu %7llu/%-7llu %10llu  %s\n", c.c_str(), acc,
                  static_cast<unsigned long long>(blocks), static_cast<unsigned long long>(fallbacks),
                  blocks ? static_cast<double>(fallbacks) / blocks : 0.0, static_cast<unsigned long long>(slow),
                  static_cast<unsigned long long>(fpi_gemms), static_cast<unsigned long long>(gemms),
                  static_cast<unsigned long long>(wide), where.empty() ? "-" : where.c_str());
      std::fflush(stdout);
    }
  }
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "gemm_fallbacks: %s\n", e.what());
  return 1;
}
