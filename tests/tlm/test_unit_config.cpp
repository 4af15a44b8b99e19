// Unit-config schema (hifsim-unit/1) and trace-manifest reader (hifsim-trace/1): the shipped files
// load, bad files are rejected with file, field and reason in the message.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <fstream>
#include <regex>
#include <set>
#include <sys/stat.h>

#include "config/unit_config.hpp"
#include "perf/rtl_calibration.hpp"
#include "io/npy.hpp"
#include "io/safetensors.hpp"
#include "io/trace.hpp"
#include "util/error.hpp"
#include "tlm_test_util.hpp"

using namespace hifsim;

namespace {

std::string src(const std::string& rel) { return std::string(HIFSIM_SOURCE_DIR) + "/" + rel; }

std::vector<std::string> list_dir(const std::string& d, const std::string& suffix) {
  std::vector<std::string> out;
  DIR* dir = opendir(d.c_str());
  if (!dir) return out;
  while (dirent* e = readdir(dir)) {
    const std::string n = e->d_name;
    if (n.size() > suffix.size() && n.compare(n.size() - suffix.size(), suffix.size(), suffix) == 0) out.push_back(d + "/" + n);
  }
  closedir(dir);
  std::sort(out.begin(), out.end());
  return out;
}

// The message of the hifsim::Error thrown by f (fails the test if nothing is thrown).
template <class F>
std::string error_of(F f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  ADD_FAILURE() << "no hifsim::Error thrown";
  return "";
}

std::string with(const std::string& from, const std::string& to) {
  std::string y = test::tiny_yaml();
  const size_t p = y.find(from);
  EXPECT_NE(p, std::string::npos) << from;
  return y.replace(p, from.size(), to);
}

std::string load_err(const std::string& yaml, const std::vector<std::string>& ov = {}) {
  return error_of([&] { cfg::unit_config_from_string(yaml, "bad.yaml", ov); });
}

// A config text that must be refused, and a part of the message it must be refused with.
struct Refused {
  std::string yaml;
  const char* want;
};
void expect_refused(const std::vector<Refused>& cases) {
  for (const Refused& c : cases) {
    const std::string e = load_err(c.yaml);
    EXPECT_NE(e.find(c.want), std::string::npos) << "want: " << c.want << "\ngot: " << e;
  }
}

}  // namespace

TEST(UnitConfig, ShippedConfigsLoadAndHaveEqualPeak) {
  const auto files = list_dir(src("configs/units"), ".yaml");
  ASSERT_GE(files.size(), 5u);
  uint64_t peak = 0;
  int wide = 0;
  for (const auto& f : files) {
    SCOPED_TRACE(f);
    const cfg::UnitConfig u = cfg::load_unit_config(f);
    EXPECT_EQ(u.source, f);
    if (f.find("-32x32.yaml") != std::string::npos) {
      ++wide;
      if (!peak) peak = u.peak_macs_per_cycle();
      EXPECT_EQ(u.peak_macs_per_cycle(), peak) << "the 32x32 configs must have the same peak MACs/cycle";
      EXPECT_EQ(u.peak_macs_per_cycle(), 32u * 32u * 64u);
      EXPECT_EQ(u.a.bytes, 2u << 20);
      EXPECT_EQ(u.mem_bytes_per_cycle, 256u);
    }
  }
  EXPECT_EQ(wide, 5) << "hif4, nvfp4, mxfp4, hif8, bf16";
  // The configs of the RTL calibration units (cosim/tlm_calibration): two variants per PE type.
  const auto rtl = list_dir(src("configs/units/rtl"), ".yaml");
  EXPECT_EQ(rtl.size(), 14u);
  for (const auto& f : rtl) {
    SCOPED_TRACE(f);
    const cfg::UnitConfig u = cfg::load_unit_config(f);
    EXPECT_EQ(u.rows * u.cols, 16u);
    EXPECT_EQ(u.mem_bytes_per_cycle, u.row_bytes(u.dot_width())) << "one block per memory beat";
  }
}

