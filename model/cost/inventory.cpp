#include "cost/inventory.hpp"

#include <cstdlib>
#include <sstream>

#include "gemm/gemm_unit.hpp"
#include "util/error.hpp"
#include "util/text.hpp"

namespace hifsim::cost {

UnitSpec default_unit_spec(fmt::Format f, int stages) {
  UnitSpec s;
  static_cast<dp::hw::DotParams&>(s) = dp::hw::default_dot_params(f, stages);
  return s;
}

UnitSpec unit_spec(const cfg::UnitConfig& u) {
  const std::string where = u.source.empty() ? u.name : u.source;
  UnitSpec s;
  static_cast<dp::hw::DotParams&>(s) = dp::hw::dot_params(u.gemm_spec(), static_cast<int>(u.pipeline_depth) - 1);
  const dp::hw::UnitDesc d = dp::hw::describe_dot(s);
  if (u.pipeline_depth < 1 || static_cast<int>(u.pipeline_depth) - 1 > d.max_stages())
    throw Error(where, "pe.pipeline_depth",
                "the cost model knows 0.." + std::to_string(d.max_stages()) + " dot-unit register ranks (pipeline_depth 1.." +
                    std::to_string(d.max_stages() + 1) + "), got " + std::to_string(u.pipeline_depth));
  const auto [field, why] = dp::hw::dot_unit(s.format).unsupported(s);
  if (!field.empty()) throw Error(where, field, why);
  s.acc = u.acc;
  if (u.acc.kind == dp::AccSpec::kulisch)
    throw Error(where, "pe.accumulator", "kulisch: the cost model has no area/energy model of the 768-bit accumulator");
  return s;
}

int operand_bits(const UnitSpec& s) { return dp::hw::describe_dot(s).operand_bits; }

std::vector<Component> dot_inventory(const UnitSpec& s) { return dp::hw::inventory(dp::hw::describe_dot(s)); }

std::vector<Component> acc_inventory(const UnitSpec& s) { return dp::hw::describe_acc(s.acc).parts; }

std::vector<Component> quantizer_inventory(fmt::Format f, int lanes) { return dp::hw::describe_quantizer(f, lanes).parts; }

std::vector<Component> residual_inventory(const UnitSpec& s, dp::ResidualKind kind) {
  return dp::hw::describe_residual(s, kind).parts;
}

double inventory_ge(const AreaCoeffs& c, const std::vector<Component>& inv, bool baseline_only, bool exclude_regs) {
  double g = 0;
  for (const Component& x : inv) {
    if (baseline_only && !x.baseline) continue;
    if (exclude_regs && x.kind == Cls::reg) continue;
    g += x.count * component_ge(c, x.kind, x.p1, x.p2);
  }
  return g;
}

std::vector<std::pair<std::string, int>> parse_unit_params(const std::vector<std::string>& kv) {
  std::vector<std::pair<std::string, int>> v;
  for (const std::string& x : kv) {
    const size_t eq = x.find('=');
    char* end = nullptr;
    const long n = eq == std::string::npos ? 0 : std::strtol(x.c_str() + eq + 1, &end, 10);
    if (eq == std::string::npos || eq == 0 || eq + 1 == x.size() || *end != '\0' || n < -1000000 || n > 1000000)
      throw Error("--set", x, "expected NAME=INTEGER (an RTL parameter of the unit, e.g. STAGES=3)");
    v.emplace_back(x.substr(0, eq), static_cast<int>(n));
  }
  return v;
}

std::vector<InventoryRow> inventory_rows(const AreaCoeffs& c, const std::string& unit,
                                         const std::vector<std::pair<std::string, int>>& params) {
  if (unit.empty()) {
    if (!params.empty()) throw Error("--set", params.front().first, "needs --unit (the parameters are a unit's)");
    std::vector<InventoryRow> all;
    for (const dp::hw::NamedUnit& u : dp::hw::all_units())
      for (InventoryRow& r : inventory_rows(c, u.name, {})) all.push_back(std::move(r));
    return all;
  }
  const dp::hw::UnitDesc d = dp::hw::unit_by_name(unit, params);
  std::string ps;
  for (const dp::hw::RtlParam& p : d.rtl_params) ps += (ps.empty() ? "" : ";") + p.name + "=" + std::to_string(p.value);
  std::vector<InventoryRow> rows;
  for (const Component& x : dp::hw::inventory(d)) {
    InventoryRow r;
    r.unit = unit;
    r.parameters = ps.empty() ? "-" : ps;
    r.c = x;
    if (x.name.rfind("pipe.c", 0) == 0) {
      r.cut = std::stoi(x.name.substr(6));
      r.after = d.cuts[static_cast<size_t>(r.cut - 1)].after;
    }
    r.ge_each = component_ge(c, x.kind, x.p1, x.p2);
    r.ge = x.count * r.ge_each;
    rows.push_back(r);
  }
  return rows;
}

std::string inventory_csv(const std::vector<InventoryRow>& rows) {
  std::ostringstream o;
  o << "unit,parameters,component,class,p1,p2,count,cut,after,shared,ge_each,ge,what\n";
  for (const InventoryRow& r : rows) {
    std::string what = r.c.what;
    for (char& ch : what)
      if (ch == ',') ch = ';';  // one field, no quoting
    o << r.unit << "," << r.parameters << "," << r.c.name << "," << dp::hw::kind_name(r.c.kind) << "," << r.c.p1 << "," << r.c.p2
      << "," << r.c.count << "," << r.cut << "," << r.after << "," << (r.c.baseline ? "yes" : "no") << "," << fmt_g(r.ge_each, 6)
      << "," << fmt_g(r.ge, 6) << "," << what << "\n";
  }
  return o.str();
}

}  // namespace hifsim::cost
