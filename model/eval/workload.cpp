#include "eval/workload.hpp"

#include <algorithm>
#include <cstdlib>
#include <numeric>

#include "util/checked.hpp"
#include "util/error.hpp"
#include "util/memory.hpp"
#include "util/rng.hpp"
#include "util/text.hpp"

namespace hifsim::eval {
namespace {

double macs(const perf::Job& j) {
  return static_cast<double>(j.M) * static_cast<double>(j.N) * static_cast<double>(j.K) * static_cast<double>(j.instances);
}

uint64_t instances_per_batch(const Workload& w, const io::TraceOp& op) { return w.one_layer ? 1 : op.repeat; }

perf::Job shaped_job(const std::string& name, uint64_t M, uint64_t N, uint64_t K) {
  perf::Job j;
  j.name = name;
  j.M = M;
  j.N = N;
  j.K = K;
  return j;
}

void store(OperandStore& keep, std::vector<float> v) { keep.push_back(std::move(v)); }

// Seeded normal operand number `stream` of `hifsim run` (A = 0, B = 1).
std::vector<float> seeded_operand(uint64_t rows, uint64_t cols, uint64_t seed, uint64_t stream) {
  return normal_values(rows * cols, SplitMix64(mix64(seed) ^ mix64(stream + 17)));
}

// Bytes of float32 matrices of rows x cols each (UINT64_MAX when that overflows).
uint64_t f32_bytes(std::initializer_list<std::pair<uint64_t, uint64_t>> mats) {
  uint64_t total = 0, m = 0;
  for (const auto& [r, c] : mats)
    if (!mul_u64(r, c, m) || !mul_u64(m, 4, m) || !add_u64(total, m, total)) return UINT64_MAX;
  return total;
}

// The single GEMM's operands: from the files (their shapes set M, N, K or must match them),
// else seeded normal values (streams 0 and 1 of the workload's seed).
void load_gemm_operands(Workload& w, OperandStore& keep) {
  if (w.a_file.empty()) {
    require_memory(f32_bytes({{w.M, w.K}, {w.N, w.K}, {w.M, w.N}}), w.source(), "values",
                   "computing values (A, B and C as float32)", "timing-only runs need no values");
    store(keep, seeded_operand(w.M, w.K, w.seed, 0));
    store(keep, seeded_operand(w.N, w.K, w.seed, 1));
    return;
  }
  io::NpyArray A = w.a_values ? *w.a_values : read_matrix(w.a_file, "A");
  io::NpyArray B = w.b_values ? *w.b_values : read_matrix(w.b_file, "B");
  if (w.M == 0) {
    if (A.shape[1] != B.shape[1]) throw Error(w.b_file, "shape", "K differs from A's");
    w.M = A.shape[0], w.N = B.shape[0], w.K = A.shape[1];
  }
  if (A.shape[0] != w.M || A.shape[1] != w.K)
    throw Error(w.a_file, "shape", io::shape_str(A.shape) + " is not M x K = " + std::to_string(w.M) + " x " + std::to_string(w.K));
  if (B.shape[0] != w.N || B.shape[1] != w.K)
    throw Error(w.b_file, "shape", io::shape_str(B.shape) + " is not N x K = " + std::to_string(w.N) + " x " + std::to_string(w.K));
  require_memory(f32_bytes({{w.M, w.K}, {w.N, w.K}, {w.M, w.N}}), w.source(), "values", "computing values (A, B and C as float32)",
                 "timing-only runs need no values");
  store(keep, std::move(A.f32));
  store(keep, std::move(B.f32));
}

cost::OperandSet seeded_set(const perf::Job& j, uint64_t seed, uint64_t stream, OperandStore& keep) {
  cost::OperandSet s;
  s.name = j.name + " (seeded normal values)";
  s.M = std::min<uint64_t>(j.M, 64), s.N = std::min<uint64_t>(j.N, 64), s.K = j.K;
  s.weight = macs(j);
  require_memory(f32_bytes({{s.M, s.K}, {s.N, s.K}}), j.name, "K", "the activity sample (64 rows of A and B)");
  store(keep, cost::random_operands(s.M, j.K, seed, 2 * stream));
  store(keep, cost::random_operands(s.N, j.K, seed, 2 * stream + 1));
  s.A = keep[keep.size() - 2].data(), s.B = keep.back().data();
  return s;
}

}  // namespace

std::string Workload::source() const {
  if (trace) return "trace " + trace->manifest;
  return "gemm " + std::to_string(M) + "," + std::to_string(N) + "," + std::to_string(K);
}

void parse_gemm_shape(const std::string& text, Workload& w, const std::string& option) {
  const auto d = split_list(text, ',');
  if (d.size() != 3) throw Error("command line", option, "'" + text + "': expected M,N,K");
  uint64_t dims[3];
  for (size_t i = 0; i < 3; ++i)
    if (!parse_u64(d[i], dims[i]) || dims[i] == 0 || dims[i] > (uint64_t{1} << 31))
      throw Error("command line", option, "'" + text + "': M, N, K must be integers in [1, 2^31]");
  io::checked_op_macs(dims[0], dims[1], dims[2], 1, "command line", option + " " + text);  // the trace limit, 2^60
  w.M = dims[0], w.N = dims[1], w.K = dims[2];
}

void select_ops(io::Trace& t, const std::vector<std::string>& names) {
  if (names.empty()) return;
  for (const std::string& n : names)
    if (std::none_of(t.ops.begin(), t.ops.end(), [&](const io::TraceOp& op) { return op.name == n; }))
      throw Error(t.manifest, "ops", "no op named '" + n + "' (--ops)");
  std::vector<io::TraceOp> kept;
  for (const io::TraceOp& op : t.ops)
    if (std::find(names.begin(), names.end(), op.name) != names.end()) kept.push_back(op);
  t.ops = kept;
}

size_t keep_ops_of_kind(io::Trace& t, const std::vector<std::string>& kinds) {
  std::vector<io::TraceOp> kept;
  for (const io::TraceOp& op : t.ops)
    if (std::find(kinds.begin(), kinds.end(), op.op) != kinds.end() ||
        std::find(kinds.begin(), kinds.end(), op.kind) != kinds.end() ||
        std::find(kinds.begin(), kinds.end(), op.name) != kinds.end())
      kept.push_back(op);
  t.ops = kept;
  return kept.size();
}

namespace {
void require_2d(const std::vector<size_t>& shape, const std::string& path, const char* what) {
  if (shape.size() != 2) throw Error(path, "shape", std::string(what) + " must be 2-D, got " + io::shape_str(shape));
}
}  // namespace

io::NpyArray read_matrix(const std::string& path, const char* what) {
  io::NpyArray a = io::read_npy_f32(path);
  require_2d(a.shape, path, what);
  return a;
}

io::NpyF32 read_matrix_uninit(const std::string& path, const char* what, UninitBuffer<float> storage) {
  io::NpyF32 a = io::read_npy_f32_uninit(path, std::move(storage));
  require_2d(a.shape, path, what);
  return a;
}

std::vector<perf::Job> timing_jobs(const Workload& w, bool each_instance) {
  std::vector<perf::Job> jobs;
  if (!w.trace) {
    jobs.push_back(shaped_job("gemm", w.M, w.N, w.K));
    return jobs;
  }
  uint64_t listed = 0;
  for (const io::TraceOp& op : w.trace->ops) {
    perf::Job j = shaped_job(op.name, op.M, op.N, op.K);
    const uint64_t inst = op.batch * instances_per_batch(w, op);  // each < 2^31: no overflow
    if (each_instance && (listed += inst) > kMaxInstanceJobs)
      throw Error(w.trace->manifest, "ops", "simulating every instance would take " + std::to_string(listed) +
                                                "+ jobs, above the limit of " + std::to_string(kMaxInstanceJobs) +
                                                " (without it, identical instances are simulated once and counted)");
    if (!each_instance) {
      j.instances = inst;
      jobs.push_back(j);
      continue;
    }
    for (uint64_t i = 0; i < inst; ++i) {
      j.name = op.name + "#" + std::to_string(i);
      jobs.push_back(j);
    }
  }
  if (jobs.empty()) throw Error(w.trace->manifest, "ops", "nothing to run");
  return jobs;
}

std::vector<perf::Job> value_jobs(Workload& w, OperandStore& keep) {
  std::vector<perf::Job> jobs;
  if (!w.trace) {
    load_gemm_operands(w, keep);
    perf::Job j = shaped_job("gemm", w.M, w.N, w.K);
    j.values = true;
    j.A = keep[keep.size() - 2].data();
    j.B = keep.back().data();
    jobs.push_back(j);
    return jobs;
  }
  const io::Trace& t = *w.trace;
  for (const io::TraceOp& op : t.ops) {
    for (uint64_t bi = 0; bi < op.batch; ++bi) {
      io::Operand a = io::load_operand(t, op, "a", bi), b = io::load_operand(t, op, "b", bi);
      perf::Job j = shaped_job(op.batch > 1 ? op.name + "[" + std::to_string(bi) + "]" : op.name, op.M, op.N, op.K);
      j.values = true;
      j.instances = instances_per_batch(w, op);
      store(keep, std::move(a.data));
      store(keep, std::move(b.data));
      j.A = keep[keep.size() - 2].data();
      j.B = keep.back().data();
      jobs.push_back(j);
    }
  }
  if (jobs.empty()) throw Error(t.manifest, "ops", "nothing to run");
  return jobs;
}

cost::OperandSet trace_operand_set(const io::Trace& t, const io::TraceOp& op, double weight, OperandStore& keep,
                                   OperandCache* cache) {
  cost::OperandSet s;
  s.name = op.name;
  s.weight = weight;
  if (cache) {
    const io::Operand& a = cache->get(op, "a", 0);
    const io::Operand& b = cache->get(op, "b", 0);
    s.M = a.rows, s.N = b.rows, s.K = a.cols;
    s.A = a.data.data(), s.B = b.data.data();
    return s;
  }
  io::Operand a = io::load_operand(t, op, "a", 0), b = io::load_operand(t, op, "b", 0);
  s.M = a.rows, s.N = b.rows, s.K = a.cols;
  store(keep, std::move(a.data));
  store(keep, std::move(b.data));
  s.A = keep[keep.size() - 2].data(), s.B = keep.back().data();
  return s;
}

std::vector<cost::OperandSet> activity_sets(const std::vector<perf::Job>& jobs, const io::Trace* trace,
                                            const ActivitySampling& o, OperandStore& keep, OperandCache* cache) {
  std::vector<cost::OperandSet> sets;
  for (const perf::Job& j : jobs) {
    if (!j.A || !j.B) continue;
    cost::OperandSet s;
    s.name = j.name;
    s.M = j.M, s.N = j.N, s.K = j.K;
    s.A = j.A, s.B = j.B;
    s.weight = macs(j);
    sets.push_back(s);
  }
  if (!sets.empty()) return sets;
  const bool captured = trace && !trace->shape_only();
  if (captured && trace->ops.size() != jobs.size())
    throw Error(trace->manifest, "ops", "activity: the jobs are not one per op");  // a caller's bug
  std::vector<size_t> order(jobs.size());
  std::iota(order.begin(), order.end(), size_t{0});
  if (captured && o.largest_first)
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return macs(jobs[a]) > macs(jobs[b]); });
  if (order.size() > o.max_ops) order.resize(o.max_ops);
  for (size_t k = 0; k < order.size(); ++k) {
    const perf::Job& j = jobs[order[k]];
    if (captured && trace->ops[order[k]].a && trace->ops[order[k]].b)
      sets.push_back(trace_operand_set(*trace, trace->ops[order[k]], macs(j), keep, cache));
    else
      sets.push_back(seeded_set(j, o.seed, k, keep));
  }
  return sets;
}

bool seeded_sets(const std::vector<cost::OperandSet>& sets) {
  for (const auto& s : sets)
    if (s.name.find("(seeded normal values)") != std::string::npos) return true;
  return false;
}

}  // namespace hifsim::eval
