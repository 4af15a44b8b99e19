// A training step on the matrix unit (eval/training_step.hpp, perf/operand_pass.hpp; docs/training.md
// "Training-step timing"): a hand-computed operand pass, the marginal split adding up, and on the
// stories260K training trace (its trace.yaml only: timing, no cost) the per-kind cycles adding up
// to the step and the recipe's passes counted as the recipe says.
#include <gtest/gtest.h>

#include "config/unit_config.hpp"
#include "cost/inventory.hpp"
#include "datapath/unit_catalog.hpp"
#include "eval/training_step.hpp"
#include "eval/workload.hpp"
#include "perf/operand_pass.hpp"
#include "perf/tiling.hpp"

using namespace hifsim;

namespace {

std::string src(const std::string& p) { return std::string(HIFSIM_SOURCE_DIR) + "/" + p; }

// bw = 128 B/cycle, L = 10; quantizer 64 elements/cycle, latency 4; Hadamard 16 elements/cycle,
// latency 3; transpose tile T = 8. The operand: 16 rows x K = 128 FP32 elements (E = 2048, 8192
// bytes), quantized to 16 x 72 = 1152 bytes (HiF4: 36 bytes per 64 elements).
perf::PassBlocks blocks() {
  perf::PassBlocks b;
  b.bytes_per_cycle = 128;
  b.mem_latency = 10;
  b.quant_elems_per_cycle = 64;
  b.quant_latency = 4;
  b.rht_elems_per_cycle = 16;
  b.rht_latency = 3;
  b.transpose_tile = 8;
  return b;
}
perf::OperandPass operand(bool rht, bool transposed) {
  perf::OperandPass p;
  p.rows = 16;
  p.k = 128;
  p.in_bytes = 4;
  p.out_bytes = 1152;
  p.rht = rht;
  p.transposed = transposed;
  return p;
}
void expect(const perf::Cycles& c, uint64_t total, uint64_t fill, uint64_t compute, uint64_t mem, uint64_t drain) {
  EXPECT_EQ(c.total, total);
  EXPECT_EQ(c.fill, fill);
  EXPECT_EQ(c.compute, compute);
  EXPECT_EQ(c.memory_stall, mem);
  EXPECT_EQ(c.drain, drain);
}

}  // namespace

TEST(OperandPass, HandComputed) {
  // Quantize only: memory 8192/128 = 64 + ceil(1152/128) = 9 beats = 73; quantizer 2048/64 = 32;
  // fill L + 4 = 14, drain L = 10: 14 + 32 + (73 - 32) + 10 = 97.
  expect(perf::time_operand_pass(blocks(), operand(false, false)).cycles, 97, 14, 32, 41, 10);
  // + RHT: Hadamard 2048/16 = 128 cycles > 73 beats; fill 14 + 3 = 17: 17 + 128 + 10 = 155.
  const perf::PassTiming r = perf::time_operand_pass(blocks(), operand(true, false));
  expect(r.cycles, 155, 17, 128, 0, 10);
  // + transpose (T = 8): 128 stored rows x 2 segments of 32 bytes = 256 beats + 9 = 265; the buffer
  // emits 2048/8 = 256 columns; fill 17 + 8 segment beats = 25: 25 + 256 + 9 + 10 = 300.
  const perf::PassTiming t = perf::time_operand_pass(blocks(), operand(true, true));
  expect(t.cycles, 300, 25, 256, 9, 10);
  expect(t.quantize, 97, 14, 32, 41, 10);
  expect(t.rht, 58, 3, 55, 0, 0);          // 155 - 97: 3 of fill, the longer block-limited stream
  expect(t.transpose, 145, 8, 0, 137, 0);  // 300 - 155: 8 of fill, the memory-limited stream
  EXPECT_EQ(t.read_bytes, 8192u);
  EXPECT_EQ(t.write_bytes, 1152u);
  EXPECT_EQ(t.transpose_buffer_bytes, 8192u);
  // No transpose buffer: one 4-byte element per beat, 2048 + 9 = 2057 beats: 17 + 128 + 1929 + 10.
  perf::PassBlocks nb = blocks();
  nb.transpose_tile = 0;
  const perf::PassTiming c = perf::time_operand_pass(nb, operand(true, true));
  expect(c.cycles, 2084, 17, 128, 1929, 10);
  EXPECT_EQ(c.transpose_buffer_bytes, 0u);
}

