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

// The generated parts of the committed files, between their markers:
//   rtl/hifsim_pkg.sv    "// ---- BEGIN generated" ... "// ---- END generated"
//   docs/datapath.md     "<!-- BEGIN generated <unit> -->" ... "<!-- END generated <unit> -->" per unit
// Each returns the file's text with those parts replaced by what the descriptions give now; a
// missing or unbalanced marker throws hifsim::Error naming `file`. A test checks that the
// committed files equal their updated text; `hifsim units --update FILE` rewrites them.
std::string updated_package(const std::string& text, const std::string& file);
std::string updated_datapath_doc(const std::string& text, const std::string& file);
std::string unit_doc_block(const NamedUnit& u);       // one unit's block (stage table + cut table)
// `text` with the lines strictly between the line containing `begin` and the next line containing
// `end` replaced by `body` (a missing marker throws hifsim::Error naming `file`).
std::string replace_between(const std::string& text, const std::string& begin, const std::string& end, const std::string& body,
                            const std::string& file);

}  // namespace hifsim::dp::hw
