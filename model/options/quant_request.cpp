#include "options/quant_request.hpp"

namespace hifsim::opt {

const Options<fmt::QuantOptions>& code_options() {
  using Q = fmt::QuantOptions;
  static const Options<Q> rows = {
      {"rounding", "MODE",
       "element rounding: rne | away | rz | stochastic | hybrid (default: the format's own: away for hif8/hif4/s1p2, rne otherwise)",
       std::nullopt,
       [](Q& o, const Value& v) {
         const auto r = fmt::parse_rounding(v.text());
         if (!r) v.fail("'" + v.shown() + "' is not one of rne, away, rz, stochastic, hybrid");
         o.rounding = *r;
       }},
      {"saturate", "", "hif8/fp8: overflow and Inf to +-max finite instead of Inf/NaN", std::nullopt,
       [](Q& o, const Value& v) { o.saturate = v.flag(); }},
      {"seed", "N", "seed of the stochastic-rounding stream (keyed by seed, format, flat index)", "0",
       [](Q& o, const Value& v) { o.seed = v.u64(); }},
      {"hybrid-compare", "C", "hif8 hybrid rounding: round up iff F14 >= T14 (ge) or > (gt)", "ge",
       [](Q& o, const Value& v) { o.hybrid_strict = one_of<bool>(v, {{"ge", false}, {"gt", true}}); }},
      {"hybrid-threshold", "T",
       "hif8 hybrid rounding threshold T14: input (its own low 14 fraction bits, the published model) | "
       "seeded (14 bits from the --seed stream)",
       "input",
       [](Q& o, const Value& v) {
         o.hybrid_threshold = one_of<fmt::HybridThreshold>(v, {{"input", fmt::HybridThreshold::input}, {"seeded", fmt::HybridThreshold::seeded}});
       }},
      {"threads", "N", "worker threads, 0 = all cores (results do not depend on it)", "0",
       [](Q& o, const Value& v) { o.threads = static_cast<unsigned>(v.integer(0, 1024)); }},
  };
  return rows;
}

const Options<fmt::QuantOptions>& quant_options() {
  using Q = fmt::QuantOptions;
  static const Options<Q> rows = [] {
    Options<Q> r = code_options();
    r.push_back({"nvfp4-recipe", "R", "nvfp4 scale recipe: te (TransformerEngine) | torchao", "te", [](Q& o, const Value& v) {
                   o.nvfp4_recipe = one_of<fmt::NvfpRecipe>(v, {{"te", fmt::NvfpRecipe::te}, {"torchao", fmt::NvfpRecipe::torchao}});
                 }});
    r.push_back({"hif4-compare", "C", "hif4 level-2/3 threshold compare: exact | bf16 (PTO A6 golden)", "exact",
                 [](Q& o, const Value& v) {
                   o.hif4_compare = one_of<fmt::Hif4Compare>(v, {{"exact", fmt::Hif4Compare::exact}, {"bf16", fmt::Hif4Compare::bf16_rounded}});
                 }});
    r.push_back({"hif4-inf", "I", "hif4 Inf inputs: saturate | nan", "saturate",
                 [](Q& o, const Value& v) { o.hif4_inf_to_nan = one_of<bool>(v, {{"saturate", false}, {"nan", true}}); }});
    r.push_back({"mx-scale", "S", "MX shared-exponent rule: floor (OCP) | ceil", "floor", [](Q& o, const Value& v) {
                   o.mx_scale_rule = one_of<fmt::MxScaleRule>(v, {{"floor", fmt::MxScaleRule::floor}, {"ceil", fmt::MxScaleRule::ceil}});
                 }});
    return r;
  }();
  return rows;
}

}  // namespace hifsim::opt
