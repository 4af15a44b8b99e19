#include "eval/training_step.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>

#include "eval/trace_accuracy.hpp"
#include "perf/operand_pass.hpp"
#include "perf/rtl_calibration.hpp"
#include "perf/tiling.hpp"
#include "train/attention_gemms.hpp"
#include "util/error.hpp"
#include "util/json.hpp"
#include "util/text.hpp"

namespace hifsim::eval {
namespace {

enum Kind : size_t { k_fprop, k_dgrad, k_wgrad, k_attn_fwd, k_attn_bwd, k_quantize, k_rht, k_transpose, k_count };

// How one trace op runs under the recipe.
struct OpPlan {
  fmt::Format format = fmt::Format::bf16;  // the unit format timing it
  bool fp32 = false;                       // an FP32 GEMM of the recipe, timed on BF16
  bool sr[2] = {false, false};             // stochastic rounding of A, B
  bool transposed[2] = {false, false};     // A, B read column-wise
  bool pass[2] = {true, true};             // A, B need a pass
  int rht = 0;
  Kind kind = k_fprop;
};

Kind gemm_kind(const io::Trace& t, const io::TraceOp& op) {
  for (size_t k = 0; k < k_quantize; ++k)  // the GEMM kinds come first in step_kinds()
    if (op.kind == step_kinds()[k]) return static_cast<Kind>(k);
  throw Error(t.manifest, op.name + ".kind", "'" + op.kind + "' is not a training-step op kind");
}

// Which operands the GEMM reads column-wise when the trace does not say (shape-only traces): the
// layout of the captured training traces (docs/traces.md), by kind and op.
void default_transposes(const io::TraceOp& op, Kind k, bool out[2]) {
  out[0] = k == k_wgrad || op.op == "attn_dv" || op.op == "attn_dk";
  out[1] = k == k_dgrad || k == k_wgrad || op.op == "attn_pv" || op.op == "attn_dv" || op.op == "attn_dq" ||
           op.op == "attn_dk";
}

OpPlan plan_op(const cfg::UnitConfig& u, const io::Trace& t, const io::TraceOp& op, const train::Recipe* recipe) {
  OpPlan p;
  p.kind = gemm_kind(t, op);
  default_transposes(op, p.kind, p.transposed);
  if (op.a) p.transposed[0] = op.a->transposed;
  if (op.b) p.transposed[1] = op.b->transposed;
  std::optional<fmt::Format> f = u.format;
  if (!recipe) {
    p.sr[0] = p.sr[1] = u.stochastic;
  } else if (const auto attn = train::attention_gemm_from_op(op.op)) {
    f = train::attention_format(*recipe, *attn);
  } else {
    if (p.kind > k_wgrad) throw Error(t.manifest, op.name + ".op", "'" + op.op + "' is not a linear or attention GEMM");
    const train::GemmKind gk = static_cast<train::GemmKind>(p.kind);
    if (recipe->keeps(train_layer_name(op))) {
      f = recipe->keep_format;
    } else {
      const train::KindRecipe& kr = recipe->kind(gk);
      f = kr.format;
      const bool sr = kr.rounding == train::OperandRounding::stochastic;
      const bool sr_grad = kr.gradient_rounding == train::OperandRounding::stochastic;
      // A is dY in dgrad and wgrad (the gradient), B the weight or X.
      p.sr[0] = gk == train::GemmKind::fprop ? sr : sr_grad;
      p.sr[1] = sr;
      p.rht = kr.rht;
      // 16x16 weight blocks: the weight's transpose is its fprop quantization (docs/training.md).
      if (kr.weight_blocks_2d && gk == train::GemmKind::dgrad) p.pass[1] = false;
    }
  }
  if (!f) {
    p.fp32 = true;
    f = fmt::Format::bf16;
    p.sr[0] = p.sr[1] = false;
  }
  p.format = *f;
  // A unit with the on-line quantizer reads A in high precision inside the GEMM.
  if (u.quantizer && p.format == u.format) p.pass[0] = false;
  return p;
}

std::string format_key(const OpPlan& p) {
  return std::string(fmt::format_info(p.format).name) + (p.fp32 ? " (fp32 ops)" : "");
}

void add(KindLine& a, const KindLine& b) {
  a.count += b.count;
  a.cycles += b.cycles;
  a.macs += b.macs;
  a.energy_pj += b.energy_pj;
}

// The same unit in another format: the config beside this one named for that format (the shipped
// <format>-32x32.yaml are one unit in each format, each with its format's pipeline depth), else
// this config with pe.format changed; the command's --set overrides apply either way. `source`
// says which.
cfg::UnitConfig unit_in(const cfg::UnitConfig& u, const TrainingStepRequest& r, fmt::Format f, std::string& source) {
  source = r.config;
  if (f == u.format) return u;
  const std::string own = fmt::format_info(u.format).name, other = fmt::format_info(f).name;
  const std::filesystem::path path(r.config);
  const std::string file = path.filename().string();
  if (file.rfind(own + "-", 0) == 0) {
    const std::filesystem::path sibling = path.parent_path() / (other + file.substr(own.size()));
    if (std::filesystem::is_regular_file(sibling)) {
      cfg::UnitConfig v = cfg::load_unit_config(sibling.string(), r.overrides);
      if (v.format == f) {
        source = sibling.string();
        return v;
      }
    }
  }
  std::vector<std::string> o = r.overrides;
  o.push_back("pe.format=" + other);
  source = r.config + " with pe.format=" + other;
  return cfg::load_unit_config(r.config, o);
}

// Everything of one format: its unit, its GEMM jobs (one per op, trace order) and their plans.
struct FormatGroup {
  cfg::UnitConfig unit;
  std::vector<perf::Job> jobs;
  std::vector<size_t> ops;      // trace op of each job
  std::vector<OpPlan> plans;
  FormatLine line;
};

perf::PassBlocks pass_blocks(const cfg::UnitConfig& u) {
  perf::PassBlocks b;
  b.bytes_per_cycle = u.mem_bytes_per_cycle;
  b.mem_latency = u.mem_latency;
  b.quant_elems_per_cycle = uint64_t{u.quant_blocks_per_cycle} * u.dot_width();
  b.quant_latency = u.quant_latency;
  b.rht_elems_per_cycle = u.hadamard_elems_per_cycle;
  b.rht_latency = u.hadamard_latency;
  b.transpose_tile = u.transpose_tile;
  return b;
}

// The energies per element of a format's blocks (looked up once per format and block).
struct BlockTable {
  std::map<std::string, cost::BlockEnergy> e;
  const cost::BlockEnergy& get(const cost::CostTables& t, cost::TrainingBlock b, const cost::BlockParams& p,
                               std::vector<cost::BlockEnergy>& used) {
    // Keyed on every parameter of the lookup: format groups run on different units (lanes, random
    // bits, element bytes, transpose tile), so no entry may serve a lookup it was not made with.
    const std::string key = std::string(cost::training_block_name(b)) + "/" + fmt::format_info(p.format).name + "/" +
                            std::to_string(p.lanes) + "/" + std::to_string(p.sr_bits) + "/" + std::to_string(p.rht) +
                            "/" + std::to_string(p.in_bytes) + "/" + std::to_string(p.transpose_tile);
    auto it = e.find(key);
    if (it != e.end()) return it->second;
    const cost::BlockEnergy be = cost::training_block_energy(t, b, p);
    used.push_back(be);
    return e.emplace(key, be).first->second;
  }
};

// The operand passes of every job of a format: cycles (the marginal split of perf/operand_pass.hpp)
// and energy (block energies per element, DRAM per byte) into the quantize / rht / transpose kinds.
void time_passes(FormatGroup& g, const io::Trace& t, const cost::CostTables* ct, BlockTable& bt,
                 std::vector<cost::BlockEnergy>& used) {
  const cfg::UnitConfig& u = g.unit;
  const perf::PassBlocks blocks = pass_blocks(u);
  const uint64_t W = u.dot_width();
  for (size_t j = 0; j < g.jobs.size(); ++j) {
    const io::TraceOp& op = t.ops[g.ops[j]];
    const OpPlan& p = g.plans[j];
    const uint64_t inst = g.jobs[j].instances;
    for (int s = 0; s < 2; ++s) {
      if (!p.pass[s]) continue;
      perf::OperandPass pass;
      pass.rows = s == 0 ? op.M : op.N;
      pass.k = op.K;
      pass.in_bytes = u.quant_input_bytes();
      pass.out_bytes = pass.rows * u.row_bytes(perf::ceil_div(op.K, W) * W);
      pass.rht = p.rht > 0;
      pass.transposed = p.transposed[s];
      const perf::PassTiming pt = perf::time_operand_pass(blocks, pass);
      KindLine q, h, x;
      q.count = inst;
      q.cycles = pt.quantize.scaled(inst);
      h.count = pass.rht ? inst : 0;
      h.cycles = pt.rht.scaled(inst);
      x.count = pass.transposed ? inst : 0;
      x.cycles = pt.transpose.scaled(inst);
      if (ct) {
        const double E = static_cast<double>(pass.rows * pass.k) * static_cast<double>(inst);
        const cost::BlockParams bp = training_block_params(u, p.rht, pass.in_bytes);
        const auto qb = p.sr[s] ? cost::TrainingBlock::quantize_sr : cost::TrainingBlock::quantize_rn;
        const double quantizer = E * bt.get(*ct, qb, bp, used).pj_per_element;
        const double dram = static_cast<double>(pt.read_bytes + pt.write_bytes) * static_cast<double>(inst) *
                            ct->energy.at("dram_pj_per_byte");
        q.energy_pj = quantizer + dram;
        if (pass.rht) h.energy_pj = E * bt.get(*ct, cost::TrainingBlock::hadamard, bp, used).pj_per_element;
        if (pt.transpose_buffer_bytes)
          x.energy_pj = E * bt.get(*ct, cost::TrainingBlock::transpose_buffer, bp, used).pj_per_element;
        (p.sr[s] ? g.line.split.quantize_sr : g.line.split.quantize_rn) += quantizer;
        g.line.split.dram += dram;
        g.line.split.rht += h.energy_pj;
        g.line.split.transpose_buffer += x.energy_pj;
      }
      add(g.line.kinds[k_quantize], q);
      add(g.line.kinds[k_rht], h);
      add(g.line.kinds[k_transpose], x);
    }
  }
}

// The GEMMs of a format: timed by `engine` (the unit's own format) or the plain core, their
// cycles and actions per kind, and their energy per kind at the activity of the format's ops.
void time_gemms(FormatGroup& g, const std::vector<perf::JobResult>& res, const TrainingStepRequest& r,
                const cost::CostTables* ct) {
  std::vector<perf::Actions> actions(k_count);
  for (size_t j = 0; j < res.size(); ++j) {
    const perf::RunReport& rep = res[j].report;
    KindLine& k = g.line.kinds[g.plans[j].kind];
    k.count += g.jobs[j].instances;
    k.cycles += rep.cycles.scaled(g.jobs[j].instances);
    k.macs += static_cast<double>(rep.macs) * static_cast<double>(g.jobs[j].instances);
    actions[g.plans[j].kind] += rep.actions.scaled(g.jobs[j].instances);
  }
  g.line.cost_unsupported = cost_unsupported(g.unit);
  if (!ct || !g.line.cost_unsupported.empty()) return;
  // The activity of this format's ops: their captured operands (the largest first) or seeded values.
  io::Trace sub = *r.trace;
  sub.ops.clear();
  for (size_t i : g.ops) sub.ops.push_back(r.trace->ops[i]);
  OperandStore keep;
  ActivitySampling sampling;
  sampling.max_ops = r.cost_options.activity_ops;
  sampling.seed = r.cost_options.seed;
  // A captured trace whose tensors are not on disk (traces/smollm2-135m-train is made on demand)
  // measures seeded values, as `hifsim run --timing-only` does.
  const bool tensors = !sub.shape_only() && sub.ops.front().a &&
                       std::filesystem::exists(std::filesystem::path(sub.dir) / sub.ops.front().a->file);
  const std::vector<cost::OperandSet> sets =
      activity_sets(g.jobs, tensors ? &sub : nullptr, sampling, keep, r.cost_options.operands);
  g.line.activity = tensors ? "the trace's tensors" : "seeded normal values";
  cost::ActivityOptions ao;
  ao.sample_dots = r.cost_options.activity_sample;
  ao.seed = r.cost_options.seed;
  ao.order = g.unit.dataflow;
  const cost::Activity act = cost::activity_for(g.unit, sets, ao);
  for (size_t k = 0; k < k_quantize; ++k) {
    KindLine& line = g.line.kinds[k];
    if (line.count == 0) continue;
    const cost::CostReport c =
        cost::evaluate(*ct, g.unit, actions[k], line.cycles.total, line.macs, static_cast<double>(line.count), act);
    line.energy_pj = c.total_pj;
    for (const cost::EnergyItem& e : c.energy)
      (e.group == "buffers"  ? g.line.split.sram
       : e.group == "memory" ? g.line.split.dram
       : e.name == "quantizer" ? g.line.split.quantize_rn  // the unit's on-line quantizer
                               : g.line.split.dot_units) += e.pj;
  }
}

// The GEMM results of every group: the groups in the unit's own format (its ops and its FP32 ops
// timed on BF16 PEs, when the unit is BF16) in one call of `engine` -- the SystemC model elaborates
// once per process -- and the others on the plain core.
std::vector<std::vector<perf::JobResult>> run_gemms(const std::vector<FormatGroup>& groups, const cfg::UnitConfig& u,
                                                    const TrainingStepRequest& r, const Engine& engine) {
  std::vector<std::vector<perf::JobResult>> out(groups.size());
  std::vector<perf::Job> own;
  for (size_t gi = 0; gi < groups.size(); ++gi) {
    if (groups[gi].unit.format == u.format) own.insert(own.end(), groups[gi].jobs.begin(), groups[gi].jobs.end());
    else out[gi] = perf::run_plain(groups[gi].unit, groups[gi].jobs, r.run);
  }
  if (own.empty()) return out;
  std::vector<perf::JobResult> res = engine(u, own, r.run);
  size_t next = 0;
  for (size_t gi = 0; gi < groups.size(); ++gi)
    if (groups[gi].unit.format == u.format)
      for (size_t j = 0; j < groups[gi].jobs.size(); ++j) out[gi].push_back(std::move(res.at(next++)));
  return out;
}

std::vector<KindLine> empty_kinds() {
  std::vector<KindLine> v(k_count);
  for (size_t k = 0; k < k_count; ++k) v[k].kind = step_kinds()[k];
  return v;
}

}  // namespace

cost::BlockParams training_block_params(const cfg::UnitConfig& u, int rht, uint64_t in_bytes) {
  cost::BlockParams bp;
  bp.format = u.format;
  bp.lanes = static_cast<int>(u.dot_width());
  bp.sr_bits = u.sr_bits;
  bp.rht = rht ? rht : 16;
  bp.in_bytes = in_bytes;
  bp.transpose_tile = u.transpose_tile;
  return bp;
}

const std::vector<EnergySplitPart>& energy_split_parts() {
  static const std::vector<EnergySplitPart> parts = {
      {"dot_units", &EnergySplit::dot_units}, {"quantize_rn", &EnergySplit::quantize_rn},
      {"quantize_sr", &EnergySplit::quantize_sr}, {"rht", &EnergySplit::rht},
      {"transpose_buffer", &EnergySplit::transpose_buffer}, {"sram", &EnergySplit::sram},
      {"dram", &EnergySplit::dram}};
  return parts;
}

double EnergySplit::total() const {
  double t = 0;
  for (const EnergySplitPart& p : energy_split_parts()) t += this->*p.pj;
  return t;
}

void EnergySplit::add(const EnergySplit& o) {
  for (const EnergySplitPart& p : energy_split_parts()) this->*p.pj += o.*p.pj;
}

const std::vector<std::string>& step_kinds() {
  static const std::vector<std::string> k = {"fprop", "dgrad", "wgrad", "attn_fwd", "attn_bwd", "quantize", "rht", "transpose"};
  return k;
}

TrainingStep run_training_step(const cfg::UnitConfig& u, const TrainingStepRequest& r, const Engine& engine) {
  const auto t0 = std::chrono::steady_clock::now();
  if (!r.trace) throw Error("command line", "--trace", "a training step needs a trace");
  const io::Trace& t = *r.trace;
  TrainingStep s;
  s.recipe = r.recipe ? r.recipe->name : "(none)";
  const train::Recipe* recipe = r.recipe ? &*r.recipe : nullptr;
  // Group the ops by the format they run in, in order of first appearance (the unit's own first).
  std::vector<FormatGroup> groups;
  std::map<std::string, size_t> index;
  for (size_t i = 0; i < t.ops.size(); ++i) {
    const io::TraceOp& op = t.ops[i];
    const OpPlan p = plan_op(u, t, op, recipe);
    const std::string key = format_key(p);
    auto it = index.find(key);
    if (it == index.end()) {
      FormatGroup g;
      g.unit = unit_in(u, r, p.format, g.line.config);
      g.line.format = key;
      g.line.kinds = empty_kinds();
      it = index.emplace(key, groups.size()).first;
      groups.push_back(std::move(g));
    }
    FormatGroup& g = groups[it->second];
    perf::Job j;
    j.name = op.name;
    j.M = op.M, j.N = op.N, j.K = op.K;
    j.instances = op.batch * (r.one_layer ? 1 : op.repeat);
    g.jobs.push_back(j);
    g.ops.push_back(i);
    g.plans.push_back(p);
    if (p.fp32 && s.notes.empty())
      s.notes.push_back("FP32 GEMMs of the recipe are timed on the same array with BF16 PEs (hifsim has no FP32 PE)");
  }
  if (groups.empty()) throw Error(t.manifest, "ops", "nothing to run");
  std::optional<cost::CostTables> tables;
  if (r.cost)
    tables = cost::load_tables(r.cost_options.cost_tables.empty() ? cost::default_tables_dir() : r.cost_options.cost_tables,
                               r.cost_node);
  const cost::CostTables* ct = tables ? &*tables : nullptr;
  s.cost = ct != nullptr;
  BlockTable bt;
  s.kinds = empty_kinds();
  s.total.kind = "step";
  const std::vector<std::vector<perf::JobResult>> results = run_gemms(groups, u, r, engine);
  for (size_t gi = 0; gi < groups.size(); ++gi) {
    FormatGroup& g = groups[gi];
    g.line.engine = g.unit.format == u.format ? r.engine_name : "analytic";
    g.line.timing = perf::timing_calibration(g.unit).label();
    time_gemms(g, results[gi], r, ct);
    time_passes(g, t, ct, bt, s.blocks);
    g.line.total.kind = "total";
    for (size_t k = 0; k < k_count; ++k) {
      add(g.line.total, g.line.kinds[k]);
      add(s.kinds[k], g.line.kinds[k]);
    }
    add(s.total, g.line.total);
    s.split.add(g.line.split);
    s.formats.push_back(g.line);
  }
  s.notes.push_back("GEMMs and operand passes run one after the other (no overlap); every GEMM quantizes both operands itself");
  s.notes.push_back("operand passes have no RTL yet: their timing is the model's (perf/operand_pass.hpp)");
  for (const auto& b : s.blocks)
    if (b.proxy) {
      s.notes.push_back("energies marked proxy are estimates for blocks whose hardware is not in the unit catalog");
      break;
    }
  s.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return s;
}

namespace {
void kind_json(JsonWriter& w, const KindLine& k) {
  w.begin_object().kv("kind", k.kind).kv("count", k.count).kv("macs", k.macs);
  w.key("cycles").begin_object();
  for (const auto& [name, f] : perf::Cycles::fields()) w.kv(name, k.cycles.*f);
  w.end_object();
  w.kv("energy_pj", k.energy_pj).end_object();
}
}  // namespace

std::string training_step_json(const cfg::UnitConfig& u, const TrainingStep& s, const std::string& source) {
  JsonWriter w;
  w.begin_object().kv("schema", "hifsim-training-step/1").kv("unit", u.name).kv("format", u.format_name())
      .kv("recipe", s.recipe).kv("source", source).kv("clock_ghz", u.clock_ghz).kv("cost", s.cost);
  w.key("step");
  kind_json(w, s.total);
  w.kv("seconds", static_cast<double>(s.total.cycles.total) / (u.clock_ghz * 1e9));
  w.key("kinds").begin_array();
  for (const auto& k : s.kinds) kind_json(w, k);
  w.end_array();
  // The step's energy by the hardware that spends it (adds up to the step's energy_pj).
  w.key("energy_by_block_pj").begin_object();
  for (const EnergySplitPart& p : energy_split_parts()) w.kv(p.json, s.split.*p.pj);
  w.end_object();
  w.key("formats").begin_array();
  for (const auto& f : s.formats) {
    w.begin_object().kv("format", f.format).kv("engine", f.engine).kv("timing", f.timing).kv("activity", f.activity).kv("config", f.config);
    if (!f.cost_unsupported.empty()) w.kv("cost_unsupported", f.cost_unsupported);
    w.key("total");
    kind_json(w, f.total);
    w.key("kinds").begin_array();
    for (const auto& k : f.kinds) kind_json(w, k);
    w.end_array().end_object();
  }
  w.end_array();
  w.key("blocks").begin_array();
  for (const auto& b : s.blocks)
    w.begin_object().kv("block", cost::training_block_name(b.block)).kv("format", fmt::format_info(b.params.format).name)
        .kv("catalog_unit", b.catalog_unit)
        .kv("in_catalog", b.in_catalog).kv("proxy", b.proxy).kv("pj_per_element", b.pj_per_element)
        .kv("source", b.source).end_object();
  w.end_array();
  w.key("notes").begin_array();
  for (const auto& n : s.notes) w.value(n);
  w.end_array();
  w.kv("wall_seconds", s.wall_seconds).end_object();
  return w.str() + "\n";
}

namespace {
std::string csv_line(const std::string& format, const KindLine& k) {
  std::string l = format + "," + k.kind + "," + std::to_string(k.count);
  for (const auto& [name, f] : perf::Cycles::fields()) l += "," + std::to_string(k.cycles.*f);
  return l + "," + fmt_g(k.macs, 17) + "," + fmt_g(k.energy_pj, 9) + "\n";
}
}  // namespace

std::string training_step_csv(const TrainingStep& s) {
  std::string csv = "format,kind,count";
  for (const auto& [name, f] : perf::Cycles::fields()) csv += std::string(",cycles_") + name;
  csv += ",macs,energy_pj\n";
  for (const auto& f : s.formats)
    for (const auto& k : f.kinds)
      if (k.count) csv += csv_line(f.format, k);
  for (const auto& k : s.kinds) csv += csv_line("all", k);
  KindLine t = s.total;
  t.kind = "TOTAL";
  return csv + csv_line("all", t);
}

std::string training_step_text(const TrainingStep& s) {
  auto pct = [&](uint64_t c) { return s.total.cycles.total ? fmt_g(100.0 * static_cast<double>(c) / static_cast<double>(s.total.cycles.total), 3) : std::string("0"); };
  std::string o = "training step (recipe " + s.recipe + "): " + std::to_string(s.total.cycles.total) + " cycles, " +
                  (s.cost ? fmt_g(s.total.energy_pj * 1e-6, 4) + " uJ\n" : std::string("no energy (--no-cost)\n"));
  o += "  kind        count        cycles  share%      compute     memory       fill      drain   energy_uJ\n";
  auto line = [&](const KindLine& k) {
    char buf[256];
    std::snprintf(buf, sizeof buf, "  %-9s %7llu %13llu %7s %12llu %10llu %10llu %10llu %11s\n", k.kind.c_str(),
                  static_cast<unsigned long long>(k.count), static_cast<unsigned long long>(k.cycles.total), pct(k.cycles.total).c_str(),
                  static_cast<unsigned long long>(k.cycles.compute), static_cast<unsigned long long>(k.cycles.memory_stall),
                  static_cast<unsigned long long>(k.cycles.fill), static_cast<unsigned long long>(k.cycles.drain),
                  s.cost ? fmt_g(k.energy_pj * 1e-6, 4).c_str() : "-");
    o += buf;
  };
  for (const auto& k : s.kinds) line(k);
  line(s.total);
  for (const auto& f : s.formats)
    o += "  format " + f.format + " (GEMMs: " + f.engine + ", " + f.timing + "): " + std::to_string(f.total.cycles.total) +
         " cycles, " +
         (s.cost && f.cost_unsupported.empty() ? fmt_g(f.total.energy_pj * 1e-6, 4) + " uJ" : std::string("no energy")) +
         (f.activity.empty() ? "" : " (activity: " + f.activity + ")") +
         (f.cost_unsupported.empty() ? "" : " (no cost: " + f.cost_unsupported + "; the step's energy leaves this format out)") + "\n";
  std::string blocks;  // a block looked up alike for two formats prints once
  for (const auto& b : s.blocks) {
    const std::string line = std::string("  block ") + cost::training_block_name(b.block) + " [" + b.catalog_unit + "]: " +
                             fmt_g(b.pj_per_element, 4) + " pJ/element" + (b.proxy ? " (PROXY)" : "") + " -- " + b.source + "\n";
    if (blocks.find(line) == std::string::npos) blocks += line;
  }
  o += blocks;
  for (const auto& n : s.notes) o += "  note: " + n + "\n";
  return o;
}

}  // namespace hifsim::eval
