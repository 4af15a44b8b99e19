// Whether a unit's timing is RTL-calibrated: the timing core's equations for the unit's structure
// (PE type, dataflow, interconnect, residual path, quantizer) have been checked cycle for cycle
// and value for value against the Verilated matrix unit rtl/array/matrix_unit_top.sv
// (cosim/tlm_calibration, docs/tlm.md section 11). Sizes are parameters of the same equations
// (array rows and columns, pipeline depth, buffer bytes and banks, drain width, memory bandwidth
// and latency, tile sizes, double buffering): they do not change the verdict.
// The report's unit table (units.csv column `timing`) shows this per format.
#pragma once
#include <string>

#include "config/unit_config.hpp"

namespace hifsim::perf {

struct TimingCalibration {
  bool rtl_calibrated = false;
  std::string reason;  // why not (the first structural feature the RTL does not have); "" if calibrated
  const char* label() const { return rtl_calibrated ? "rtl-calibrated" : "model"; }
};

TimingCalibration timing_calibration(const cfg::UnitConfig& u);

}  // namespace hifsim::perf