// perf::timing_calibration (the report's `timing` column): every calibration config is
// RTL-calibrated in both dataflows; every PE format it calls calibrated has a calibration config
// (so the declared set is the tested set: cosim/tlm_calibration runs each config of
// configs/units/rtl, and refuses one that the model does not declare calibrated); structures the
// RTL lacks are not calibrated, with the reason.
TEST(UnitConfig, RtlCalibratedTimingIsTheCalibratedRtl) {
  std::set<fmt::Format> tested;
  for (const auto& f : list_dir(src("configs/units/rtl"), ".yaml")) {
    for (const char* df : {"os", "ws"}) {
      SCOPED_TRACE(f + " " + df);
      const cfg::UnitConfig u = cfg::load_unit_config(f, {std::string("array.dataflow=") + df});
      const perf::TimingCalibration c = perf::timing_calibration(u);
      EXPECT_TRUE(c.rtl_calibrated) << c.reason;
      EXPECT_STREQ(c.label(), "rtl-calibrated");
      if (!u.residual) tested.insert(u.format);
    }
  }
  for (int i = 0; i <= static_cast<int>(fmt::Format::bf16); ++i) {
    const auto f = static_cast<fmt::Format>(i);
    cfg::UnitConfig u = test::tiny();
    u.format = f;
    EXPECT_EQ(perf::timing_calibration(u).rtl_calibrated, tested.count(f) == 1) << fmt::format_info(f).name;
  }
  const std::string hif4 = src("configs/units/hif4-32x32.yaml");
  EXPECT_TRUE(perf::timing_calibration(cfg::load_unit_config(hif4)).rtl_calibrated);
  const std::vector<std::pair<std::string, std::string>> not_rtl = {
      {"array.interconnect=systolic", "systolic"},
      {"quantizer.enabled=true", "quantizer"},
      {"residual.enabled=true", "residual"},  // unfused by default; the RTL's residual is fused
      {"residual.enabled=true,residual.path=dedicated", "residual"},
      {"residual.enabled=true,residual.mode=fused,residual.blocks_per_cycle=2", "residual"},
      {"residual.enabled=true,residual.mode=fused,residual.kind=dense", "residual"}};
  for (const auto& [set, why] : not_rtl) {
    SCOPED_TRACE(set);
    std::vector<std::string> ov;
    for (size_t p = 0, q; p < set.size(); p = q + 1) {
      q = set.find(',', p);
      if (q == std::string::npos) q = set.size();
      ov.push_back(set.substr(p, q - p));
    }
    const perf::TimingCalibration c = perf::timing_calibration(cfg::load_unit_config(hif4, ov));
    EXPECT_FALSE(c.rtl_calibrated);
    EXPECT_STREQ(c.label(), "model");
    EXPECT_NE(c.reason.find(why), std::string::npos) << c.reason;
  }
  EXPECT_TRUE(perf::timing_calibration(cfg::load_unit_config(
                  hif4, {"residual.enabled=true", "residual.mode=fused", "residual.kind=2:4"}))
                  .rtl_calibrated);
}

TEST(UnitConfig, ValuesDefaultsAndSizeSuffixes) {
  const cfg::UnitConfig u = test::tiny();
  EXPECT_EQ(u.rows, 2u);
  EXPECT_EQ(u.drain_width, 2u);
  EXPECT_EQ(u.pipeline_depth, 3u);
  EXPECT_EQ(u.dot_width(), 64u);
  EXPECT_EQ(u.row_bytes(64), 36u);
  EXPECT_EQ(u.mem_size, uint64_t{64} << 30);  // default 64GiB
  EXPECT_TRUE(u.a.double_buffer);
  EXPECT_EQ(u.a.banks, 0u);
  EXPECT_EQ(u.dataflow, cfg::Dataflow::os);
  EXPECT_EQ(u.mode, cfg::SimMode::lt);
  const cfg::UnitConfig v = cfg::unit_config_from_string(with("bytes: 8192}", "bytes: 3MiB}"), "x.yaml");
  EXPECT_EQ(v.a.bytes, 3u << 20);
  // Every schema field is in `fields` (for JSON, manifests, sweeps), in schema order.
  ASSERT_EQ(u.fields.size(), cfg::unit_schema().size());
  for (size_t i = 0; i < u.fields.size(); ++i) EXPECT_EQ(u.fields[i].first, cfg::unit_schema()[i].path);
}

