// The unit catalog (model/datapath/unit_catalog.hpp) is the one list of unit variants: every file
// that lists variants holds exactly the part the catalog prints for it (`hifsim units --update
// FILE`), the catalog's defaults are the RTL modules', every set names only parameters the unit
// has, the RTL-to-config mapping gives the unit the catalog describes, and the calibration
// configs (configs/units/rtl/*.yaml) are the calibration sets' units.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "config/unit_config.hpp"
#include "datapath/catalog_text.hpp"
#include "datapath/hw.hpp"
#include "datapath/unit_catalog.hpp"
#include "gemm/gemm_unit.hpp"
#include "text_diff.hpp"
#include "util/error.hpp"

using namespace hifsim;
using namespace hifsim::dp::hw;
using hifsim::test::first_difference;
using hifsim::test::read_text;

namespace {

// HIFSIM_CATALOG_ROOT (environment) overrides the repository: used to show an edited consumer failing.
std::string root() {
  const char* e = std::getenv("HIFSIM_CATALOG_ROOT");
  return e && *e ? e : HIFSIM_SOURCE_DIR;
}

// The rtl_params of a description as a map, for comparing two descriptions' parameters.
std::map<std::string, int> params_of(const UnitDesc& d) {
  std::map<std::string, int> m;
  for (const RtlParam& p : d.rtl_params) m[p.name] = p.value;
  return m;
}

// The unit a unit config runs on: its dot unit (or, for `acc`, its accumulator).
UnitDesc config_unit(const cfg::UnitConfig& c, bool acc) {
  if (acc) return describe_acc(c.acc);
  return describe_dot(dot_params(c.gemm_spec(1), static_cast<int>(c.pipeline_depth) - 1));
}

}  // namespace

TEST(UnitCatalog, EveryConsumerIsGenerated) {
  for (const std::string& rel : catalog_consumers()) {
    const std::string text = read_text(root() + "/" + rel);
    const std::string want = updated_consumer(rel, text);
    EXPECT_TRUE(text == want) << rel << " differs from the unit catalog; run `hifsim units --update " << rel << "`\n"
                              << first_difference(text, want);
  }
}

TEST(UnitCatalog, AnEditedConsumerIsDetected) {
  const std::string rel = "scripts/synth.sh";
  std::string text = read_text(std::string(HIFSIM_SOURCE_DIR) + "/" + rel);
  const std::string from = " E5M2=1;STAGES=2\"";
  const size_t at = text.find(from);
  ASSERT_NE(at, std::string::npos);
  text.replace(at, from.size(), "\"");  // a variant dropped by hand
  EXPECT_NE(updated_consumer(rel, text), text);
  EXPECT_THROW(updated_consumer(rel, "UNITS=()\n"), Error);           // no markers
  EXPECT_THROW(updated_consumer("scripts/other.sh", text), Error);    // not a consumer
}

// The catalog's parameters are the RTL module's `parameter int` lines: names, order and defaults.
TEST(UnitCatalog, DefaultsAreTheRtlModules) {
  const std::regex param(R"(^\s*parameter\s+int\s+(\w+)\s*=\s*(-?\d+))");
  for (const CatalogUnit& u : unit_catalog()) {
    std::istringstream in(read_text(root() + "/rtl/" + u.name + ".sv"));
    std::vector<std::pair<std::string, int>> rtl, cat;
    for (std::string line; std::getline(in, line);)
      if (std::smatch m; std::regex_search(line, m, param)) rtl.emplace_back(m[1], std::stoi(m[2]));
    for (const ParamRange& p : u.params) cat.emplace_back(p.name, p.dflt);
    EXPECT_EQ(cat, rtl) << "rtl/" << u.name << ".sv";
  }
}

// Every set names parameters of its unit; the sets the model describes are in the ranges.
TEST(UnitCatalog, SetsAreValid) {
  for (const CatalogUnit& u : unit_catalog()) {
    EXPECT_FALSE(u.of(Purpose::drift).empty()) << u.name;
    for (const VariantSet& s : u.sets) {
      const std::string what = u.name + " " + purpose_name(s.purpose) + " " + param_text(s.params);
      for (const auto& [k, v] : s.params) EXPECT_NE(u.param(k), nullptr) << what << ": no parameter " << k;
      EXPECT_EQ(parse_param_text(param_text(s.params), "test"), s.params) << what;
      if (s.purpose == Purpose::lint) {
        EXPECT_FALSE(s.name.empty()) << what;
      }
      // lint and the cosim sweep also take windows past the described range (W=120)
      if (s.purpose != Purpose::lint && s.purpose != Purpose::sweep) {
        EXPECT_NO_THROW(unit_by_name(u.name, s.params)) << what;
      }
    }
  }
  EXPECT_THROW(parse_param_text("N=16;W", "x"), Error);
  EXPECT_THROW(parse_param_text("N=1x", "x"), Error);
}

// The RTL-to-config mapping (proxy_config) gives a unit config whose dot unit (or accumulator) has
// exactly the RTL parameters of the set's description: the flows price the unit they synthesised.
TEST(UnitCatalog, ProxyConfigsAreTheCatalogsUnits) {
  int checked = 0;
  for (const CatalogUnit& u : unit_catalog())
    for (const VariantSet& s : u.of(Purpose::synthesis)) {
      const auto pc = proxy_config(u.name, s.params);
      if (!pc) continue;
      const cfg::UnitConfig c = cfg::load_unit_config(std::string(HIFSIM_SOURCE_DIR) + "/" + pc->config, pc->sets);
      EXPECT_EQ(params_of(config_unit(c, pc->figure == "acc_add")), params_of(unit_by_name(u.name, s.params)))
          << u.name << " " << param_text(s.params);
      ++checked;
    }
  EXPECT_GE(checked, 40);
}

// configs/units/rtl/<pe>-{a,b}.yaml run the calibration set's unit (the parameters both have:
// the sparse PE's config names its dot unit, STAGES included).
TEST(UnitCatalog, CalibrationConfigsAreTheCatalogsUnits) {
  int checked = 0;
  for (const CatalogUnit& u : unit_catalog())
    for (const VariantSet& s : u.of(Purpose::calibration))
      for (const char* v : {"a", "b"}) {
        const std::string f = root() + "/configs/units/rtl/" + s.name + "-" + v + ".yaml";
        const std::map<std::string, int> want = params_of(unit_by_name(u.name, s.params));
        for (const auto& [k, x] : params_of(config_unit(cfg::load_unit_config(f), false))) {
          const auto it = want.find(k);
          if (it == want.end()) ADD_FAILURE() << f << ": the config's unit has " << k << ", " << u.name << " has not";
          else EXPECT_EQ(x, it->second) << f << ": " << k;
        }
        ++checked;
      }
  EXPECT_EQ(checked, 14);
}
