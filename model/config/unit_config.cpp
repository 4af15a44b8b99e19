#include "config/unit_config.hpp"

#include <cmath>

#include "util/error.hpp"

namespace hifsim::cfg {
namespace {

FieldSpec I(std::string path, std::string def, double lo, double hi, std::string unit, std::string help,
            bool required = false) {
  FieldSpec f;
  f.path = std::move(path);
  f.type = FieldType::integer;
  f.def = std::move(def);
  f.required = required;
  f.min = lo;
  f.max = hi;
  f.unit = std::move(unit);
  f.help = std::move(help);
  return f;
}
FieldSpec N(std::string path, std::string def, double lo, double hi, std::string unit, std::string help) {
  FieldSpec f = I(std::move(path), std::move(def), lo, hi, std::move(unit), std::move(help));
  f.type = FieldType::number;
  return f;
}
FieldSpec B(std::string path, std::string def, std::string help) {
  FieldSpec f;
  f.path = std::move(path);
  f.type = FieldType::boolean;
  f.def = std::move(def);
  f.min = 1;
  f.max = 0;
  f.help = std::move(help);
  return f;
}
FieldSpec S(std::string path, std::string def, std::string help, bool required = false) {
  FieldSpec f;
  f.path = std::move(path);
  f.type = FieldType::string;
  f.def = std::move(def);
  f.required = required;
  f.min = 1;
  f.max = 0;
  f.help = std::move(help);
  return f;
}
FieldSpec C(std::string path, std::string def, std::vector<std::string> choices, std::string help,
            bool required = false) {
  FieldSpec f = S(std::move(path), std::move(def), std::move(help), required);
  f.type = FieldType::choice;
  f.choices = std::move(choices);
  return f;
}

std::vector<std::string> tensor_formats() {
  std::vector<std::string> v;
  for (const auto& f : fmt::all_formats())
    if (f.tensor) v.push_back(f.name);
  return v;
}

constexpr double kMaxDim = 1 << 20;
constexpr double kMaxBytes = 1125899906842624.0;  // 2^50

}  // namespace

const std::vector<FieldSpec>& unit_schema() {
  static const std::vector<FieldSpec> s = {
      S("schema", "", "schema version, exactly hifsim-unit/1", true),
      S("name", "", "short name of the unit (appears in every result)", true),
      S("description", "", "free text for people"),
      N("clock_ghz", "1", 0.001, 100, "GHz", "clock, only to convert cycles to seconds in reports"),

      C("pe.format", "", tensor_formats(), "number format of both operands (one format per unit)", true),
      S("pe.accumulator", "fp32", "accumulator: fp32 | fp32-m<bits>-rne | fp32-m<bits>-rz | kulisch (docs/datapath.md)"),
      I("pe.hif8_lanes", "64", 16, 64, "elements", "HiF8 dot-product width (16, 32 or 64); hif8 only"),
      I("pe.align_width", "-1", -1, 120, "bits", "hif8/bf16 alignment window; 0 = exact, -1 = the format's default"),
      C("pe.align_policy", "default", {"default", "trunc", "sticky"}, "hif8/bf16 bits below the window"),
      C("pe.hif4_convention", "official", {"official", "ascend-a6"},
        "hif4 quantizer reference (docs/formats.md, HiF4 conventions); hif4 only"),
      I("pe.pipeline_depth", "4", 1, 64, "cycles", "from an operand issue (cycle t) to the accumulator holding the result (cycle t + P): dot-unit stages + 1"),

      I("array.rows", "", 1, 1024, "PEs", "PE rows R", true),
      I("array.cols", "", 1, 1024, "PEs", "PE columns C", true),
      C("array.dataflow", "os", {"os", "ws"}, "output-stationary or weight-stationary"),
      C("array.interconnect", "broadcast", {"broadcast", "systolic"},
        "operand distribution; systolic adds the skew R-1+C-1 to the pipeline latency"),
      I("array.drain_width", "0", 0, kMaxDim, "values/cycle", "OS: accumulators moved per cycle from the PEs to the accumulator buffer after a pass; 0 = write-through (the last add writes the buffer, no drain cycles)"),
      B("array.weight_double_buffer", "true", "WS: shadow weight registers (the next weights load while the current stream)"),

      I("buffers.a.bytes", "", 1, kMaxBytes, "bytes", "operand buffer A (activations)", true),
      I("buffers.a.banks", "0", 0, kMaxDim, "blocks/cycle", "row blocks readable per cycle; 0 = as many as the array needs"),
      B("buffers.a.double_buffer", "true", "two slots: the next tile loads while the current one computes"),
      I("buffers.b.bytes", "", 1, kMaxBytes, "bytes", "operand buffer B (weights)", true),
      I("buffers.b.banks", "0", 0, kMaxDim, "blocks/cycle", "row blocks readable per cycle; 0 = as many as the array needs"),
      B("buffers.b.double_buffer", "true", "two slots"),
      I("buffers.acc.bytes", "", 1, kMaxBytes, "bytes", "accumulator buffer (FP32 output tiles)", true),
      B("buffers.acc.double_buffer", "true", "two output-tile slots: a finished tile is stored while the next accumulates"),

      I("tiling.m", "0", 0, 2147483647.0, "rows", "output tile rows M_t held in the buffers; 0 = auto"),
      I("tiling.n", "0", 0, 2147483647.0, "cols", "output tile columns N_t; 0 = auto"),
      I("tiling.k", "0", 0, 2147483647.0, "elements", "K extent per buffer tile K_t (a multiple of the dot width); 0 = auto"),
      C("tiling.order", "auto", {"auto", "mnk", "nmk"}, "outer loop over M tiles (mnk) or N tiles (nmk); K is always innermost"),

      I("dma.burst_bytes", "4096", 1, 1073741824.0, "bytes", "largest memory transaction; a tile row is split into bursts"),
      I("dma.outstanding", "16", 1, 65536, "transactions", "transactions in flight"),

      I("memory.bytes_per_cycle", "", 1, kMaxDim, "bytes/cycle", "memory data-bus bandwidth", true),
      I("memory.latency", "", 0, 1e9, "cycles", "request to first data (reads) or to write response", true),
      I("memory.size_bytes", "64GiB", 1, kMaxBytes, "bytes", "address space of the memory target"),

      B("quantizer.enabled", "false", "A is read in high precision and quantized on the way into buffer A"),
      C("quantizer.input", "fp32", {"fp32", "bf16"}, "element type of A in memory when the quantizer is on"),
      I("quantizer.blocks_per_cycle", "1", 1, kMaxDim, "blocks/cycle", "dot-width blocks quantized per cycle"),
      I("quantizer.latency", "4", 0, 1e6, "cycles", "quantizer pipeline latency"),
      C("quantizer.rounding", "nearest", {"nearest", "stochastic"},
        "element rounding of the operands' values: the format's round-to-nearest default, or stochastic (docs/training.md; scales stay nearest)"),
      I("quantizer.seed", "0", 0, 9007199254740991.0, "", "stochastic rounding: seed of the random stream"),
      I("quantizer.sr_bits", "8", 1, 32, "bits", "stochastic rounding: random bits per element"),

      I("training.hadamard_elements_per_cycle", "64", 1, kMaxDim, "elements/cycle",
        "hifsim run --recipe: elements the Hadamard unit transforms per cycle (docs/training.md, training-step timing)"),
      I("training.hadamard_latency", "4", 0, 1e6, "cycles", "hifsim run --recipe: Hadamard unit pipeline latency"),
      I("training.transpose_tile", "64", 0, 65536, "elements",
        "hifsim run --recipe: transpose buffer of T x T elements feeding the quantizer column-wise; 0 = none (column-wise reads, one element per transaction)"),

      B("residual.enabled", "false", "Rollout-ResQ sparse residual path (docs/datapath.md unit 7)"),
      C("residual.kind", "2:4", {"dense", "2:4", "top50"}, "sparsifier of the quantized residual"),
      C("residual.mode", "unfused", {"unfused", "fused"}, "unfused: own accumulator + one FP32 add; fused: same accumulator after the main K"),
      C("residual.path", "shared", {"shared", "dedicated"}, "shared: residual blocks run on the main array; dedicated: a rate-matched residual array (unfused only)"),
      I("residual.blocks_per_cycle", "1", 1, 2, "blocks/cycle", "shared path: residual blocks per PE per cycle (2 needs kind 2:4)"),

      C("sim.mode", "lt", {"lt", "at"}, "loosely timed (b_transport + quantum keeper) or approximately timed (nb_transport)"),
      I("sim.quantum_cycles", "100000", 1, 1e15, "cycles", "temporal-decoupling quantum (LT); results do not depend on it"),
      C("sim.value_engine", "gemm", {"gemm", "unit"}, "values per output tile through the GEMM engine, or unit by unit in dataflow order (slow, literal)"),
  };
  return s;
}

const char* dataflow_name(Dataflow d) { return d == Dataflow::os ? "os" : "ws"; }

dp::GemmSpec UnitConfig::gemm_spec(unsigned threads) const {
  dp::GemmSpec g;
  g.format = format;
  g.acc = acc;
  g.hif8_lanes = hif8_lanes;
  g.threads = threads;
  g.quant.threads = threads;
  if (stochastic) {
    g.quant.rounding = fmt::Rounding::stochastic;
    g.quant.seed = sr_seed;
    g.quant.sr_bits = sr_bits;
  }
  g.quant.hif4_convention = hif4_convention;
  if (align_width >= 0 || align_policy != "default") {
    g.align = dp::default_align(format);
    g.align_set = true;
    if (align_width >= 0) g.align.width = align_width;
    if (align_policy == "trunc") g.align.policy = dp::AlignPolicy::trunc;
    if (align_policy == "sticky") g.align.policy = dp::AlignPolicy::sticky;
  }
  return g;
}

uint32_t UnitConfig::dot_width() const { return static_cast<uint32_t>(dp::dot_width(gemm_spec())); }
double UnitConfig::bits_per_value() const { return fmt::format_info(format).bits_per_value; }
uint64_t UnitConfig::row_bytes(uint64_t k) const {
  // bits_per_value * k / 8 is an integer for every format when k is a multiple of 32.
  return static_cast<uint64_t>(std::llround(bits_per_value() * static_cast<double>(k) / 8.0));
}
std::string UnitConfig::format_name() const { return fmt::format_info(format).name; }

namespace {

UnitConfig build(ConfigDoc& d, const std::string& source) {
  UnitConfig u;
  u.source = source;
  const std::string& schema = d.get_string("schema");
  if (schema != kUnitSchema)
    d.fail("schema", "unsupported schema '" + schema + "' (this hifsim reads " + kUnitSchema +
                         "); see docs/tlm.md for the fields of each version");
  u.name = d.get_string("name");
  if (u.name.empty()) d.fail("name", "must not be empty");
  u.description = d.get_string("description");
  u.clock_ghz = d.get_number("clock_ghz");

  u.format = *fmt::parse_format(d.get_string("pe.format"));
  try {
    u.acc = dp::AccSpec::parse(d.get_string("pe.accumulator"));
  } catch (const Error& e) {
    d.fail("pe.accumulator", "'" + d.get_string("pe.accumulator") +
                                 "' is not fp32, fp32-m<bits>-rne, fp32-m<bits>-rz (bits 1..23) or kulisch");
  }
  u.hif8_lanes = static_cast<int>(d.get_int("pe.hif8_lanes"));
  if (u.hif8_lanes != 16 && u.hif8_lanes != 32 && u.hif8_lanes != 64) d.fail("pe.hif8_lanes", "must be 16, 32 or 64");
  if (u.format != fmt::Format::hif8 && d.explicitly_set("pe.hif8_lanes"))
    d.fail("pe.hif8_lanes", "applies only to pe.format hif8 (this unit is " + u.format_name() + ")");
  u.align_width = static_cast<int>(d.get_int("pe.align_width"));
  u.align_policy = d.get_string("pe.align_policy");
  const bool aligned = u.format == fmt::Format::hif8 || u.format == fmt::Format::bf16;
  if (!aligned && u.align_width != -1) d.fail("pe.align_width", "applies only to hif8 and bf16 units");
  if (!aligned && u.align_policy != "default") d.fail("pe.align_policy", "applies only to hif8 and bf16 units");
  if (d.get_string("pe.hif4_convention") == "ascend-a6") {
    if (u.format != fmt::Format::hif4) d.fail("pe.hif4_convention", "applies only to pe.format hif4");
    u.hif4_convention = fmt::Hif4Convention::ascend_a6;
  }
  u.pipeline_depth = static_cast<uint32_t>(d.get_int("pe.pipeline_depth"));

  u.rows = static_cast<uint32_t>(d.get_int("array.rows"));
  u.cols = static_cast<uint32_t>(d.get_int("array.cols"));
  u.dataflow = d.get_string("array.dataflow") == "ws" ? Dataflow::ws : Dataflow::os;
  u.interconnect = d.get_string("array.interconnect") == "systolic" ? Interconnect::systolic : Interconnect::broadcast;
  u.drain_width = static_cast<uint32_t>(d.get_int("array.drain_width"));
  if (u.drain_width > u.rows * u.cols)
    d.fail("array.drain_width", "must not exceed array.rows * array.cols = " + std::to_string(u.rows * u.cols));
  u.weight_double_buffer = d.get_bool("array.weight_double_buffer");

  auto buf = [&](const std::string& n, bool banks) {
    BufferConfig b;
    b.bytes = static_cast<uint64_t>(d.get_int("buffers." + n + ".bytes"));
    if (banks) b.banks = static_cast<uint32_t>(d.get_int("buffers." + n + ".banks"));
    b.double_buffer = d.get_bool("buffers." + n + ".double_buffer");
    return b;
  };
  u.a = buf("a", true);
  u.b = buf("b", true);
  u.acc_buf = buf("acc", false);

  u.tile_m = static_cast<uint64_t>(d.get_int("tiling.m"));
  u.tile_n = static_cast<uint64_t>(d.get_int("tiling.n"));
  u.tile_k = static_cast<uint64_t>(d.get_int("tiling.k"));
  const std::string order = d.get_string("tiling.order");
  u.order = order == "mnk" ? LoopOrder::mnk : order == "nmk" ? LoopOrder::nmk : LoopOrder::automatic;

  u.burst_bytes = static_cast<uint64_t>(d.get_int("dma.burst_bytes"));
  u.outstanding = static_cast<uint32_t>(d.get_int("dma.outstanding"));
  u.mem_bytes_per_cycle = static_cast<uint64_t>(d.get_int("memory.bytes_per_cycle"));
  u.mem_latency = static_cast<uint64_t>(d.get_int("memory.latency"));
  u.mem_size = static_cast<uint64_t>(d.get_int("memory.size_bytes"));

  u.quantizer = d.get_bool("quantizer.enabled");
  u.quant_input = d.get_string("quantizer.input") == "bf16" ? QuantInput::bf16 : QuantInput::fp32;
  u.quant_blocks_per_cycle = static_cast<uint32_t>(d.get_int("quantizer.blocks_per_cycle"));
  u.quant_latency = static_cast<uint32_t>(d.get_int("quantizer.latency"));
  u.stochastic = d.get_string("quantizer.rounding") == "stochastic";
  u.sr_seed = static_cast<uint64_t>(d.get_int("quantizer.seed"));
  u.sr_bits = static_cast<unsigned>(d.get_int("quantizer.sr_bits"));
  u.hadamard_elems_per_cycle = static_cast<uint64_t>(d.get_int("training.hadamard_elements_per_cycle"));
  u.hadamard_latency = static_cast<uint64_t>(d.get_int("training.hadamard_latency"));
  u.transpose_tile = static_cast<uint64_t>(d.get_int("training.transpose_tile"));

  u.residual = d.get_bool("residual.enabled");
  u.residual_spec.kind = u.residual ? dp::ResidualSpec::parse_kind(d.get_string("residual.kind")) : dp::ResidualKind::none;
  u.residual_spec.mode = dp::ResidualSpec::parse_mode(d.get_string("residual.mode"));
  u.residual_path = d.get_string("residual.path") == "dedicated" ? ResidualPath::dedicated : ResidualPath::shared;
  u.residual_blocks_per_cycle = static_cast<uint32_t>(d.get_int("residual.blocks_per_cycle"));

  u.mode = d.get_string("sim.mode") == "at" ? SimMode::at : SimMode::lt;
  u.quantum_cycles = static_cast<uint64_t>(d.get_int("sim.quantum_cycles"));
  u.value_engine = d.get_string("sim.value_engine") == "unit" ? ValueEngine::unit : ValueEngine::gemm;

  // ---- cross-field checks ----
  const uint32_t W = u.dot_width();
  const uint64_t R = u.rows, Cc = u.cols;
  auto kib = [](uint64_t b) { return std::to_string(b) + " bytes"; };
  // A slot must hold at least one R x W tile (or a quantizer-input tile of it), B one C x W tile.
  const uint64_t min_a = R * u.row_bytes(W) * (u.residual ? 2 : 1);
  if (u.a.slot_bytes() < min_a)
    d.fail("buffers.a.bytes", "too small: a slot must hold at least array.rows x one dot-width block = " + kib(min_a) +
                                  (u.a.double_buffer ? " (x2 slots)" : ""));
  const uint64_t min_b = Cc * u.row_bytes(W);
  if (u.b.slot_bytes() < min_b)
    d.fail("buffers.b.bytes", "too small: a slot must hold at least array.cols x one dot-width block = " + kib(min_b) +
                                  (u.b.double_buffer ? " (x2 slots)" : ""));
  const uint64_t min_acc = R * Cc * 4;
  if (u.acc_buf.slot_bytes() < min_acc)
    d.fail("buffers.acc.bytes", "too small: a slot must hold one array.rows x array.cols FP32 tile = " + kib(min_acc) +
                                    (u.acc_buf.double_buffer ? " (x2 slots)" : ""));
  if (u.tile_k != 0 && u.tile_k % W != 0)
    d.fail("tiling.k", "must be a multiple of the dot width " + std::to_string(W) + " of " + u.format_name());
  if (u.residual) {
    if (u.residual_path == ResidualPath::dedicated && u.residual_spec.mode == dp::ResidualMode::fused)
      d.fail("residual.path", "dedicated needs residual.mode unfused (a separate array cannot add into the main "
                              "accumulator after all main K blocks)");
    if (u.residual_blocks_per_cycle == 2 && u.residual_spec.kind != dp::ResidualKind::sparse24)
      d.fail("residual.blocks_per_cycle", "2 needs residual.kind 2:4 (two compressed 2:4 blocks per dot unit)");
    if (u.residual_blocks_per_cycle == 2 && u.residual_path == ResidualPath::dedicated)
      d.fail("residual.blocks_per_cycle", "applies to the shared path only");
    if (u.residual_blocks_per_cycle == 2 && u.dataflow == Dataflow::ws)
      d.fail("residual.blocks_per_cycle", "2 needs array.dataflow os (a WS PE holds one weight block)");
    if (u.quantizer && u.residual_spec.kind == dp::ResidualKind::top50)
      d.fail("residual.kind", "top50 needs whole-tensor channel norms; not available with quantizer.enabled (on-line)");
    if (u.quantizer && u.format == fmt::Format::nvfp4)
      d.fail("residual.enabled", "nvfp4 residual needs a whole-tensor scale; not available with quantizer.enabled");
  }
  u.fields = d.items();
  return u;
}

}  // namespace

UnitConfig load_unit_config(const std::string& path, const std::vector<std::string>& overrides) {
  ConfigDoc d(&unit_schema());
  d.load_file(path);
  for (const auto& o : overrides) d.set_override(o, path + " (--set " + o + ")");
  d.finalize();
  return build(d, path);
}

UnitConfig unit_config_from_string(const std::string& yaml, const std::string& where,
                                   const std::vector<std::string>& overrides) {
  ConfigDoc d(&unit_schema());
  d.load_string(yaml, where);
  for (const auto& o : overrides) d.set_override(o, where + " (--set " + o + ")");
  d.finalize();
  return build(d, where);
}

}  // namespace hifsim::cfg
