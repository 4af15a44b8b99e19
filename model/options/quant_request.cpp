#include "options/quant_request.hpp"

#include "formats/mx.hpp"
#include "util/error.hpp"

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
      {"seed", "N",
       "seed of the stochastic-rounding stream (Threefry-2x32-20 keyed by seed, stream, flat index; docs/training.md)",
       "0", [](Q& o, const Value& v) { o.seed = v.u64(); }},
      {"sr-bits", "B", "stochastic rounding: random bits per element, 1..32", "8",
       [](Q& o, const Value& v) { o.sr_bits = static_cast<unsigned>(v.integer(1, 32)); }},
      {"sr-stream", "ID", "stochastic rounding: the tensor's stream id (gemm: A takes ID, B takes ID + 1)", "0",
       [](Q& o, const Value& v) { o.sr_stream = static_cast<uint32_t>(v.integer(0, 0xFFFFFFFEll)); }},
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
    // hif4-convention before hif4-compare: an explicit exact compare conflicts with ascend-a6.
    r.push_back({"hif4-convention", "C",
                 "hif4 reference: official (HiFloat4 repository) | ascend-a6 (PTO-ISA A6 TQuant golden: rne "
                 "elements, bf16 compare, bf16-rounded scaled elements, E6M2 0x00 = 0); docs/formats.md",
                 "official", [](Q& o, const Value& v) {
                   o.hif4_convention = one_of<fmt::Hif4Convention>(
                       v, {{"official", fmt::Hif4Convention::official}, {"ascend-a6", fmt::Hif4Convention::ascend_a6}});
                 }});
    r.push_back({"hif4-compare", "C", "hif4 level-2/3 threshold compare: exact (default) | bf16 (PTO A6 golden)",
                 std::nullopt, [](Q& o, const Value& v) {
                   o.hif4_compare = one_of<fmt::Hif4Compare>(v, {{"exact", fmt::Hif4Compare::exact}, {"bf16", fmt::Hif4Compare::bf16_rounded}});
                   if (o.hif4_convention == fmt::Hif4Convention::ascend_a6 && o.hif4_compare == fmt::Hif4Compare::exact)
                     v.fail("exact conflicts with " + v.field_of("hif4-convention") + " ascend-a6 (bf16 compare); leave it out");
                 }});
    r.push_back({"hif4-inf", "I", "hif4 Inf inputs: saturate | nan", "saturate",
                 [](Q& o, const Value& v) { o.hif4_inf_to_nan = one_of<bool>(v, {{"saturate", false}, {"nan", true}}); }});
    // mx-convention before mx-scale: a preset sets the rule and the rounding, so either given too
    // is a conflict (rounding is read first, by the code options).
    r.push_back({"mx-convention", "C",
                 "MX preset (scale rule + element rounding): ocp | microxcaling | nvidia | torchao-ceil | torchao-even | "
                 "arcquant (docs/formats.md)",
                 std::nullopt, [](Q& o, const Value& v) {
                   std::string names;
                   for (const fmt::MxConvention& c : fmt::mx_conventions()) {
                     names += std::string(names.empty() ? "" : ", ") + c.name;
                     if (v.text() != c.name) continue;
                     if (o.rounding)
                       v.fail(v.text() + " sets the scale rule and the rounding; leave " + v.field_of("mx-scale") + " and " +
                              v.field_of("rounding") + " out");
                     o.mx_convention = c.name;
                     o.mx_scale_rule = c.rule;
                     o.rounding = c.rounding;
                   }
                   if (o.mx_convention.empty()) v.fail("'" + v.text() + "' is not one of " + names);
                 }});
    r.push_back({"mx-scale", "S", "MX shared-exponent rule: floor (OCP, default) | ceil | rceil (NVIDIA) | pow2-ceil | even",
                 std::nullopt, [](Q& o, const Value& v) {
                   if (!o.mx_convention.empty())  // named as the preset's conflict, as the rounding's is
                     throw Error(v.where(), v.field_of("mx-convention"),
                                 o.mx_convention + " sets the scale rule and the rounding; leave " + v.field() + " and " +
                                     v.field_of("rounding") + " out");
                   o.mx_scale_rule = one_of<fmt::MxScaleRule>(
                       v, {{"floor", fmt::MxScaleRule::floor}, {"ceil", fmt::MxScaleRule::ceil}, {"rceil", fmt::MxScaleRule::rceil},
                           {"pow2-ceil", fmt::MxScaleRule::pow2_ceil}, {"even", fmt::MxScaleRule::even}});
                 }});
    r.push_back({"nvfp4-2d", "", "nvfp4: 16 x 16 blocks (one E4M3 scale per 16 rows x 16 columns, the weight recipe)",
                 std::nullopt, [](Q& o, const Value& v) { o.nvfp4_2d = v.flag(); }});
    r.push_back({"nvfp4-tensor-scale", "on|off", "nvfp4: the FP32 per-tensor amax scale (off: single-level scaling)", "on",
                 [](Q& o, const Value& v) { o.nvfp4_tensor_scale = one_of<bool>(v, {{"on", true}, {"off", false}}); }});
    return r;
  }();
  return rows;
}

}  // namespace hifsim::opt
