// The drift test (issue 12): every RTL unit, elaborated by Yosys from its file list rtl/<top>.f
// at every STAGES value and at corner parameter sets, has exactly the pipeline ranks of its
// description in model/datapath (each hifsim_pipe_reg instance: enabled or not, and its width)
// and the described widths of its stage signals. A rank added, moved or resized in the RTL, a
// width typed into a module instead of taken from hifsim_pkg, or a description that changed
// without the RTL fails here. Two mutants of rtl/nvfp4_dot64.sv check that the test catches both
// kinds of drift.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "datapath/hw.hpp"
#include "datapath/unit_catalog.hpp"

using namespace hifsim;
using namespace hifsim::dp::hw;

namespace {

using Params = std::vector<std::pair<std::string, int>>;

std::string sh(const std::string& cmd) {
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  const int rc = pclose(p);
  EXPECT_EQ(rc, 0) << cmd << "\n" << out;
  return out;
}

std::string read_text(const std::string& p) {
  std::ifstream f(p);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// The elaborated design of one parameter set, flattened from the top: every module-level wire
// ("u_dot.s1_lane" below an instance) and every hifsim_pipe_reg instance with its W and EN.
struct Rank {
  int w = 0;
  bool en = false;
};
struct Elab {
  std::map<std::string, int> wires;
  std::map<std::string, Rank> ranks;
};

struct Module {
  std::map<std::string, int> wires;
  std::vector<std::pair<std::string, std::string>> cells;  // type, name
};

std::string unescape(const std::string& n) { return !n.empty() && n[0] == '\\' ? n.substr(1) : n; }

std::map<std::string, Module> parse_rtlil(const std::string& text) {
  std::map<std::string, Module> mods;
  std::istringstream in(text);
  std::string line;
  Module* cur = nullptr;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::vector<std::string> t;
    for (std::string w; ls >> w;) t.push_back(w);
    if (t.empty()) continue;
    if (t[0] == "module" && t.size() == 2) {
      cur = &mods[t[1]];
    } else if (cur && t[0] == "wire" && t.back()[0] == '\\') {
      const int width = t.size() > 2 && t[1] == "width" ? std::stoi(t[2]) : 1;
      cur->wires[unescape(t.back())] = width;
    } else if (cur && t[0] == "cell" && t.size() == 3) {
      cur->cells.emplace_back(t[1], unescape(t[2]));
    }
  }
  return mods;
}

// $paramod\hifsim_pipe_reg\W=s32'0..0111\EN=1'1
bool pipe_reg(const std::string& type, Rank& r) {
  if (type.find("\\hifsim_pipe_reg\\") == std::string::npos) return false;
  const size_t w = type.find("\\W=s32'"), e = type.find("\\EN=1'");
  if (w == std::string::npos || e == std::string::npos) return false;
  r.w = static_cast<int>(std::stoll(type.substr(w + 7, 32), nullptr, 2));
  r.en = type[e + 6] == '1';
  return true;
}

void flatten(const std::map<std::string, Module>& mods, const std::string& name, const std::string& prefix, Elab& e) {
  const auto it = mods.find(name);
  if (it == mods.end()) return;
  for (const auto& [w, width] : it->second.wires) e.wires[prefix + w] = width;
  for (const auto& [type, inst] : it->second.cells) {
    Rank r;
    if (pipe_reg(type, r)) e.ranks[prefix + inst] = r;
    else flatten(mods, type, prefix + inst + ".", e);
  }
}

// Elaborates `top` once per parameter set (one Yosys run; `rtl_dir` holds the sources).
std::vector<Elab> elaborate(const std::string& rtl_dir, const std::string& top, const std::vector<Params>& sets) {
  const std::string root = HIFSIM_SOURCE_DIR;
  const std::string srcs = sh("ROOT='" + root + "' bash -c 'source \"$ROOT/scripts/rtl_files.sh\" && unit_sources " + top + "'");
  const std::string tmp = ::testing::TempDir() + "/hw_" + top;
  std::string script = "read_verilog -sv " + srcs + "; design -save base; ";
  for (size_t i = 0; i < sets.size(); ++i) {
    script += "design -load base; ";
    for (const auto& [k, v] : sets[i]) script += "chparam -set " + k + " " + std::to_string(v) + " " + top + "; ";
    script += "hierarchy -check -top " + top + "; write_rtlil " + tmp + "_" + std::to_string(i) + ".il; ";
  }
  sh("cd '" + rtl_dir + "' && '" HIFSIM_YOSYS "' -q -p \"" + script + "\" 2>&1 | grep -v '^Warning: Replacing memory' || true");
  std::vector<Elab> out;
  for (size_t i = 0; i < sets.size(); ++i) {
    const std::string il = read_text(tmp + "_" + std::to_string(i) + ".il");
    EXPECT_FALSE(il.empty()) << top << ": Yosys wrote no design for parameter set " << i;
    Elab e;
    flatten(parse_rtlil(il), "\\" + top, "", e);
    out.push_back(e);
    std::remove((tmp + "_" + std::to_string(i) + ".il").c_str());
  }
  return out;
}

// Everything that differs between the description and the elaborated module.
std::vector<std::string> differences(const UnitDesc& d, const Elab& e) {
  std::vector<std::string> v;
  std::map<std::string, Rank> extra = e.ranks;
  for (int k = 1; k <= static_cast<int>(d.cuts.size()); ++k) {
    const Cut& c = d.cuts[static_cast<size_t>(k - 1)];
    const auto it = e.ranks.find(c.rtl_instance);
    if (it == e.ranks.end()) {
      v.push_back("cut " + std::to_string(k) + " (after " + c.after + "): no hifsim_pipe_reg " + c.rtl_instance);
      continue;
    }
    extra.erase(c.rtl_instance);
    if (it->second.en != d.cut_on(k))
      v.push_back(c.rtl_instance + ": EN=" + std::to_string(it->second.en) + " in the RTL, the description says " +
                  (d.cut_on(k) ? "a rank" : "no rank") + " at STAGES=" + std::to_string(d.stages));
    if (it->second.w != c.bits)
      v.push_back(c.rtl_instance + ": W=" + std::to_string(it->second.w) + " in the RTL, " + std::to_string(c.bits) +
                  " bits in the description");
  }
  for (const auto& [inst, r] : extra) v.push_back(inst + ": a pipeline rank (W=" + std::to_string(r.w) + ") the description does not have");
  for (const RtlSignal& s : d.rtl_signals) {
    const auto it = e.wires.find(s.name);
    if (it == e.wires.end()) v.push_back("signal " + s.name + " not found");
    else if (it->second != s.width)
      v.push_back("signal " + s.name + ": " + std::to_string(it->second) + " bits in the RTL, " + std::to_string(s.width) +
                  " in the description");
  }
  return v;
}

std::string params_str(const Params& p) {
  std::string s;
  for (const auto& [k, v] : p) s += (s.empty() ? "" : ";") + k + "=" + std::to_string(v);
  return s.empty() ? "(defaults)" : s;
}

// The unit catalog's drift sets (model/datapath/hw_catalog.cpp): the defaults without chparam,
// every STAGES value, and the corner sets. hifsim_aligned_dot is the slow one to elaborate (3-4 s
// at 64 lanes): its STAGES sweep runs once, on hif8_dot with 16 lanes; bf16_dot64 is the same
// datapath and cut rule.
std::vector<Params> cases(const NamedUnit& u) {
  std::vector<Params> v;
  for (const VariantSet& s : catalog_unit(u.name).of(Purpose::drift)) v.push_back(s.params);
  return v;
}

}  // namespace

