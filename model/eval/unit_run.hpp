// `hifsim run` as one call: a workload's jobs (with operand values unless timing only) through
// a matrix-unit engine, the totals, the checksum of the results and the cost section; and the
// result files it writes (schema hifsim-run/1, docs/tlm.md). The engine is passed in -- the
// SystemC/TLM model or the plain timing core, which give the same numbers -- so model/eval
// stays free of SystemC.
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "eval/unit_eval.hpp"
#include "eval/workload.hpp"

namespace hifsim::eval {

using Engine = std::function<std::vector<perf::JobResult>(const cfg::UnitConfig&, const std::vector<perf::Job>&,
                                                          const perf::RunOptions&)>;

struct RunRequest {
  Workload workload;
  bool values = true;            // compute values (checksum); shape-only traces never do
  bool each_instance = false;    // timing only: one job per batch x repeat instance
  bool keep_result = false;      // return C of the single GEMM
  perf::RunOptions run;          // value-engine threads, progress callbacks
  bool cost = true;              // the cost section (area, energy, power, EDP)
  UnitEvalOptions cost_options;  // tables, activity sample, seed (every job feeds the activity)
};

struct RunOutcome {
  bool values = false;                 // values were computed
  std::vector<perf::RunReport> reports;
  perf::Totals totals;
  uint64_t simulated_cycles = 0;       // cycles of the jobs simulated (not multiplied by instances)
  std::string checksum;                // of every job's results ("" when timing only)
  std::optional<cost::CostReport> cost;
  std::string cost_unsupported;        // why there is no cost section
  std::vector<float> C;                // keep_result: M x N
  double wall_seconds = 0;             // the engine's run
};

// Whether a request computes values (false for timing-only runs and shape-only traces).
bool computes_values(const RunRequest& r);
// Runs the request on unit u (the workload of a GEMM with operand files takes its shape from them).
RunOutcome run_unit(const cfg::UnitConfig& u, RunRequest& r, const Engine& engine);

// result.json (hifsim-run/1): unit, config fields, totals, stalls, bytes, actions, every GEMM,
// the run's speed and the cost section. `config` and `engine` are recorded as given.
std::string run_result_json(const cfg::UnitConfig& u, const RunRequest& r, const RunOutcome& o, const std::string& config,
                            const std::string& engine);
// result.csv: one line per GEMM and a TOTAL line (every instance counted).
std::string run_result_csv(const cfg::UnitConfig& u, const RunOutcome& o);
// One line for the terminal: cycles, utilization, stalls, checksum, speed.
std::string run_summary(const cfg::UnitConfig& u, const RunOutcome& o, const std::string& engine);

}  // namespace hifsim::eval
