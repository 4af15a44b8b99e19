// The Verilated calibration matrix units (rtl/array/matrix_unit_top.sv), one model per PE type,
// behind one interface so that the calibration code (calibrate.hpp) is written once.
// The models and their compile-time parameters are listed in CMakeLists.txt (one truth); the
// build generates the table that rtl_models.cpp turns into RtlUnit objects.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace hifsim::calib {

// Compile-time parameters of one Verilated model.
struct RtlParams {
  std::string name;          // hif4, hif8, nvfp4, mxfp4, mxfp8, bf16, hif4-sparse
  int pe = 0;                // matrix_unit_pkg::PE_*
  int rows = 0, cols = 0;    // R, C
  int mt = 0, nt = 0, ktu = 0;  // tile capacity: rows of A, rows of B, blocks per row
  int stages = 0;            // dot-unit pipeline registers (pe.pipeline_depth = stages + 1)
  int hif8_n = 0, hif8_w = 0, hif8_sticky = 0;
  int word_bits = 0;         // one block = one memory word = one bus beat
  int addr_bits = 0;         // memory words 2^addr_bits
  int max_latency = 0, max_outstanding = 0, prog_words = 0;
};

class RtlUnit {
 public:
  virtual ~RtlUnit() = default;
  virtual const RtlParams& params() const = 0;
  virtual void reset() = 0;
  // Registers and program words (matrix_unit_top's reg_* port), memory words (little-endian bytes).
  virtual void write_reg(uint32_t addr, uint64_t value) = 0;
  virtual void write_word(uint32_t addr, const uint8_t* bytes) = 0;
  virtual void read_word(uint32_t addr, uint8_t* bytes) = 0;
  // Starts a command and clocks until it is done; returns the unit's cycle count, or throws
  // after `max_cycles`.
  virtual uint64_t run(uint64_t max_cycles) = 0;
  uint64_t word_bytes() const { return static_cast<uint64_t>(params().word_bits + 7) / 8; }
};

const std::vector<RtlParams>& rtl_models();
// The model of that name (throws hifsim::Error listing the names otherwise).
std::unique_ptr<RtlUnit> make_rtl_unit(const std::string& name);

}  // namespace hifsim::calib
