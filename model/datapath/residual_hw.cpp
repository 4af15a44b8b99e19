// The hardware of the dedicated residual unit (residual.hpp, docs/cost.md "Residual array"):
// the format's dot unit with half its lanes (2:4) or all of them (dense, top50), plus the 2:4
// select multiplexers.
#include <algorithm>

#include "datapath/hw.hpp"
#include "datapath/residual.hpp"

namespace hifsim::dp::hw {

UnitDesc describe_residual(const DotParams& p, ResidualKind kind) {
  DotParams comb = p;
  comb.stages = 0;  // the residual unit's registers are not costed separately
  const UnitDesc dot = describe_dot(comb);
  UnitDesc d;
  d.label = dot.label + " residual (" + residual_name(kind) + ")";
  d.cut_masks = {0};
  for (Component c : dot.parts) {
    if (c.kind == Kind::reg) continue;
    if (kind == ResidualKind::sparse24 && c.per_lane) {
      if (c.kind == Kind::tree) {
        c.p1 = std::max(2, c.p1 / 2);  // group trees see half the products
      } else {
        c.count = std::max(1, c.count / 2);
      }
    }
    c.name = "r." + c.name;
    d.parts.push_back(c);
  }
  if (kind == ResidualKind::sparse24)
    d.parts.push_back({"r.select", Kind::mux, 5, 4, p.lanes / 2, false, true, "2:4 select of the weight element by its 2-bit index"});
  d.operand_bits = dot.operand_bits;
  return d;
}

}  // namespace hifsim::dp::hw