TEST(UnitConfig, OverridesByDottedPath) {
  const cfg::UnitConfig u = test::tiny({"array.rows=8", "array.dataflow=ws", "memory.latency=7", "buffers.a.bytes=1MiB"});
  EXPECT_EQ(u.rows, 8u);
  EXPECT_EQ(u.dataflow, cfg::Dataflow::ws);
  EXPECT_EQ(u.mem_latency, 7u);
  EXPECT_EQ(u.a.bytes, 1u << 20);
  std::string e = error_of([] { test::tiny({"array.rowz=8"}); });
  EXPECT_NE(e.find("array.rowz: unknown field; did you mean 'array.rows'?"), std::string::npos) << e;
  e = error_of([] { test::tiny({"array.rows=big"}); });
  EXPECT_NE(e.find("tiny.yaml (--set array.rows=big): array.rows: expected an integer, got 'big'"), std::string::npos) << e;
  e = error_of([] { test::tiny({"array.rows"}); });
  EXPECT_NE(e.find("expected field.path=value"), std::string::npos) << e;
}

TEST(UnitConfig, StochasticRoundingFields) {
  // docs/training.md: the unit's operands rounded stochastically, seeded, B bits per element.
  const cfg::UnitConfig u = test::tiny({"quantizer.rounding=stochastic", "quantizer.seed=12", "quantizer.sr_bits=4"});
  const dp::GemmSpec g = u.gemm_spec();
  ASSERT_TRUE(g.quant.rounding.has_value());
  EXPECT_EQ(*g.quant.rounding, fmt::Rounding::stochastic);
  EXPECT_EQ(g.quant.seed, 12u);
  EXPECT_EQ(g.quant.sr_bits, 4u);
  EXPECT_FALSE(test::tiny({}).gemm_spec().quant.rounding.has_value());
  std::string e = error_of([] { test::tiny({"quantizer.rounding=sr"}); });
  EXPECT_NE(e.find("quantizer.rounding: 'sr' is not one of: nearest, stochastic"), std::string::npos) << e;
  e = error_of([] { test::tiny({"quantizer.sr_bits=0"}); });
  EXPECT_NE(e.find("quantizer.sr_bits: must be in [1, 32]"), std::string::npos) << e;
}

TEST(UnitConfig, MissingRequiredField) {
  expect_refused({
      {with("memory: {bytes_per_cycle: 36, latency: 10}", "memory: {bytes_per_cycle: 36}"),
       "bad.yaml: memory.latency: missing (required field"},
      {with("name: tiny\n", ""), "bad.yaml: name: missing"},
  });
}

TEST(UnitConfig, WrongType) {
  expect_refused({
      {with("rows: 2,", "rows: two,"), "bad.yaml: array.rows: expected an integer, got 'two' (line 4)"},
      {with("rows: 2,", "rows: \"2\","), "bad.yaml: array.rows: expected an integer, got '2'"},
      {with("rows: 2,", "rows: 2.5,"), "array.rows: expected an integer"},
      {with("a: {bytes: 8192}", "a: {bytes: 8192, double_buffer: yes}"),
       "bad.yaml: buffers.a.double_buffer: expected true or false, got 'yes' (line 6)"},
      {with("memory: {bytes_per_cycle: 36, latency: 10}", "memory: [36, 10]"), "bad.yaml: memory: expected a mapping"},
      {with("rows: 2,", "rows: {x: 1},"), "bad.yaml: array.rows: expected an integer, got a mapping"},
  });
}

