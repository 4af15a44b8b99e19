// Text printed from the hardware descriptions (hw.hpp): docs/datapath.md's stage and cut tables
// and the generated section of rtl/hifsim_pkg.sv. `hifsim units` prints them; tests/hw checks
// that the committed files contain exactly this text.
#pragma once
#include <string>
#include <vector>

#include "datapath/hw.hpp"

namespace hifsim::dp::hw {

std::string grouped(long long v);  // 2458624 -> "2,458,624"

std::string stage_table_markdown(const UnitDesc& d);  // | Stage | Quantity | Range | Width |
std::string cut_table_markdown(const UnitDesc& d);    // | STAGES | after s1 | ... | register bits |
std::string sv_package_section();                     // the generated part of rtl/hifsim_pkg.sv

}  // namespace hifsim::dp::hw
