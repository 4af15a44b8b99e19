// hifsim units: the hardware descriptions of the datapath units (model/datapath/*_hw.cpp, docs/
// datapath.md "Hardware descriptions"): the list of units, the generated section of
// rtl/hifsim_pkg.sv and the stage / cut tables of docs/datapath.md, printed or rewritten in place.
#include <iostream>

#include "args.hpp"
#include "command.hpp"
#include "datapath/catalog_text.hpp"
#include "datapath/hw.hpp"
#include "datapath/hw_text.hpp"
#include "io/input_file.hpp"
#include "io/npy.hpp"

namespace {
using namespace hifsim;

int run(const std::vector<std::string>& args, const std::vector<std::string>&) {
  cli::ArgParser p("hifsim units [--json | --consumers | --sv-package | --tables | --update FILE]",
                   "The datapath units' hardware descriptions (components, widths, pipeline cut tables), written\n"
                   "once in model/datapath. Without options: every unit with its RTL parameters and register\n"
                   "ranks. rtl/hifsim_pkg.sv's generated section and docs/datapath.md's stage tables are printed\n"
                   "from them; tests fail when the committed files differ (rewrite them with --update).\n"
                   "The unit catalog (model/datapath/unit_catalog.hpp) is the one list of unit variants: --json\n"
                   "prints it, and the variant lists of the flows (scripts/synth.sh, rtl/CMakeLists.txt, the cosim\n"
                   "top, ...) are generated from it (--update FILE).");
  p.flag("json", "print the unit catalog: parameters, defaults, ranges, variant sets per purpose, proxy configs");
  p.flag("consumers", "print the files generated from the unit catalog (for --update), one a line");
  p.flag("sv-package", "print the generated section of rtl/hifsim_pkg.sv");
  p.flag("tables", "print every unit's stage and cut tables (docs/datapath.md)");
  p.option("update", "FILE",
           "rewrite the generated parts of FILE in place: rtl/hifsim_pkg.sv, docs/datapath.md or a file\n"
           "listing unit variants (scripts/synth.sh, scripts/cost_synth.sh, rtl/CMakeLists.txt,\n"
           "cosim/common/cosim_top.sv, cosim/tlm_calibration/CMakeLists.txt, formal/jobs.py and the sky130\n"
           "flow's python/hifsim_flows/pdk/report_tables.py and stimulus.py; --consumers lists them)");
  p.epilog("Examples:\n  hifsim units\n  hifsim units --json\n  hifsim units --update scripts/synth.sh\n  hifsim units --update rtl/hifsim_pkg.sv\n  hifsim units --update docs/datapath.md\n"
           "  hifsim cost --inventory --unit hif8_dot --set N=16,W=24   (the costed components)");
  if (!p.parse(args)) return 0;
  if (p.is_set("json")) {
    std::cout << dp::hw::catalog_json();
    return 0;
  }
  if (p.is_set("consumers")) {
    for (const std::string& f : dp::hw::catalog_consumers()) std::cout << f << "\n";
    return 0;
  }
  if (p.is_set("sv-package")) {
    std::cout << dp::hw::sv_package_section();
    return 0;
  }
  if (p.is_set("tables")) {
    for (const auto& u : dp::hw::all_units()) std::cout << "## " << u.name << "\n" << dp::hw::unit_doc_block(u) << "\n";
    return 0;
  }
  if (p.has("update")) {
    const std::string f = p.get("update"), text = io::read_regular_file(f, 16u << 20, "a package or a docs page is never that large");
    const bool pkg = f.size() >= 3 && f.compare(f.size() - 3, 3, ".sv") == 0;
    const std::string out = dp::hw::is_catalog_consumer(f) ? dp::hw::updated_consumer(f, text)
                            : pkg                          ? dp::hw::updated_package(text, f)
                                                           : dp::hw::updated_datapath_doc(text, f);
    if (out == text) {
      std::cerr << "hifsim units: " << f << " is up to date\n";
      return 0;
    }
    io::write_file_atomic(f, out);
    std::cerr << "hifsim units: rewrote the generated parts of " << f << "\n";
    return 0;
  }
  std::cout << "unit,rtl_parameters,max_stages,label\n";
  for (const auto& u : dp::hw::all_units()) {
    std::string ps;
    for (const auto& x : u.desc.rtl_params) ps += (ps.empty() ? "" : ";") + x.name + "=" + std::to_string(x.value);
    std::cout << u.name << "," << ps << "," << u.desc.max_stages() << "," << u.desc.label << "\n";
  }
  return 0;
}
}  // namespace

HIFSIM_COMMAND("units", "the datapath units' hardware descriptions; generated package section and stage tables", run);
