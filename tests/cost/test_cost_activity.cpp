// Switching activity (docs/cost.md, "Activity"): exact Hamming counts on hand-made sequences,
// every inventory component measured at every STAGES of the unit, register widths consistent with the inventory, and energy
// that depends on the format and on the data.
#include <gtest/gtest.h>

#include "cost/activity.hpp"
#include "cost/cost.hpp"
#include "cost/inventory.hpp"
#include "cost_test_util.hpp"
#include "gemm/gemm.hpp"
#include "io/npy.hpp"
#include "util/error.hpp"

using namespace hifsim;
using namespace hifsim::cost;

TEST(CostActivity, RecorderCountsHammingDistancesOfConsecutiveOperations) {
  ToggleRecorder r;
  Activity a;
  // op 1: x = 1010, y = 0xFF, z = -1 (9 bits), w = 2^90 (100 bits)
  r.begin();
  r.put("x", 0b1010, 4);
  r.put("y", 0xFF, 8);
  r.put("z", static_cast<uint64_t>(-1), 9);
  r.put128("w", static_cast<__int128>(1) << 90, 100);
  r.end(a);
  // op 2: x = 0110 (2 toggles), y = 0x0F (4), z = 0 (9: only the 9 masked bits count), w = 2^90 + 1 (1)
  r.begin();
  r.put("x", 0b0110, 4);
  r.put("y", 0x0F, 8);
  r.put("z", 0, 9);
  r.put128("w", (static_cast<__int128>(1) << 90) + 1, 100);
  r.end(a);
  // op 3: x = 0110 (0), y = 0xF0 (8), z = 0x100 (1), w = 0 (2)
  r.begin();
  r.put("x", 0b0110, 4);
  r.put("y", 0xF0, 8);
  r.put("z", 0x100, 9);
  r.put128("w", 0, 100);
  r.end(a);
  EXPECT_EQ(a.dots, 3u);
  EXPECT_EQ(a.transitions, 2u);
  EXPECT_DOUBLE_EQ(a.toggle_sum.at("x"), 2);
  EXPECT_DOUBLE_EQ(a.toggle_sum.at("y"), 12);
  EXPECT_DOUBLE_EQ(a.toggle_sum.at("z"), 10);
  EXPECT_DOUBLE_EQ(a.toggle_sum.at("w"), 3);
  EXPECT_DOUBLE_EQ(a.bits_per_dot("y"), 8);
  EXPECT_DOUBLE_EQ(a.alpha("x"), 2.0 / 8.0);
  EXPECT_DOUBLE_EQ(a.toggles_per_dot("y"), 6);
  EXPECT_THROW(a.alpha("nothing"), Error);  // never a default
  EXPECT_THROW(r.put("x", 1, 65), Error);
}

// Two HiF4 operations by hand: all-zero units, then element 0 = +0.25 in both operands (scale
// 0xC0 = 1.0): p[0] = 1, I = 1, SS = 16, X = -8, big = 16, out = 16 * 2^-8 = 0.0625 (0x3D800000).
TEST(CostActivity, Hif4HandMadeSequenceGivesTheHandCountedToggles) {
  fmt::QTensor q;
  q.format = fmt::Format::hif4;
  q.rows = 1;
  q.cols = q.padded_cols = 128;
  q.codes.assign(128, 0);
  q.codes[64] = 1;  // block 1, element 0: S1P2 magnitude 1 = 0.25
  q.scales = {0xC0, 0xC0};
  q.l2 = {0, 0};
  q.l3 = {0, 0};
  UnitSpec s = default_unit_spec(fmt::Format::hif4, 0);
  ActivityOptions o;
  o.sample_dots = 2;  // output (0,0): block 0 then block 1
  const Activity a = measure_activity(s, q, q, o);
  ASSERT_EQ(a.transitions, 1u);
  auto T = [&](const char* c) { return a.toggles_per_dot(c); };
  EXPECT_EQ(T("in.operands"), 2);  // one nibble bit per operand
  EXPECT_EQ(T("s0.l3"), 4);        // m and |a| of both operands
  EXPECT_EQ(T("s1.prod"), 3);      // |aA|, |aB|, p
  EXPECT_EQ(T("s2.tree"), 4);      // leaf, two internal nodes, group sum
  EXPECT_EQ(T("s3.shift"), 2);     // group in, shifted out (shift amount 0 both times)
  EXPECT_EQ(T("s4.tree"), 4);      // leaf, two internal nodes, I
  EXPECT_EQ(T("s5.smul"), 0);      // same scales
  EXPECT_EQ(T("s5.exp"), 0);
  EXPECT_EQ(T("s6.mul"), 2);       // I 0 -> 1, big 0 -> 16
  EXPECT_EQ(T("s7.abs"), 2);       // big and |big|
  EXPECT_EQ(T("s7.norm"), 2);      // |big| and the normalised significand 2^23
  EXPECT_EQ(T("s7.exp"), 6);       // FP32 exponent 0 -> 123 = 0b01111011
  EXPECT_EQ(T("acc.reg"), 6);      // 0 -> 0x3D800000
  // FP adder nets: exponent of d (6), shift distance 0 -> 31 (5), big significand << 3 (1),
  // sum (1), result (6).
  EXPECT_EQ(T("acc.fpadd"), 19);
  EXPECT_EQ(a.bits_per_dot("in.operands"), 2 * 288);
}