namespace {
eval::TrainingStep step(const std::string& config, const std::string& recipe, bool cost = false) {
  static io::Trace t = io::read_trace(src("traces/stories260k-train"));
  const cfg::UnitConfig u = cfg::load_unit_config(src(config));
  eval::TrainingStepRequest r;
  r.trace = &t;
  if (!recipe.empty()) r.recipe = train::load_recipe(src("configs/recipes/" + recipe + ".yaml"));
  r.config = src(config);
  r.cost = cost;
  r.cost_options.cost_tables = src("configs/cost");
  r.cost_options.activity_sample = 64;
  const eval::Engine plain = [](const cfg::UnitConfig& unit, const std::vector<perf::Job>& jobs, const perf::RunOptions& o) {
    return perf::run_plain(unit, jobs, o);
  };
  return eval::run_training_step(u, r, plain);
}

void expect_sums(const eval::TrainingStep& s) {
  perf::Cycles sum;
  for (const auto& k : s.kinds) {
    sum += k.cycles;
    EXPECT_EQ(k.cycles.fill + k.cycles.compute + k.cycles.memory_stall + k.cycles.drain, k.cycles.total) << k.kind;
  }
  EXPECT_TRUE(sum == s.total.cycles);
  perf::Cycles by_format;
  for (const auto& f : s.formats) {
    perf::Cycles fk;
    for (const auto& k : f.kinds) fk += k.cycles;
    EXPECT_TRUE(fk == f.total.cycles) << f.format;
    by_format += f.total.cycles;
  }
  EXPECT_TRUE(by_format == s.total.cycles);
  EXPECT_GT(s.total.cycles.total, 0u);
}

uint64_t count(const eval::TrainingStep& s, const std::string& kind) {
  for (const auto& k : s.kinds)
    if (k.kind == kind) return k.count;
  return 0;
}
}  // namespace

TEST(TrainingStep, KindsAddUpToTheStep) {
  for (const char* r : {"nvfp4", "hif4", "mxfp4", "bf16"}) {
    SCOPED_TRACE(r);
    expect_sums(step("configs/units/" + std::string(r) + "-32x32.yaml", r));
  }
}

// Without a recipe every op runs in the unit's format: the GEMM kinds are `hifsim run`'s timing of
// the trace (eval::timing_jobs on the plain core), the pass kinds the sum of each op's two operand
// passes (transposed as the trace says), and the step their sum -- computed here independently of
// the step's grouping and accounting.
TEST(TrainingStep, NoRecipeStepIsItsGemmsAndPasses) {
  const eval::TrainingStep s = step("configs/units/hif4-32x32.yaml", "");
  expect_sums(s);
  eval::Workload w;
  w.trace = io::read_trace(src("traces/stories260k-train"));
  const cfg::UnitConfig u = cfg::load_unit_config(src("configs/units/hif4-32x32.yaml"));
  std::vector<perf::RunReport> reps;
  for (const auto& jr : perf::run_plain(u, eval::timing_jobs(w))) reps.push_back(jr.report);
  const uint64_t gemms = perf::totals(reps).cycles.total;
  perf::PassBlocks b;
  b.bytes_per_cycle = u.mem_bytes_per_cycle;
  b.mem_latency = u.mem_latency;
  b.quant_elems_per_cycle = 64;
  b.quant_latency = u.quant_latency;
  b.transpose_tile = u.transpose_tile;
  uint64_t passes = 0;
  for (const io::TraceOp& op : w.trace->ops)
    for (int side = 0; side < 2; ++side) {
      perf::OperandPass p;
      p.rows = side ? op.N : op.M;
      p.k = op.K;
      p.out_bytes = p.rows * u.row_bytes(perf::ceil_div(op.K, 64) * 64);
      p.transposed = side ? op.b->transposed : op.a->transposed;
      passes += perf::time_operand_pass(b, p).cycles.total * op.batch * op.repeat;
    }
  uint64_t step_gemms = 0, step_passes = 0;
  for (const auto& k : s.kinds)
    (k.kind == "quantize" || k.kind == "rht" || k.kind == "transpose" ? step_passes : step_gemms) += k.cycles.total;
  EXPECT_EQ(step_gemms, gemms);
  EXPECT_EQ(step_passes, passes);
  EXPECT_EQ(s.total.cycles.total, gemms + passes);
  EXPECT_EQ(s.formats.size(), 1u);
}