TEST(UnitConfig, OutOfRangeAndBadChoice) {
  expect_refused({
      {with("rows: 2,", "rows: 0,"), "bad.yaml: array.rows: must be in [1, 1024], got 0 (line 4)"},
      {with("latency: 10", "latency: -1"), "bad.yaml: memory.latency: must be in [0, 1000000000], got -1"},
      {with("dataflow: os", "dataflow: is"), "bad.yaml: array.dataflow: 'is' is not one of: os, ws"},
      {with("format: hif4", "format: int4"), "bad.yaml: pe.format: 'int4' is not one of: hif8, hif4"},
      {with("pipeline_depth: 3}", "pipeline_depth: 3, accumulator: fp64}"), "bad.yaml: pe.accumulator: 'fp64' is not fp32"},
  });
}

TEST(UnitConfig, UnknownFieldAndSection) {
  expect_refused({
      {with("rows: 2,", "rowz: 2,"), "bad.yaml: array.rowz: unknown field (line 4); did you mean 'array.rows'?"},
      {test::tiny_yaml() + "cache: {bytes: 5}\n", "bad.yaml: cache: unknown field (line 11)"},
      {with("memory: {", "memory: {banks: 4, "), "bad.yaml: memory.banks: unknown field"},
      {test::tiny_yaml() + "name: again\n", "bad.yaml: name: given twice"},
  });
}

TEST(UnitConfig, SchemaVersionAndSyntax) {
  expect_refused({
      {with("schema: hifsim-unit/1", "schema: hifsim-unit/2"),
       "bad.yaml: schema: unsupported schema 'hifsim-unit/2' (this hifsim reads hifsim-unit/1)"},
      {with("schema: hifsim-unit/1\n", ""), "bad.yaml: schema: missing"},
      {"schema: hifsim-unit/1\narray: {rows: 2\n", "bad.yaml: line 3, column 1: not valid YAML"},
      {"- just\n- a list\n", "bad.yaml: the top level must be a mapping"},
  });
}

TEST(UnitConfig, CrossFieldChecks) {
  expect_refused({
      {with("pipeline_depth: 3}", "pipeline_depth: 3, hif8_lanes: 32}"), "bad.yaml: pe.hif8_lanes: applies only to pe.format hif8"},
      {with("a: {bytes: 8192}", "a: {bytes: 100}"),
       "bad.yaml: buffers.a.bytes: too small: a slot must hold at least array.rows x one dot-width block = 72 bytes (x2 slots) (line 6)"},
      {with("acc: {bytes: 4096}", "acc: {bytes: 16}"), "bad.yaml: buffers.acc.bytes: too small"},
      {test::tiny_yaml() + "tiling: {k: 100}\n", "bad.yaml: tiling.k: must be a multiple of the dot width 64 of hif4"},
      {test::tiny_yaml() + "residual: {enabled: true, mode: fused, path: dedicated}\n",
       "bad.yaml: residual.path: dedicated needs residual.mode unfused"},
      {test::tiny_yaml() + "residual: {enabled: true, kind: dense, blocks_per_cycle: 2}\n",
       "bad.yaml: residual.blocks_per_cycle: 2 needs residual.kind 2:4"},
      {with("drain_width: 2", "drain_width: 5"), "bad.yaml: array.drain_width: must not exceed array.rows * array.cols = 4"},
      {test::tiny_yaml() + "quantizer: {enabled: true}\nresidual: {enabled: true, kind: top50}\n",
       "bad.yaml: residual.kind: top50 needs whole-tensor channel norms"},
  });
}

TEST(UnitConfig, ErrorsNameTheFileOnDisk) {
  const std::string path = std::string(::testing::TempDir()) + "/hifsim_bad_unit.yaml";
  {
    std::ofstream o(path);
    o << with("cols: 2,", "cols: -3,");
  }
  const std::string e = error_of([&] { cfg::load_unit_config(path); });
  EXPECT_EQ(e, path + ": array.cols: must be in [1, 1024], got -3 (line 4)");
  const std::string e2 = error_of([] { cfg::load_unit_config("/nonexistent/unit.yaml"); });
  EXPECT_EQ(e2, "/nonexistent/unit.yaml: does not exist");
  std::remove(path.c_str());
}