TEST(UnitRtl, EveryUnitHasItsDescribedRanksAndWidths) {
  const std::string rtl = std::string(HIFSIM_SOURCE_DIR) + "/rtl";
  int checked = 0;
  for (const NamedUnit& u : all_units()) {
    if (u.desc.rtl_top.empty()) continue;
    const std::vector<Params> sets = cases(u);
    const std::vector<Elab> elabs = elaborate(rtl, u.name, sets);
    for (size_t i = 0; i < sets.size() && i < elabs.size(); ++i) {
      const UnitDesc d = unit_by_name(u.name, sets[i]);
      for (const std::string& m : differences(d, elabs[i])) ADD_FAILURE() << u.name << " " << params_str(sets[i]) << ": " << m;
      ++checked;
    }
  }
  EXPECT_GE(checked, 35);
}

// The test catches drift: a width typed into the module and a cut moved off the package's rule.
TEST(UnitRtl, MutantsAreCaught) {
  const std::string tmp = ::testing::TempDir() + "/hw_mutant_rtl";
  sh("rm -rf '" + tmp + "' && cp -r '" HIFSIM_SOURCE_DIR "/rtl' '" + tmp + "'");
  const std::string file = tmp + "/nvfp4_dot64.sv";
  const std::string orig = read_text(file);
  struct Mutant {
    const char *from, *to;
    int stages;
    const char* expect;  // a word of the reported difference
  };
  const Mutant mutants[] = {
      {"localparam int WPA = hifsim_pkg::NV_W_PARTIAL;", "localparam int WPA = 21;", 3, "W="},
      {"hifsim_pkg::nvfp4_dot64_cut(STAGES, 3)", "(STAGES >= 2)", 2, "EN="},
  };
  for (const Mutant& m : mutants) {
    std::string s = orig;
    const size_t at = s.find(m.from);
    ASSERT_NE(at, std::string::npos) << "mutation site gone: " << m.from;
    s.replace(at, std::string(m.from).size(), m.to);
    std::ofstream(file) << s;
    const Elab e = elaborate(tmp, "nvfp4_dot64", {{{"STAGES", m.stages}}}).front();
    const std::vector<std::string> diff = differences(unit_by_name("nvfp4_dot64", {{"STAGES", m.stages}}), e);
    bool found = false;
    for (const std::string& d : diff) found |= d.find(m.expect) != std::string::npos;
    EXPECT_TRUE(found) << "mutant '" << m.to << "' was not caught";
    for (const std::string& d : diff) std::printf("mutant '%s': %s\n", m.to, d.c_str());
  }
  sh("rm -rf '" + tmp + "'");
}
