// What hifsim runs on a matrix unit -- one GEMM (operands from .npy files or seeded normal
// values) or every op of a trace -- and the two things built from it: the jobs of the timing
// core and value engine (model/perf), and the operand sets whose switching activity feeds the
// energy model (model/cost). One version, used by `hifsim run`, `cost`, `compare` and `sweep`.
#pragma once
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "cost/cost.hpp"
#include "io/npy.hpp"
#include "eval/operand_cache.hpp"
#include "io/trace.hpp"
#include "perf/runner.hpp"

namespace hifsim::eval {

struct Workload {
  std::optional<io::Trace> trace;  // every op; instances = batch x repeat
  bool one_layer = false;          // trace: one decoder layer (each op's repeat counted once)
  uint64_t M = 0, N = 0, K = 0;    // the single GEMM when there is no trace (0: from the files)
  std::string a_file, b_file;      // its operands, float32 .npy M x K and N x K (empty: seeded)
  // Operands given in memory (the Python package): used instead of reading a_file/b_file, which
  // then only name them in messages and results ("argument a").
  std::optional<io::NpyArray> a_values, b_values;
  uint64_t seed = 1;               // seeded normal operands
  bool empty() const { return !trace && M == 0 && a_file.empty(); }
  // "trace <manifest>" or "gemm M,N,K" (result files name their workload with it).
  std::string source() const;
};

// "M,N,K", each an integer in [1, 2^31]; an error names `option` and the text.
void parse_gemm_shape(const std::string& text, Workload& w, const std::string& option = "--gemm");
// Keeps the trace ops named in `names`, in trace order; an unknown name is an error naming the
// trace and `ops`.
void select_ops(io::Trace& t, const std::vector<std::string>& names);
// Keeps the trace ops whose kind (q_proj, ...) or name is in `kinds`, in trace order; returns
// how many are left (the caller names the option when none is).
size_t keep_ops_of_kind(io::Trace& t, const std::vector<std::string>& kinds);
// A float32 .npy that must be 2-D; `what` names the operand in the error.
io::NpyArray read_matrix(const std::string& path, const char* what);
// The same into uninitialized storage (io::read_npy_f32_uninit; `storage` reused when it fits).
io::NpyF32 read_matrix_uninit(const std::string& path, const char* what, UninitBuffer<float> storage = {});

// Storage of the operand values jobs and operand sets point into (moving it keeps them valid).
using OperandStore = std::vector<std::vector<float>>;

// Timing-only jobs: one per trace op (instances = batch x repeat) or the GEMM; with
// `each_instance`, one job per instance ("op#i", for runs that simulate every one), at most
// kMaxInstanceJobs of them: a trace with batch 2^31 - 1 would otherwise list 2^31 jobs until
// memory ran out, and even 10^5 TLM simulations of one shape take hours.
inline constexpr uint64_t kMaxInstanceJobs = 100000;
std::vector<perf::Job> timing_jobs(const Workload& w, bool each_instance = false);
// Jobs with operand values: the GEMM's operands (read from a_file/b_file, whose shapes set or
// must match M, N, K; else seeded normal values), or each trace op's captured A and B, one job
// per batch index ("op[b]" when batch > 1; instances = repeat).
std::vector<perf::Job> value_jobs(Workload& w, OperandStore& keep);

// One op's captured A and B (batch 0) as an activity operand set: read into `keep`, or taken
// from `cache` when given (then the set points into the cache, which must outlive it).
cost::OperandSet trace_operand_set(const io::Trace& t, const io::TraceOp& op, double weight, OperandStore& keep,
                                   OperandCache* cache = nullptr);

// Which operands the energy model measures: jobs with values give their own; else a captured
// trace's tensors (jobs are then one per op, in trace order); else seeded normal values shaped
// like the jobs (at most 64 rows each). Each set weighs its MACs (M x N x K x instances).
struct ActivitySampling {
  size_t max_ops = 6;          // at most this many ops or jobs feed the activity
  bool largest_first = true;   // captured traces: the ops with the most MACs first (else trace order)
  uint64_t seed = 1;           // seeded normal values
};
std::vector<cost::OperandSet> activity_sets(const std::vector<perf::Job>& jobs, const io::Trace* trace,
                                            const ActivitySampling& s, OperandStore& keep, OperandCache* cache = nullptr);
// True when the sets were made up of seeded values (no operand data).
bool seeded_sets(const std::vector<cost::OperandSet>& sets);

}  // namespace hifsim::eval
