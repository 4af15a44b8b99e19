// Running a list of GEMMs on one matrix unit: the host side shared by the plain engine and the
// SystemC/TLM model (model/tlm/run_tlm.hpp). The host quantizes the operands (or keeps them in
// high precision for the on-line quantizer), writes them into memory, programs one command per
// GEMM, waits for completion, reads C back and checksums it.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "config/unit_config.hpp"
#include "perf/report.hpp"
#include "perf/values.hpp"

namespace hifsim::perf {

struct Job {
  std::string name = "gemm";
  uint64_t M = 0, N = 0, K = 0;
  uint64_t instances = 1;          // identical GEMMs this job stands for (timing-only: simulated once)
  const float* A = nullptr;        // M x K, row-major (values mode)
  const float* B = nullptr;        // N x K
  bool values = false;
  bool keep_result = false;        // return C
};

struct JobResult {
  RunReport report;
  std::vector<float> C;            // M x N when keep_result
};

struct RunOptions {
  unsigned threads = 0;                                  // value engine threads (0 = all)
  std::function<void(const std::string&)> progress;      // optional progress lines (one per job)
  std::function<void(uint64_t, uint64_t)> step_progress; // optional: steps done / steps of the job
};

// Memory layout of one job (addresses in bytes; each region 4 KiB aligned).
struct JobLayout {
  uint64_t a = 0, b = 0, r = 0, c = 0, end = 0;
};
JobLayout layout_job(const cfg::UnitConfig& u, uint64_t M, uint64_t N, uint64_t K);

// The register values of a job (command) from its prepared operands.
GemmCommand make_command(const Job& j, const JobLayout& l, const HostOperands* ops);

// Runs the jobs one after the other on the plain (non-SystemC) engine.
std::vector<JobResult> run_plain(const cfg::UnitConfig& u, const std::vector<Job>& jobs, const RunOptions& o = {});

}  // namespace hifsim::perf