TEST(TrainingStep, RecipePassesCounted) {
  // stories260K: 5 layers x 7 projections x (fprop, dgrad, wgrad) + 5 x 6 attention GEMMs x 8 heads.
  const eval::TrainingStep n = step("configs/units/nvfp4-32x32.yaml", "nvfp4");
  EXPECT_EQ(count(n, "fprop"), 35u);
  EXPECT_EQ(count(n, "wgrad"), 35u);
  EXPECT_EQ(count(n, "attn_bwd"), 160u);
  // RHT 16 on both wgrad operands, except layers.4 (kept in BF16): 2 x 28.
  EXPECT_EQ(count(n, "rht"), 56u);
  // Two passes per GEMM, less the dgrad weights of the 28 NVFP4 layers (16x16 blocks: fprop's).
  EXPECT_EQ(count(n, "quantize"), 2 * (105u + 240u) - 28u);
  // Transposed operands: dgrad W (7 bf16 layers; the NVFP4 ones have no pass), wgrad dY and X,
  // attention V (pv), P and dO (dv), K (dq), dS and Q (dk): per head.
  EXPECT_EQ(count(n, "transpose"), 7u + 70u + 40u * (1 + 2 + 1 + 2));
  // The recipe without RHT has none; formats: nvfp4 and bf16 (kept layers) and fp32 attention on bf16.
  EXPECT_EQ(count(step("configs/units/hif4-32x32.yaml", "hif4"), "rht"), 0u);
  EXPECT_EQ(n.formats.size(), 3u);
}

TEST(TrainingBlocks, LookupByCatalogName) {
  // hif4_quantizer is a catalog unit synthesised at sky130: its gate-level energy per 64-element
  // operation (configs/cost/sky130/energy.csv, the catalog default STAGES=3 row: unit_pj 467.273).
  const cost::CostTables sky = cost::load_tables(src("configs/cost"), "sky130");
  cost::BlockParams p;
  p.format = fmt::Format::hif4;
  const cost::BlockEnergy q = cost::training_block_energy(sky, cost::TrainingBlock::quantize_rn, p);
  EXPECT_TRUE(q.in_catalog);
  EXPECT_FALSE(q.proxy);
  EXPECT_NEAR(q.pj_per_element, 467.273 / 64, 1e-9);
  EXPECT_NE(q.source.find("gate-level"), std::string::npos) << q.source;
  // At 45 nm (no synthesised units) the same catalog unit gives its description's energy, no proxy.
  const cost::CostTables t45 = cost::load_tables(src("configs/cost"));
  const cost::BlockEnergy d = cost::training_block_energy(t45, cost::TrainingBlock::quantize_rn, p);
  EXPECT_FALSE(d.proxy);
  EXPECT_NE(d.source.find("hardware description"), std::string::npos) << d.source;
  // A block whose unit is not in the catalog is a labelled proxy; one that is, is not (the SR
  // figure adds the round-to-nearest scale path, NVFP4's a proxy). Written so that it holds when
  // the units of the parallel work (sr_quantizer, hadamard16, transpose_buffer) join the catalog.
  p.format = fmt::Format::nvfp4;
  for (auto b : {cost::TrainingBlock::quantize_rn, cost::TrainingBlock::quantize_sr, cost::TrainingBlock::hadamard,
                 cost::TrainingBlock::transpose_buffer}) {
    const cost::BlockEnergy e = cost::training_block_energy(t45, b, p);
    SCOPED_TRACE(cost::training_block_name(b));
    bool listed = false;
    for (const auto& u : dp::hw::unit_catalog()) listed |= u.name == e.catalog_unit;
    // The transpose buffer is priced from its catalog unit (flip-flop storage) only where the node
    // has a synthesised row of the run's T and W, none at 45 nm: its SRAM proxy, saying why.
    if (b == cost::TrainingBlock::transpose_buffer && listed) {
      EXPECT_NE(e.source.find("no synthesised transpose_buffer row of T=64;W=32"), std::string::npos) << e.source;
      listed = false;
    }
    EXPECT_EQ(e.in_catalog, listed);
    EXPECT_EQ(e.source.find("proxy estimate") != std::string::npos, !e.in_catalog) << e.source;
    // SR adds NVFP4's round-to-nearest quantizer, which has no RTL: a proxy either way.
    EXPECT_EQ(e.proxy, b == cost::TrainingBlock::quantize_sr || !e.in_catalog) << e.source;
    EXPECT_GT(e.pj_per_element, 0);
  }
  EXPECT_EQ(cost::training_block_unit(cost::TrainingBlock::hadamard, p), "hadamard16");
  p.rht = 32;
  EXPECT_EQ(cost::training_block_unit(cost::TrainingBlock::hadamard, p), "hadamard32");
  // Stochastic rounding costs more than round-to-nearest in the proxy.
  EXPECT_GT(cost::training_block_energy(t45, cost::TrainingBlock::quantize_sr, p).pj_per_element,
            cost::training_block_energy(t45, cost::TrainingBlock::quantize_rn, p).pj_per_element);
}

