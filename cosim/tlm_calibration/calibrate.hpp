// One GEMM on the RTL calibration unit, set up from a TLM unit config (docs/tlm.md section 11):
// the config's timing fields become the unit's run-time registers, the memory gets the same
// operand images the TLM host writes (perf::prepare_operands), the control is either the
// schedule of perf::build_schedule (program mode) or the unit's own sequencer, and the result is
// read back and compared bit for bit with dp::gemm_with_residual.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "config/unit_config.hpp"
#include "perf/tiling.hpp"
#include "rtl_unit.hpp"

namespace hifsim::calib {

// Throws hifsim::Error naming the config field when the config is not the RTL model's unit
// (format, array size, pipeline depth, memory bus width, limits of the model, options the RTL
// does not have).
void check_config_matches(const cfg::UnitConfig& u, const RtlParams& p);

struct RtlRun {
  uint64_t cycles = 0;
  bool values_ok = false;
  perf::Tiling tiling;
};

// Runs C = A * B^T (A: M x K, B: N x K, row-major FP32, quantized like the TLM host does) with
// the tiling the config gives (choose_tiling). `sequencer`: the unit decides the schedule itself.
RtlRun run_rtl_gemm(RtlUnit& rtl, const cfg::UnitConfig& u, uint64_t M, uint64_t N, uint64_t K,
                    const std::vector<float>& A, const std::vector<float>& B, bool sequencer);

}  // namespace hifsim::calib