// pe.hif4_convention reaches the GEMM's quantizer options (docs/formats.md 3.1); hif4 only.
TEST(UnitConfig, Hif4Convention) {
  const std::string a6 = with("pipeline_depth: 3}", "pipeline_depth: 3, hif4_convention: ascend-a6}");
  const cfg::UnitConfig u = cfg::unit_config_from_string(a6, "a6.yaml");
  EXPECT_EQ(u.hif4_convention, fmt::Hif4Convention::ascend_a6);
  EXPECT_EQ(u.gemm_spec().quant.hif4_convention, fmt::Hif4Convention::ascend_a6);
  EXPECT_EQ(cfg::unit_config_from_string(test::tiny_yaml(), "t.yaml").gemm_spec().quant.hif4_convention,
            fmt::Hif4Convention::official);
  std::string nv = a6;
  nv.replace(nv.find("format: hif4"), 12, "format: nvfp4");
  EXPECT_NE(load_err(nv).find("bad.yaml: pe.hif4_convention: applies only to pe.format hif4"), std::string::npos)
      << load_err(nv);
  EXPECT_NE(load_err(with("pipeline_depth: 3}", "pipeline_depth: 3, hif4_convention: a6}")).find("pe.hif4_convention"),
            std::string::npos);
}

TEST(UnitConfig, SchemaMarkdownListsEveryField) {
  const std::string md = cfg::schema_markdown(cfg::unit_schema());
  for (const auto& f : cfg::unit_schema()) EXPECT_NE(md.find("`" + f.path + "`"), std::string::npos) << f.path;
}

// ---------------------------------------------------------------------------------------------
// Trace manifests

TEST(TraceReader, ShippedTracesRead) {
  for (const char* name : {"llama3-8b-prefill2048", "llama3-8b-decode-b64", "qwen2.5-7b-prefill2048",
                           "qwen2.5-7b-decode-b64", "deepseek-v3-prefill2048", "deepseek-v3-decode-b64"}) {
    SCOPED_TRACE(name);
    const io::Trace t = io::read_trace(src(std::string("traces/shapes/") + name));
    EXPECT_TRUE(t.shape_only());
    EXPECT_FALSE(t.ops.empty());
  }
  const io::Trace t = io::read_trace(src("traces/shapes/llama3-8b-prefill2048/trace.yaml"));
  ASSERT_EQ(t.ops.size(), 9u);
  EXPECT_EQ(t.tokens, 2048u);
  double macs = 0;
  for (const auto& op : t.ops) macs += op.macs_per_step();
  EXPECT_NEAR(macs / 1e12, 15.393, 0.001);  // the manifest's description
  EXPECT_EQ(t.ops[3].name, "attn_qk");
  EXPECT_EQ(t.ops[3].batch, 32u);
  EXPECT_EQ(t.ops[3].K, 128u);
  for (const char* cap : {"traces/smollm2-135m", "traces/smollm2-135m-all", "traces/stories260k"}) {
    SCOPED_TRACE(cap);
    const io::Trace c = io::read_trace(src(cap));
    EXPECT_EQ(c.kind, "captured");
    for (const auto& op : c.ops) {
      EXPECT_TRUE(op.a.has_value());
      EXPECT_TRUE(op.b.has_value());
    }
  }
}

TEST(TraceReader, CapturedOperandsLoadWithTheirShapes) {
  const io::Trace t = io::read_trace(src("traces/stories260k"));
  const io::TraceOp& op = t.ops[0];
  struct stat st{};
  if (::stat((t.dir + "/" + op.a->file).c_str(), &st) != 0) GTEST_SKIP() << "tensors not generated (scripts/capture/ensure_traces.sh)";
  const io::Operand a = io::load_operand(t, op, "a", 0), b = io::load_operand(t, op, "b", 0);
  EXPECT_EQ(a.rows, op.M);
  EXPECT_EQ(a.cols, op.K);
  EXPECT_EQ(b.rows, op.N);
  EXPECT_EQ(a.data.size(), op.M * op.K);
}

