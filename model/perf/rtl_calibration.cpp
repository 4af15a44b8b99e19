#include "perf/rtl_calibration.hpp"

namespace hifsim::perf {
namespace {

// The PE types of rtl/array/matrix_unit_pkg.sv whose unit matches the TLM at 0 % cycle error with
// bit-identical values on the quick shape table, both dataflows, both timing variants (ctest -L
// tlm: tlm.calibration.<pe>.*). MXFP8 is the E4M3 unit (the RTL's E5M2 = 0); plain FP8 runs
// through the same dot unit with unit scales, but its memory layout (no scale byte) is not built.
bool pe_calibrated(fmt::Format f) {
  switch (f) {
    case fmt::Format::hif4:
    case fmt::Format::hif8:
    case fmt::Format::nvfp4:
    case fmt::Format::mxfp4:
    case fmt::Format::mxfp8_e4m3:
    case fmt::Format::bf16:
      return true;
    default:
      return false;
  }
}

}  // namespace

TimingCalibration timing_calibration(const cfg::UnitConfig& u) {
  TimingCalibration c;
  if (!pe_calibrated(u.format)) {
    c.reason = "no RTL unit with " + u.format_name() + " PEs";
    return c;
  }
  if (u.interconnect != cfg::Interconnect::broadcast) {
    c.reason = "the RTL broadcasts operands (no systolic interconnect)";
    return c;
  }
  if (u.quantizer) {
    c.reason = "the RTL has no on-the-fly quantizer";
    return c;
  }
  // The one residual unit in RTL: HiF4 PEs with the fused 2:4 residual (sparse_residual_add), its
  // residual steps on the main array at one block per cycle.
  if (u.residual && !(u.format == fmt::Format::hif4 && u.residual_spec.kind == dp::ResidualKind::sparse24 &&
                      u.residual_spec.mode == dp::ResidualMode::fused && u.residual_path == cfg::ResidualPath::shared &&
                      u.residual_blocks_per_cycle == 1)) {
    c.reason = "the RTL's residual path is HiF4 + fused 2:4 on the shared array at 1 block/cycle";
    return c;
  }
  c.rtl_calibrated = true;
  return c;
}

}  // namespace hifsim::perf
