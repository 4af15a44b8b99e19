// The matrix-unit configuration (schema `hifsim-unit/1`, docs/tlm.md section "Config schema").
// Plain C++ (no SystemC): used by the timing core (model/perf), the TLM model (model/tlm), the
// cost model and design sweeps. Every field has a dotted path; `unit_schema()` is the single
// table of fields, types, defaults and ranges, and `load_unit_config()` validates a YAML file
// against it (errors: hifsim::Error(file, "field.path", reason)).
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "config/schema.hpp"
#include "datapath/residual.hpp"
#include "gemm/gemm.hpp"

namespace hifsim::cfg {

inline constexpr const char* kUnitSchema = "hifsim-unit/1";

enum class Dataflow { os, ws };             // output-stationary, weight-stationary
enum class Interconnect { broadcast, systolic };
enum class LoopOrder { automatic, mnk, nmk };
enum class QuantInput { fp32, bf16 };
enum class ResidualPath { shared, dedicated };
enum class SimMode { lt, at };              // loosely timed (default), approximately timed
enum class ValueEngine { gemm, unit };      // per output tile through the GEMM engine / unit by unit

struct BufferConfig {
  uint64_t bytes = 0;
  uint32_t banks = 0;        // blocks (one dot-width row segment) readable per cycle; 0 = enough
  bool double_buffer = true;
  uint64_t slot_bytes() const { return double_buffer ? bytes / 2 : bytes; }
  uint32_t slots() const { return double_buffer ? 2 : 1; }
};

struct UnitConfig {
  std::string source;        // file the config came from ("" for a string)
  std::string name, description;
  double clock_ghz = 1.0;

  // pe
  fmt::Format format = fmt::Format::hif4;
  dp::AccSpec acc;
  int hif8_lanes = 64;
  int align_width = -1;      // -1: the format's default
  std::string align_policy = "default";
  fmt::Hif4Convention hif4_convention = fmt::Hif4Convention::official;  // hif4 quantizer reference
  uint32_t pipeline_depth = 4;

  // array
  uint32_t rows = 0, cols = 0;
  Dataflow dataflow = Dataflow::os;
  Interconnect interconnect = Interconnect::broadcast;
  uint32_t drain_width = 0;  // 0: write-through (no drain cycles)
  bool weight_double_buffer = true;

  BufferConfig a, b, acc_buf;

  // tiling (0 = auto)
  uint64_t tile_m = 0, tile_n = 0, tile_k = 0;
  LoopOrder order = LoopOrder::automatic;

  // dma
  uint64_t burst_bytes = 4096;
  uint32_t outstanding = 16;

  // memory
  uint64_t mem_bytes_per_cycle = 64;
  uint64_t mem_latency = 100;
  uint64_t mem_size = 0;

  // quantizer
  bool quantizer = false;
  QuantInput quant_input = QuantInput::fp32;
  uint32_t quant_blocks_per_cycle = 1;
  uint32_t quant_latency = 4;
  bool stochastic = false;    // quantizer.rounding: stochastic element rounding (docs/training.md)
  uint64_t sr_seed = 0;       // quantizer.seed
  unsigned sr_bits = 8;       // quantizer.sr_bits

  // training: the blocks of a training step's operand passes (hifsim run --recipe, perf/operand_pass.hpp)
  uint64_t hadamard_elems_per_cycle = 64;
  uint64_t hadamard_latency = 4;
  uint64_t transpose_tile = 64;  // 0: no transpose buffer

  // residual (Rollout-ResQ)
  bool residual = false;
  dp::ResidualSpec residual_spec;
  ResidualPath residual_path = ResidualPath::shared;
  uint32_t residual_blocks_per_cycle = 1;

  // sim
  SimMode mode = SimMode::lt;
  uint64_t quantum_cycles = 100000;
  ValueEngine value_engine = ValueEngine::gemm;

  // Every field (dotted path -> canonical value), in schema order: JSON output, manifests, sweeps.
  std::vector<std::pair<std::string, std::string>> fields;

  // Derived.
  dp::GemmSpec gemm_spec(unsigned threads = 0) const;
  uint32_t dot_width() const;          // elements per PE per cycle along K
  double bits_per_value() const;       // storage of the quantized operands incl. block metadata
  // Bytes of one row segment of `k` quantized elements (k a multiple of the dot width).
  uint64_t row_bytes(uint64_t k) const;
  uint64_t quant_input_bytes() const { return quant_input == QuantInput::fp32 ? 4 : 2; }
  uint64_t peak_macs_per_cycle() const { return uint64_t{rows} * cols * dot_width(); }
  std::string format_name() const;
};

const std::vector<FieldSpec>& unit_schema();

// Loads and validates a unit config; `overrides` are "field.path=value" strings applied after the
// file (command line --set, sweeps). Throws hifsim::Error(file, field, reason).
UnitConfig load_unit_config(const std::string& path, const std::vector<std::string>& overrides = {});
UnitConfig unit_config_from_string(const std::string& yaml, const std::string& where,
                                   const std::vector<std::string>& overrides = {});

const char* dataflow_name(Dataflow d);

}  // namespace hifsim::cfg
