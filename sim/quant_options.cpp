#include "quant_options.hpp"

#include "formats/codes.hpp"
#include "util/error.hpp"

namespace hifsim::cli {

namespace {
// The options quantize and encode share: rounding, saturation, seed, hybrid rule, threads.
void read_common(const ArgParser& p, fmt::QuantOptions& o) {
  if (p.has("rounding")) {
    auto r = fmt::parse_rounding(p.get("rounding"));
    if (!r) throw Error("command line", "--rounding", "'" + p.get("rounding") + "' is not one of rne, away, rz, stochastic, hybrid");
    o.rounding = *r;
  }
  o.saturate = p.is_set("saturate");
  o.seed = p.get_u64("seed");
  const std::string hc = p.get("hybrid-compare");
  if (hc == "ge") o.hybrid_strict = false;
  else if (hc == "gt") o.hybrid_strict = true;
  else throw Error("command line", "--hybrid-compare", "'" + hc + "' is not ge or gt");
  const std::string ht = p.get("hybrid-threshold");
  if (ht == "input") o.hybrid_threshold = fmt::HybridThreshold::input;
  else if (ht == "seeded") o.hybrid_threshold = fmt::HybridThreshold::seeded;
  else throw Error("command line", "--hybrid-threshold", "'" + ht + "' is not input or seeded");
  o.threads = static_cast<unsigned>(p.get_int("threads", 0, 1024));
}
}  // namespace

void add_code_options(ArgParser& p) {
  p.option("rounding", "MODE",
           "element rounding: rne | away | rz | stochastic | hybrid (default: the format's own: "
           "away for hif8/hif4/s1p2, rne otherwise)");
  p.flag("saturate", "hif8/fp8: overflow and Inf to +-max finite instead of Inf/NaN");
  p.option("seed", "N", "seed of the stochastic-rounding stream (keyed by seed, format, flat index)", std::string("0"));
  p.option("hybrid-compare", "C", "hif8 hybrid rounding: round up iff F14 >= T14 (ge) or > (gt)", std::string("ge"));
  p.option("hybrid-threshold", "T",
           "hif8 hybrid rounding threshold T14: input (its own low 14 fraction bits, the published model) | "
           "seeded (14 bits from the --seed stream)",
           std::string("input"));
  p.option("threads", "N", "worker threads, 0 = all cores (results do not depend on it)", std::string("0"));
}

void add_quant_options(ArgParser& p) {
  add_code_options(p);
  p.option("nvfp4-recipe", "R", "nvfp4 scale recipe: te (TransformerEngine) | torchao", std::string("te"));
  p.option("hif4-compare", "C", "hif4 level-2/3 threshold compare: exact | bf16 (PTO A6 golden)", std::string("exact"));
  p.option("hif4-inf", "I", "hif4 Inf inputs: saturate | nan", std::string("saturate"));
  p.option("mx-scale", "S", "MX shared-exponent rule: floor (OCP) | ceil", std::string("floor"));
}

fmt::QuantOptions read_code_options(const ArgParser& p, fmt::Format f) {
  fmt::QuantOptions o;
  read_common(p, o);
  fmt::validate_code_options(f, o);
  return o;
}

fmt::QuantOptions read_quant_options(const ArgParser& p) {
  fmt::QuantOptions o;
  read_common(p, o);
  const std::string rec = p.get("nvfp4-recipe");
  if (rec == "te") o.nvfp4_recipe = fmt::NvfpRecipe::te;
  else if (rec == "torchao") o.nvfp4_recipe = fmt::NvfpRecipe::torchao;
  else throw Error("command line", "--nvfp4-recipe", "'" + rec + "' is not te or torchao");
  const std::string cmp = p.get("hif4-compare");
  if (cmp == "exact") o.hif4_compare = fmt::Hif4Compare::exact;
  else if (cmp == "bf16") o.hif4_compare = fmt::Hif4Compare::bf16_rounded;
  else throw Error("command line", "--hif4-compare", "'" + cmp + "' is not exact or bf16");
  const std::string inf = p.get("hif4-inf");
  if (inf == "saturate") o.hif4_inf_to_nan = false;
  else if (inf == "nan") o.hif4_inf_to_nan = true;
  else throw Error("command line", "--hif4-inf", "'" + inf + "' is not saturate or nan");
  const std::string mx = p.get("mx-scale");
  if (mx == "floor") o.mx_scale_rule = fmt::MxScaleRule::floor;
  else if (mx == "ceil") o.mx_scale_rule = fmt::MxScaleRule::ceil;
  else throw Error("command line", "--mx-scale", "'" + mx + "' is not floor or ceil");
  return o;
}

}  // namespace hifsim::cli