TEST(TraceReader, BadManifestsAreRejected) {
  const std::string dir = std::string(::testing::TempDir()) + "/hifsim_bad_trace";
  mkdir(dir.c_str(), 0777);
  const std::string good =
      "schema: hifsim-trace/1\nkind: shape-only\nmodel: {name: m, source: s, revision: r, architecture: llama}\n"
      "shape: {phase: prefill, sequences: 1, tokens: 8, context: 8, config: c}\n"
      "ops:\n- {name: q, layer: 0, op: q_proj, M: 8, N: 16, K: 32, batch: 1}\n";
  auto check = [&](const std::string& yaml, const std::string& want) {
    {
      std::ofstream o(dir + "/trace.yaml");
      o << yaml;
    }
    const std::string e = error_of([&] { io::read_trace(dir); });
    EXPECT_NE(e.find(dir + "/trace.yaml: " + want), std::string::npos) << e << "\n  wanted: " << want;
  };
  {
    std::ofstream o(dir + "/trace.yaml");
    o << good;
  }
  EXPECT_EQ(io::read_trace(dir).ops.size(), 1u);
  auto rep = [&](const std::string& from, const std::string& to) {
    std::string y = good;
    return y.replace(y.find(from), from.size(), to);
  };
  check(rep("M: 8, ", ""), "ops[0].M: required field is missing");
  check(rep("M: 8", "M: eight"), "ops[0] (q).M: must be an integer, got 'eight'");
  check(rep("M: 8", "M: \"8\""), "ops[0] (q).M: must be an integer, got string '8'");
  check(rep("M: 8", "M: 0"), "ops[0] (q).M: 0 is out of range [1, 2147483647]");
  check(rep("batch: 1}", "batch: 1, heads: 2}"), "ops[0].heads: unknown field (allowed:");
  check(rep("op: q_proj", "op: qproj"), "ops[0] (q).op: 'qproj' is not one of q_proj");
  check(rep("batch: 1}", "batch: 1, a: {file: a.npy, dtype: float32}}"), "ops[0] (q).a: shape-only traces carry no tensors");
  check(rep("hifsim-trace/1", "hifsim-trace/3"), "schema: 'hifsim-trace/3' is not 'hifsim-trace/1' or 'hifsim-trace/2'");
  check(rep("batch: 1}", "batch: 1, kind: fprop}"), "ops[0].kind: unknown field");  // a version-2 key in version 1
  check(rep("hifsim-trace/1", "hifsim-trace/2"), "ops[0].kind: required field is missing");
  {
    std::ofstream o(dir + "/trace.yaml");
    o << rep("hifsim-trace/1", "hifsim-trace/2").replace(good.find("batch: 1}"), 9, "batch: 1, kind: wgrad}");
  }
  EXPECT_EQ(io::read_trace(dir).ops.at(0).kind, "wgrad");
  check(rep("hifsim-trace/1", "hifsim-trace/2").replace(good.find("batch: 1}"), 9, "batch: 1, kind: attn_fwd}"),
        "ops[0] (q).kind: 'attn_fwd' does not fit op 'q_proj' (fprop, dgrad or wgrad)");
  check(rep("kind: shape-only", "kind: captured"), "model.revision: must be the sha256");
  check(good + "- {name: q, layer: 0, op: q_proj, M: 8, N: 16, K: 32, batch: 1}\n", "ops[1].name: duplicate op name 'q'");
  check("ops: [\n", "line 2, column 1: not valid YAML");
  EXPECT_NE(error_of([&] { io::read_trace(dir + "/nothing"); }).find("trace.yaml is missing"), std::string::npos);
}

