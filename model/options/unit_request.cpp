#include "options/unit_request.hpp"

#include "io/trace.hpp"
#include "util/error.hpp"

namespace hifsim::opt {
namespace {
constexpr long long kMaxDim = 1LL << 31;
constexpr long long kMinSample = 16, kMaxSample = 100000000;  // 10^8 dot operations: minutes, not years

std::array<uint64_t, 3> gemm_shape(const Value& v) {
  const std::vector<Value> d = v.list();
  if (d.size() != 3) v.fail("'" + v.shown() + "': expected M,N,K (three integers)");
  std::array<uint64_t, 3> s{};
  for (size_t i = 0; i < 3; ++i) s[i] = static_cast<uint64_t>(d[i].integer(1, kMaxDim));
  io::checked_op_macs(s[0], s[1], s[2], 1, v.where(), v.field() + " " + v.shown());  // the trace limit, 2^60
  return s;
}
}  // namespace

const Options<WorkloadOptions>& workload_options() {
  using W = WorkloadOptions;
  static const Options<W> rows = {
      {"gemm", "M,N,K", "one GEMM C = A*B^T (A M x K, B N x K)", std::nullopt,
       [](W& w, const Value& v) { w.gemm = gemm_shape(v); }},
      {"ops", "NAMES", "trace: only these op names (comma-separated)", std::nullopt,
       [](W& w, const Value& v) {
         w.ops.clear();
         for (const Value& x : v.list()) w.ops.push_back(x.text());
       }},
      {"one-layer", "", "trace: one decoder layer (ignore each op's repeat)", std::nullopt,
       [](W& w, const Value& v) { w.one_layer = v.flag(); }},
      {"seed", "S", "seed of the random operands and of the sampled outputs", "1", [](W& w, const Value& v) { w.seed = v.u64(); }},
  };
  return rows;
}

eval::Workload workload(const WorkloadOptions& o, const std::string& trace, const Spelling& s) {
  eval::Workload w;
  w.seed = o.seed;
  if (!trace.empty()) {
    if (o.gemm) throw Error(s.where, s.fields("gemm", "trace"), "give at most one of them");
    w.trace = io::read_trace(trace);
    w.one_layer = o.one_layer;
    if (!o.ops.empty()) eval::select_ops(*w.trace, o.ops);
    return w;
  }
  if (!o.ops.empty()) throw Error(s.where, s.field("ops"), "only with a trace");
  if (o.gemm) w.M = (*o.gemm)[0], w.N = (*o.gemm)[1], w.K = (*o.gemm)[2];
  return w;
}

const Options<CostOptions>& cost_options() {
  using C = CostOptions;
  static const Options<C> rows = {
      {"sample", "N", "dot operations whose activity is measured (split over the ops by MACs; at most the workload's)", "4096",
       [](C& c, const Value& v) { c.sample = static_cast<size_t>(v.integer(kMinSample, kMaxSample)); }},
      {"node", "NODE", "technology node of the energy/SRAM tables (energy-NODE.yaml)", "45nm",
       [](C& c, const Value& v) {
         c.node = v.text();
         if (c.node.empty() || c.node.find('/') != std::string::npos) v.fail("'" + c.node + "' is not a node name");
       }},
      {"tables", "DIR", "coefficient tables (default: configs/cost of the installation, or $HIFSIM_COST_TABLES)", std::nullopt,
       [](C& c, const Value& v) { c.tables = v.text(); }},
      {"formats", "F,...", "--compare-units: formats", "hif4,nvfp4,mxfp4,hif8,bf16",
       [](C& c, const Value& v) {
         c.formats.clear();
         for (const Value& x : v.list()) {
           const std::string name = x.text();
           const auto f = fmt::parse_format(name);
           if (!f || !fmt::format_info(*f).tensor)
             v.fail("'" + name + "': unknown tensor format; choose from " + fmt::tensor_format_names());
           c.formats.push_back(*f);
         }
         if (c.formats.empty()) v.fail("no format given");
       }},
  };
  return rows;
}

const Options<RunOptions>& run_options() {
  using R = RunOptions;
  static const Options<R> rows = {
      {"threads", "N", "threads of the value engine (0 = all; results do not depend on it)", "0",
       [](R& r, const Value& v) { r.threads = static_cast<unsigned>(v.integer(0, 1024)); }},
      {"cost-sample", "N", "dot operations whose switching activity the cost model measures (at most the workload's)", "2048",
       [](R& r, const Value& v) { r.cost_sample = static_cast<size_t>(v.integer(kMinSample, kMaxSample)); }},
      {"cost-tables", "DIR", "cost coefficient tables (default configs/cost, or $HIFSIM_COST_TABLES)", std::nullopt,
       [](R& r, const Value& v) { r.cost_tables = v.text(); }},
  };
  return rows;
}

eval::RunRequest run_request(const WorkloadOptions& w, const RunOptions& o, const std::string& trace, const Spelling& s) {
  if (!w.gemm == trace.empty()) throw Error(s.where, s.fields("gemm", "trace"), "give exactly one of them");
  eval::RunRequest r;
  r.workload = workload(w, trace, s);
  r.run.threads = o.threads;
  r.cost_options.cost_tables = o.cost_tables;
  r.cost_options.activity_sample = o.cost_sample;
  r.cost_options.seed = w.seed;
  return r;
}

}  // namespace hifsim::opt
