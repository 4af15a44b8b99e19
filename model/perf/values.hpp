// Values through the matrix-unit model: the memory images the host writes, the decoding of
// buffer tiles and the two value engines (docs/tlm.md section "Values").
//
// Memory images (row-major, one row of the padded K after the other):
//   quantized operand  rows x row_bytes(Kp): the packed records of model/formats/packed.hpp
//                      (hif4 36 B / 64, mxfp4 17 B / 32, nvfp4 9 B / 16, hif8 1 B, bf16 2 B)
//   quantizer input    rows x Kp float32 (LE) or bf16 (the upper half of the float32, RNE)
//   result C           M x N float32 (LE), not padded
//
// Value engines (sim.value_engine):
//   gemm  the K tiles of an output tile are collected and, after its last step, run through
//         dp::gemm_quantized on the (tile rows x full K) panels. Each output is then the datapath
//         sequence acc = +0; acc = fl(acc + dot_b) for b = 0, 1, ... in increasing K -- exactly
//         the sequence the dataflow performs (OS: the PE accumulator is saved to the accumulator
//         buffer after a K tile and restored before the next; WS: the partial sum travels down the
//         PE column and through the accumulator buffer between folds), because restoring an FP32
//         accumulator from its stored FP32 value is exact. Fast (packed/AVX2 kernels).
//   unit  the literal dataflow: per step, every output's accumulator is restored from the
//         accumulator-buffer value (Accumulator::reset(saved)), the step's blocks are added one
//         unit_dot() at a time in increasing K, and the value is saved back (WS: after every block,
//         the FP32 hop between PEs). Slow; used by the tests to show that the tiling and the
//         save/restore reproduce the engine bit for bit.
// Both equal `hifsim gemm` (dp::gemm / dp::gemm_with_residual) bit for bit; tests/tlm checks it.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "config/unit_config.hpp"
#include "formats/tensor.hpp"
#include "perf/tiling.hpp"

namespace hifsim::perf {

// One GEMM command as the unit receives it (registers, docs/tlm.md "Registers").
struct GemmCommand {
  uint64_t M = 0, N = 0, K = 0;
  uint64_t a_addr = 0, b_addr = 0, c_addr = 0, r_addr = 0;  // r: residual operand (no quantizer)
  float a_scale = 1.0f, b_scale = 1.0f, r_scale = 1.0f;     // NVFP4 per-tensor decode scales
  float a_encode = 1.0f;                                     // NVFP4 encode scale (on-line quantizer)
  bool values = true;
};

// The host side: operands quantized (or kept in high precision for the on-line quantizer) and
// laid out as memory images, plus the register values that go with them.
struct HostOperands {
  std::string a_image, b_image, r_image;  // r_image empty unless residual without quantizer
  float a_scale = 1.0f, b_scale = 1.0f, r_scale = 1.0f, a_encode = 1.0f;
  uint64_t M = 0, N = 0, K = 0, Kp = 0;
};
HostOperands prepare_operands(const cfg::UnitConfig& u, const float* A, const float* B, uint64_t M, uint64_t N,
                              uint64_t K, unsigned threads = 0);

// Image of a quantized tensor (its packed records without the container header).
std::string tensor_image(const fmt::QTensor& q);
// rows x k quantized elements from packed records (`bytes` holds rows x row_bytes(k)).
fmt::QTensor decode_tile(fmt::Format f, const uint8_t* bytes, size_t rows, size_t k, float tensor_scale);

// Per-output-tile value computation (see the header comment).
class ValueEngine {
 public:
  ValueEngine(const cfg::UnitConfig& u, const Tiling& t, const GemmCommand& c, unsigned threads);
  ~ValueEngine();
  // The step's buffer contents: A slot (main rows, then residual rows / or quantizer input) and B slot.
  // `a_load` / `b_load` identify the load that filled each slot: a slot is decoded once per load.
  void step(const Step& s, const uint8_t* a_slot, uint64_t a_load, const uint8_t* b_slot, uint64_t b_load);
  // After the last step of an output tile: ml x nl FP32 results, row-major.
  void finish(const Step& last, float* out);

 private:
  struct Impl;
  std::unique_ptr<Impl> p_;
};

// 64-bit FNV-1a of the bytes of a float array, as 16 hex digits (the "checksum" of a result).
std::string float_checksum(const float* x, size_t n);

}  // namespace hifsim::perf