// ---- .safetensors tensors (model/io/safetensors.*) ----
namespace {
// A safetensors file written byte by byte here (independent of the reader): 8-byte LE header
// length, the JSON header, the data.
void write_safetensors(const std::string& path, const std::string& json, const std::vector<float>& data,
                       size_t truncate_by = 0) {
  std::string bytes;
  uint64_t n = json.size();
  for (int i = 0; i < 8; ++i) bytes.push_back(static_cast<char>((n >> (8 * i)) & 0xff));
  bytes += json;
  for (float v : data) {
    uint32_t u;
    std::memcpy(&u, &v, 4);
    for (int i = 0; i < 4; ++i) bytes.push_back(static_cast<char>((u >> (8 * i)) & 0xff));
  }
  bytes.resize(bytes.size() - truncate_by);
  std::ofstream(path, std::ios::binary) << bytes;
}
}  // namespace

TEST(Safetensors, ReadsTheNamedF32TensorExactly) {
  const std::string p = std::string(::testing::TempDir()) + "/hifsim_two.safetensors";
  // Tensor "w" (2 x 3) after tensor "b" (4 values), metadata present: offsets select the bytes.
  const std::vector<float> data = {1.5f, -2.f, 3.25f, 0.f, 1e-40f, -0.f, 65504.f, 7.f, -1e30f, 0.1f};
  write_safetensors(p,
                    R"({"__metadata__": {"format": "pt"}, "b": {"dtype": "F32", "shape": [4], "data_offsets": [0, 16]},)"
                    R"( "w": {"dtype": "F32", "shape": [2, 3], "data_offsets": [16, 40]}})",
                    data);
  const io::NpyArray w = io::read_safetensors_f32(p, "w");
  ASSERT_EQ(w.shape, (std::vector<size_t>{2, 3}));
  for (size_t i = 0; i < 6; ++i) {
    uint32_t x, y;
    std::memcpy(&x, &w.f32[i], 4);
    std::memcpy(&y, &data[4 + i], 4);
    EXPECT_EQ(x, y) << i;  // bit for bit (subnormal, -0)
  }
  const io::NpyArray b = io::read_safetensors_f32(p, "b");
  EXPECT_EQ(b.shape, (std::vector<size_t>{4}));
  EXPECT_EQ(b.f32[2], 3.25f);
  EXPECT_NE(error_of([&] { io::read_safetensors_f32(p, ""); }).find("holds 2 tensors; name one with 'key'"), std::string::npos);
  EXPECT_NE(error_of([&] { io::read_safetensors_f32(p, "x"); }).find("no tensor named 'x'"), std::string::npos);
}

TEST(Safetensors, BadFilesAreRejectedClearly) {
  const std::string p = std::string(::testing::TempDir()) + "/hifsim_bad.safetensors";
  const std::vector<float> four = {1, 2, 3, 4};
  auto err = [&](const std::string& json, size_t truncate = 0) {
    write_safetensors(p, json, four, truncate);
    return error_of([&] { io::read_safetensors_f32(p, ""); });
  };
  write_safetensors(p, R"({"t": {"dtype": "F32", "shape": [4], "data_offsets": [0, 16]}})", four);  // the good file
  EXPECT_EQ(io::read_safetensors_f32(p, "").f32, four);
  EXPECT_NE(err(R"({"t": {"dtype": "F16", "shape": [8], "data_offsets": [0, 16]}})").find("dtype F16, expected F32"), std::string::npos);
  EXPECT_NE(err(R"({"t": {"dtype": "F32", "shape": [5], "data_offsets": [0, 16]}})").find("its shape needs 20"), std::string::npos);
  EXPECT_NE(err(R"({"t": {"dtype": "F32", "shape": [4], "data_offsets": [0, 16]}})", 4).find("runs past the end"), std::string::npos);
  EXPECT_NE(err(R"({"t": {"dtype": "F32", "shape": [4], "data_offsets": [0)").find("not valid JSON"), std::string::npos);
  EXPECT_NE(err(R"(["t"])").find("not a JSON object"), std::string::npos);
  std::ofstream(p, std::ios::binary) << std::string("\xff\xff\xff\xff\xff\xff\xff\x7f{}", 10);
  EXPECT_NE(error_of([&] { io::read_safetensors_f32(p, ""); }).find("is not plausible"), std::string::npos);
  EXPECT_NE(error_of([&] { io::read_safetensors_f32(p + ".missing", ""); }).find("does not exist"), std::string::npos);
}