// The step's energy split by hardware (the report's training-unit comparison) adds up to the
// energy of its kinds, and each pass block's share is where the recipe puts it: NVFP4 has SR
// quantizers and a Hadamard unit, HiF4 neither.
TEST(TrainingStep, EnergySplitAddsUpToTheStep) {
  for (const char* r : {"nvfp4", "hif4"}) {
    SCOPED_TRACE(r);
    const eval::TrainingStep s = step("configs/units/" + std::string(r) + "-32x32.yaml", r, true);
    ASSERT_GT(s.total.energy_pj, 0);
    EXPECT_NEAR(s.split.total(), s.total.energy_pj, 1e-9 * s.total.energy_pj);
    double rht = 0, transpose = 0;
    for (const auto& k : s.kinds) {
      if (k.kind == "rht") rht = k.energy_pj;
      if (k.kind == "transpose") transpose = k.energy_pj;
    }
    EXPECT_DOUBLE_EQ(s.split.rht, rht);
    EXPECT_DOUBLE_EQ(s.split.transpose_buffer, transpose);
    const bool nv = std::string(r) == "nvfp4";
    EXPECT_EQ(s.split.quantize_sr > 0, nv);
    EXPECT_EQ(s.split.rht > 0, nv);
    EXPECT_GT(s.split.dot_units, 0);
    EXPECT_GT(s.split.sram, 0);
    EXPECT_GT(s.split.dram, 0);
  }
}