namespace {
struct Data {
  std::vector<float> A, B;
  size_t M, N, K;
};
Data sample_data() {
  io::NpyArray a = io::read_npy_f32(std::string(HIFSIM_SOURCE_DIR) + "/traces/sample/activations.npy");
  Data d;
  d.M = d.N = 32;
  d.K = a.shape[1];
  d.A.assign(a.f32.begin(), a.f32.begin() + static_cast<long>(d.M * d.K));
  d.B.assign(a.f32.begin() + static_cast<long>(d.M * d.K), a.f32.begin() + static_cast<long>(2 * d.M * d.K));
  return d;
}
}  // namespace

TEST(CostActivity, EveryComponentIsMeasuredAndRegisterWidthsMatchTheInventory) {
  const CostTables t = load_tables(tables_dir());
  const Data d = sample_data();
  for (const fmt::Format f : {fmt::Format::hif4, fmt::Format::nvfp4, fmt::Format::mxfp4, fmt::Format::hif8, fmt::Format::bf16,
                              fmt::Format::mxfp8_e4m3, fmt::Format::mxfp8_e5m2, fmt::Format::fp8_e4m3}) {
    for (int stages = 0; stages <= dp::hw::describe_dot(default_unit_spec(f, 0)).max_stages(); ++stages) {
      const UnitSpec s = default_unit_spec(f, stages);
      dp::GemmSpec g;
      g.format = f;
      ActivityOptions o;
      o.sample_dots = 24;
      const Activity a = measure_activity(s, g, d.A.data(), 4, d.K, d.B.data(), 4, o);
      const std::string n = fmt::format_info(f).name;
      for (const auto& c : dot_inventory(s)) {
        ASSERT_TRUE(a.has(c.name)) << n << " " << c.name;
        if (c.kind == Cls::reg) {
          EXPECT_EQ(a.bits_per_dot(c.name), c.p1) << n << " " << c.name << " stages " << stages;
        }
      }
      for (const auto& c : acc_inventory(s)) ASSERT_TRUE(a.has(c.name)) << n << " " << c.name;
      EXPECT_EQ(a.bits_per_dot("in.operands"), 2 * operand_bits(s)) << n;
      EXPECT_GT(ops_energy_pj(t, dot_inventory(s), &a), 0) << n;
    }
  }
}

TEST(CostActivity, EnergyDependsOnFormatAndData) {
  const CostTables t = load_tables(tables_dir());
  const Data d = sample_data();
  ActivityOptions o;
  o.sample_dots = 512;
  auto energy = [&](fmt::Format f, const std::vector<float>& A) {
    const UnitSpec s = default_unit_spec(f, 3);
    dp::GemmSpec g;
    g.format = f;
    const Activity a = measure_activity(s, g, A.data(), d.M, d.K, d.B.data(), d.N, o);
    return ops_energy_pj(t, dot_inventory(s), &a);
  };
  const double h = energy(fmt::Format::hif4, d.A), nv = energy(fmt::Format::nvfp4, d.A);
  EXPECT_NE(h, nv);
  // The same unit on sparser data toggles less.
  std::vector<float> sparse = d.A;
  for (size_t i = 0; i < sparse.size(); ++i)
    if (i % 4) sparse[i] = 0;
  EXPECT_LT(energy(fmt::Format::hif4, sparse), h);
  // All-zero operands: nothing toggles but the register clocks.
  std::vector<float> zero(d.A.size(), 0.0f);
  const UnitSpec s = default_unit_spec(fmt::Format::hif4, 0);
  dp::GemmSpec g;
  const Activity z = measure_activity(s, g, zero.data(), d.M, d.K, zero.data(), d.N, o);
  EXPECT_EQ(ops_energy_pj(t, dot_inventory(s), &z), 0.0);
}

TEST(CostActivity, SampleIsReproducibleAndOrderMatters) {
  const Data d = sample_data();
  const UnitSpec s = default_unit_spec(fmt::Format::nvfp4, 3);
  dp::GemmSpec g;
  g.format = fmt::Format::nvfp4;
  ActivityOptions o;
  o.sample_dots = 256;
  const Activity a = measure_activity(s, g, d.A.data(), d.M, d.K, d.B.data(), d.N, o);
  const Activity b = measure_activity(s, g, d.A.data(), d.M, d.K, d.B.data(), d.N, o);
  EXPECT_EQ(a.toggle_sum, b.toggle_sum);
  o.seed = 2;
  const Activity c = measure_activity(s, g, d.A.data(), d.M, d.K, d.B.data(), d.N, o);
  EXPECT_NE(a.toggle_sum, c.toggle_sum);
  o.order = cfg::Dataflow::ws;  // weights held: B's operand bits toggle only when the block changes
  const Activity w = measure_activity(s, g, d.A.data(), d.M, d.K, d.B.data(), d.N, o);
  EXPECT_EQ(w.dots, 256u);
  EXPECT_LT(w.alpha("in.operands"), a.alpha("in.operands"));
}