// A training-step trace (schema 2) stores each tensor once: dgrad's B is the fprop weight read
// transposed, wgrad's A the dgrad dY read transposed; load_operand hands out the GEMM's layout.
TEST(TraceReader, TransposedOperandsLoadTransposed) {
  const io::Trace t = io::read_trace(src("traces/stories260k-train"));
  EXPECT_EQ(t.schema, "hifsim-trace/2");
  EXPECT_EQ(t.step, "training");
  auto find = [&](const std::string& name) -> const io::TraceOp& {
    for (const io::TraceOp& op : t.ops)
      if (op.name == name) return op;
    throw std::runtime_error("no op " + name);
  };
  const io::TraceOp &f = find("layer1.up_proj"), &d = find("layer1.up_proj.dgrad"), &w = find("layer1.up_proj.wgrad");
  EXPECT_EQ(d.kind, "dgrad");
  EXPECT_TRUE(d.b->transposed);
  EXPECT_EQ(d.b->file, f.b->file);
  struct stat st{};
  if (::stat((t.dir + "/" + f.b->file).c_str(), &st) != 0) GTEST_SKIP() << "tensors not generated (scripts/capture/ensure_traces.sh)";
  const io::Operand W = io::load_operand(t, f, "b", 0), Wt = io::load_operand(t, d, "b", 0);
  const io::Operand dY = io::load_operand(t, d, "a", 0), dYt = io::load_operand(t, w, "a", 0);
  ASSERT_EQ(Wt.rows, W.cols);
  ASSERT_EQ(dYt.rows, dY.cols);
  for (size_t i = 0; i < W.rows; ++i)
    for (size_t j = 0; j < W.cols; ++j) ASSERT_EQ(Wt.data[j * Wt.cols + i], W.data[i * W.cols + j]) << i << "," << j;
  for (size_t i = 0; i < dY.rows; ++i)
    for (size_t j = 0; j < dY.cols; ++j) ASSERT_EQ(dYt.data[j * dYt.cols + i], dY.data[i * dY.cols + j]) << i << "," << j;
}

// A captured trace whose A operand is stored as .safetensors loads the same values as the .npy.
TEST(TraceReader, SafetensorsOperandLoadsLikeTheNpy) {
  const io::Trace t = io::read_trace(src("traces/stories260k"));
  const io::TraceOp& op = t.ops[0];
  struct stat st{};
  if (::stat((t.dir + "/" + op.a->file).c_str(), &st) != 0) GTEST_SKIP() << "tensors not generated (scripts/capture/ensure_traces.sh)";
  const io::NpyArray a = io::read_npy_f32(t.dir + "/" + op.a->file);
  const std::string dir = std::string(::testing::TempDir()) + "/hifsim_st_trace";
  mkdir(dir.c_str(), 0777);
  write_safetensors(dir + "/a.safetensors",
                    R"({"act": {"dtype": "F32", "shape": [)" + std::to_string(a.shape[0]) + ", " + std::to_string(a.shape[1]) +
                        R"(], "data_offsets": [0, )" + std::to_string(4 * a.f32.size()) + "]}}",
                    a.f32);
  std::ifstream in(t.manifest);
  std::string y((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string from = "a: {file: " + op.a->file + ", dtype: float32, sha256: " + op.a->sha256 + "}";
  const size_t at = y.find(from);
  ASSERT_NE(at, std::string::npos) << from;
  y.replace(at, from.size(), "a: {file: a.safetensors, dtype: float32, key: act}");
  std::ofstream(dir + "/trace.yaml") << y;
  const io::Trace t2 = io::read_trace(dir);
  const io::Operand o = io::load_operand(t2, t2.ops[0], "a", 0);
  EXPECT_EQ(o.rows, op.M);
  EXPECT_EQ(o.cols, op.K);
  EXPECT_EQ(std::memcmp(o.data.data(), a.f32.data(), 4 * a.f32.size()), 0);
}
