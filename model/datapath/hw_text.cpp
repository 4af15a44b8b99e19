#include "datapath/hw_text.hpp"

#include <algorithm>
#include <sstream>

#include "util/error.hpp"

namespace hifsim::dp::hw {

std::string grouped(long long v) {
  std::string d = std::to_string(v < 0 ? -v : v), o;
  for (size_t i = 0; i < d.size(); ++i) {
    if (i && (d.size() - i) % 3 == 0) o += ',';
    o += d[i];
  }
  return (v < 0 ? "-" : "") + o;
}

std::string stage_table_markdown(const UnitDesc& d) {
  std::ostringstream o;
  o << "| Stage | Quantity | Range | Width |\n|---|---|---|---|\n";
  for (const StageRow& r : d.stage_table) o << "| " << r.stage << " | " << r.quantity << " | " << r.range << " | " << r.width << " |\n";
  return o.str();
}

std::string cut_table_markdown(const UnitDesc& d) {
  std::ostringstream o;
  o << "| STAGES |";
  for (const Cut& c : d.cuts) o << " after " << c.after << " |";
  o << " register bits |\n|---|";
  for (size_t k = 0; k <= d.cuts.size(); ++k) o << "---|";
  o << "\n";
  for (int s = 0; s <= d.max_stages(); ++s) {
    UnitDesc at = d;
    at.stages = s;
    int bits = 0;
    o << "| " << s << " |";
    for (int k = 1; k <= static_cast<int>(d.cuts.size()); ++k) {
      const bool on = at.cut_on(k);
      bits += on ? d.cuts[static_cast<size_t>(k - 1)].bits : 0;
      o << (on ? " x |" : " - |");
    }
    o << " " << bits << " |\n";
  }
  o << "| bits |";
  for (const Cut& c : d.cuts) o << " " << c.bits << " |";
  o << " |\n";
  return o.str();
}

namespace {

// The cut rule of one unit as package functions over the shared cut_rank: its table holds one bit
// per cut point and STAGES value (bit ncut * stages + cut - 1), STAGES 0 in the low bits.
std::string sv_cut_function(const std::string& unit, const UnitDesc& d) {
  const size_t K = d.cuts.size();
  std::string after, table;
  for (size_t k = 0; k < K; ++k) after += (k ? ", " : "") + d.cuts[k].after;
  for (int s = d.max_stages(); s >= 0; --s) {
    for (int k = static_cast<int>(K) - 1; k >= 0; --k) table += ((d.cut_masks[static_cast<size_t>(s)] >> k) & 1u) ? '1' : '0';
    if (s) table += '_';
  }
  const std::string n = std::to_string(K), m = std::to_string(d.max_stages());
  std::ostringstream o;
  o << "  // " << unit << ": ranks after " << after << "; STAGES 0.." << m << "\n"
    << "  function automatic bit " << unit << "_cut(input int stages, input int cut);\n"
    << "    " << unit << "_cut = cut_rank(" << n << ", " << m << ", " << "64'b" << table
    << ", stages, cut);\n  endfunction\n"
    << "  function automatic bit " << unit << "_stages_ok(input int stages);\n"
    << "    " << unit << "_stages_ok = (stages >= 0) && (stages <= " << m << ");\n  endfunction\n";
  return o.str();
}

}  // namespace

std::string sv_package_section() {
  std::ostringstream o;
  o << "  // From the unit descriptions (model/datapath/*_hw.cpp): edit those, then run\n"
       "  // `hifsim units --update rtl/hifsim_pkg.sv`; test hw.descriptions fails while this differs.\n";
  std::vector<std::string> emitted;  // units sharing a datapath (hif8_dot, bf16_dot64) share its constants
  for (const NamedUnit& u : all_units()) {
    if (u.desc.pkg.empty() || std::find(emitted.begin(), emitted.end(), u.desc.pkg.front().name) != emitted.end()) continue;
    size_t w = 0;
    for (const PkgConst& c : u.desc.pkg) w = std::max(w, c.name.size());
    o << "\n  // " << u.desc.cut_rule << ": stage widths and bounds (docs/datapath.md)\n";
    for (const PkgConst& c : u.desc.pkg) {
      emitted.push_back(c.name);
      const std::string def = "localparam int " + c.name + std::string(w - c.name.size(), ' ') + " = " + std::to_string(c.value) + ";";
      o << "  " << def;
      if (!c.comment.empty()) o << std::string(def.size() < w + 26 ? w + 26 - def.size() : 1, ' ') << "// " << c.comment;
      o << "\n";
    }
  }
  o << "\n  // cut point `cut` (1..ncut, in datapath order) is a register rank at STAGES = `stages` when\n"
       "  // bit ncut * stages + cut - 1 of the unit's `ranks` is set (STAGES 0 in the low bits)\n"
       "  function automatic bit cut_rank(input int ncut, input int nstages, input logic [63:0] ranks, input int stages,\n"
       "                                  input int cut);\n"
       "    cut_rank = (stages >= 0) && (stages <= nstages) && (cut >= 1) && (cut <= ncut) && ranks[ncut*stages + cut - 1];\n"
       "  endfunction\n";
  std::vector<std::string> done;
  for (const NamedUnit& u : all_units()) {
    const std::string& rule = u.desc.cut_rule;
    if (rule.empty() || std::find(done.begin(), done.end(), rule) != done.end()) continue;
    done.push_back(rule);
    o << "\n" << sv_cut_function(rule, u.desc);
  }
  return o.str();
}

std::string replace_between(const std::string& text, const std::string& begin, const std::string& end, const std::string& body,
                            const std::string& file) {
  const size_t b = text.find(begin);
  if (b == std::string::npos) throw Error(file, begin, "marker not found");
  const size_t body_at = text.find('\n', b);
  const size_t e = text.find(end, b + begin.size());
  if (body_at == std::string::npos || e == std::string::npos) throw Error(file, end, "marker not found after " + begin);
  const size_t end_line = text.rfind('\n', e);
  if (end_line < body_at) throw Error(file, end, "on the same line as " + begin);
  return text.substr(0, body_at + 1) + body + text.substr(end_line + 1);
}

std::string updated_package(const std::string& text, const std::string& file) {
  return replace_between(text, "// ---- BEGIN generated", "// ---- END generated", sv_package_section(), file);
}

std::string unit_doc_block(const NamedUnit& u) {
  std::ostringstream o;
  if (!u.desc.stage_table.empty()) o << "\n" << stage_table_markdown(u.desc);
  if (!u.desc.cuts.empty()) {
    o << "\nPipeline register ranks of `" << u.name << "` (`STAGES`; rtl/hifsim_pkg.sv `" << u.desc.cut_rule
      << "_cut`; register bits without the valid bit):\n\n"
      << cut_table_markdown(u.desc);
  }
  o << "\n";
  return o.str();
}

std::string updated_datapath_doc(const std::string& text, const std::string& file) {
  std::string t = text;
  for (const NamedUnit& u : all_units()) {
    if (u.desc.stage_table.empty() && u.desc.cuts.empty()) continue;
    const std::string begin = "<!-- BEGIN generated " + u.name + " ";
    t = replace_between(t, begin, "<!-- END generated " + u.name + " -->", unit_doc_block(u), file);
  }
  return t;
}

}  // namespace hifsim::dp::hw