// A block's area comes from the same lookup as its energy: the node's synthesised row (cell
// area), else the catalog unit's description (gate equivalents at the node's ge_area_um2), else
// the proxy's components (the transpose buffer: its SRAM macro).
TEST(TrainingBlocks, AreaFromTheSameLookup) {
  const cost::CostTables sky = cost::load_tables(src("configs/cost"), "sky130");
  const cost::CostTables t45 = cost::load_tables(src("configs/cost"));
  cost::BlockParams p;
  p.format = fmt::Format::hif4;
  // configs/cost/sky130/units.csv: hif4_quantizer STAGES=3 (the catalog default), 393531.1776 um2.
  const cost::BlockEnergy q = cost::training_block_energy(sky, cost::TrainingBlock::quantize_rn, p);
  EXPECT_NEAR(q.area_mm2, 393531.1776e-6, 1e-12);
  EXPECT_EQ(q.elements_per_op, 64);
  EXPECT_NE(q.area_source.find("mapped cell area"), std::string::npos) << q.area_source;
  // sr_quantizer at the catalog default (STAGES=4, SR_BITS=8): area from its sky130 row, energy
  // its gate-level unit_pj per 16 elements plus NVFP4's round-to-nearest quantizer (a proxy).
  p.format = fmt::Format::nvfp4;
  const cost::BlockEnergy sr = cost::training_block_energy(sky, cost::TrainingBlock::quantize_sr, p);
  const cost::BlockEnergy rn = cost::training_block_energy(sky, cost::TrainingBlock::quantize_rn, p);
  EXPECT_NEAR(sr.area_mm2, 208224.704e-6, 1e-12);
  EXPECT_EQ(sr.elements_per_op, 16);
  EXPECT_NEAR(sr.pj_per_element - rn.pj_per_element, 268.921 / 16, 1e-9);
  EXPECT_NE(sr.source.find("gate-level"), std::string::npos) << sr.source;
  // MXFP4's SR quantizer is its own row (FMT=2: E2M1 with the Inf/NaN lanes zeroed).
  p.format = fmt::Format::mxfp4;
  const cost::BlockEnergy srm = cost::training_block_energy(sky, cost::TrainingBlock::quantize_sr, p);
  EXPECT_NEAR(srm.area_mm2, 207247.5168e-6, 1e-12);
  EXPECT_NE(srm.source.find("FMT=2"), std::string::npos) << srm.source;
  // hadamard16 at the catalog default (STAGES=2): area and gate-level energy per 16-vector.
  p.format = fmt::Format::nvfp4;
  const cost::BlockEnergy h = cost::training_block_energy(sky, cost::TrainingBlock::hadamard, p);
  EXPECT_NEAR(h.area_mm2, 381812.4384e-6, 1e-12);
  EXPECT_NEAR(h.pj_per_element, 405.482 / 16, 1e-9);
  EXPECT_NE(h.source.find("gate-level"), std::string::npos) << h.source;
  // 45 nm: the description's gate equivalents.
  p.format = fmt::Format::hif4;
  const cost::BlockEnergy d = cost::training_block_energy(t45, cost::TrainingBlock::quantize_rn, p);
  const double ge = cost::inventory_ge(t45.coeffs, dp::hw::inventory(dp::hw::unit_by_name("hif4_quantizer", {})));
  EXPECT_NEAR(d.area_mm2, ge * t45.energy.at("ge_area_um2") * 1e-6, 1e-12);
  EXPECT_NE(d.area_source.find("hardware description"), std::string::npos) << d.area_source;
  // The transpose buffer (no catalog unit): the 2 x 64 x 64 x 4 = 32768-byte SRAM macro's area.
  const cost::BlockEnergy x = cost::training_block_energy(t45, cost::TrainingBlock::transpose_buffer, p);
  EXPECT_TRUE(x.proxy);
  EXPECT_DOUBLE_EQ(x.area_mm2, t45.sram.at(32768, "test").area_mm2);
  EXPECT_NE(x.area_source.find("proxy estimate"), std::string::npos) << x.area_source;
  // T = 16 FP32 at sky130 has its synthesised rows (transpose_buffer STAGES=1, the catalog
  // default: 689731.5072 um2; gate-level 854.116 pJ per row in and column out, 16 elements): the
  // catalog unit, not the SRAM proxy.
  p.transpose_tile = 16;
  p.in_bytes = 4;
  const cost::BlockEnergy xs = cost::training_block_energy(sky, cost::TrainingBlock::transpose_buffer, p);
  EXPECT_FALSE(xs.proxy) << xs.source;
  EXPECT_TRUE(xs.in_catalog);
  EXPECT_NEAR(xs.area_mm2, 689731.5072e-6, 1e-3 * 689731.5072e-6);
  EXPECT_NEAR(xs.pj_per_element, 854.116 / 16, 1e-9);
  EXPECT_NE(xs.source.find("gate-level"), std::string::npos) << xs.source;
}
