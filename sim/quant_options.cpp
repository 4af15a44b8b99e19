#include "quant_options.hpp"

#include "formats/codes.hpp"
#include "util/error.hpp"

namespace hifsim::cli {

namespace {
// The options quantize and encode share: rounding, saturation, seed, hybrid rule, threads.
// A two-way option: the value named a or b, else the error "'V' is not a or b".
template <class T>
T one_of_two(const ArgParser& p, const std::string& name, const char* a, T va, const char* b, T vb) {
  const std::string v = p.get(name);
  if (v == a) return va;
  if (v == b) return vb;
  throw Error("command line", "--" + name, "'" + v + "' is not " + a + " or " + b);
}

void read_common(const ArgParser& p, fmt::QuantOptions& o) {
  if (p.has("rounding")) {
    auto r = fmt::parse_rounding(p.get("rounding"));
    if (!r) throw Error("command line", "--rounding", "'" + p.get("rounding") + "' is not one of rne, away, rz, stochastic, hybrid");
    o.rounding = *r;
  }
  o.saturate = p.is_set("saturate");
  o.seed = p.get_u64("seed");
  o.sr_bits = static_cast<unsigned>(p.get_int("sr-bits", 1, 32));
  o.sr_stream = static_cast<uint32_t>(p.get_int("sr-stream", 0, 0xFFFFFFFEll));
  o.hybrid_strict = one_of_two(p, "hybrid-compare", "ge", false, "gt", true);
  o.hybrid_threshold =
      one_of_two(p, "hybrid-threshold", "input", fmt::HybridThreshold::input, "seeded", fmt::HybridThreshold::seeded);
  o.threads = static_cast<unsigned>(p.get_int("threads", 0, 1024));
}
}  // namespace

void add_code_options(ArgParser& p) {
  p.option("rounding", "MODE",
           "element rounding: rne | away | rz | stochastic | hybrid (default: the format's own: "
           "away for hif8/hif4/s1p2, rne otherwise)");
  p.flag("saturate", "hif8/fp8: overflow and Inf to +-max finite instead of Inf/NaN");
  p.option("seed", "N", "seed of the stochastic-rounding stream (Threefry-2x32-20 keyed by seed, stream, flat index; "
           "docs/training.md)", std::string("0"));
  p.option("sr-bits", "B", "stochastic rounding: random bits per element, 1..32", std::string("8"));
  p.option("sr-stream", "ID", "stochastic rounding: the tensor's stream id (gemm: A takes ID, B takes ID + 1)",
           std::string("0"));
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
  p.option("hif4-compare", "C", "hif4 level-2/3 threshold compare: exact (default) | bf16 (PTO A6 golden)");
  p.option("hif4-convention", "C",
           "hif4 reference: official (HiFloat4 repository) | ascend-a6 (PTO-ISA A6 TQuant golden: rne "
           "elements, bf16 compare, bf16-rounded scaled elements, E6M2 0x00 = 0); docs/formats.md",
           std::string("official"));
  p.option("hif4-inf", "I", "hif4 Inf inputs: saturate | nan", std::string("saturate"));
  p.option("mx-scale", "S", "MX shared-exponent rule: floor (OCP, default) | ceil | rceil (NVIDIA) | pow2-ceil | even");
  p.option("mx-convention", "C",
           "MX preset (scale rule + element rounding): ocp | microxcaling | nvidia | torchao-ceil | torchao-even | "
           "arcquant (docs/formats.md)");
  p.flag("nvfp4-2d", "nvfp4: 16 x 16 blocks (one E4M3 scale per 16 rows x 16 columns, the weight recipe)");
  p.option("nvfp4-tensor-scale", "on|off", "nvfp4: the FP32 per-tensor amax scale (off: single-level scaling)",
           std::string("on"));
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
  o.nvfp4_recipe = one_of_two(p, "nvfp4-recipe", "te", fmt::NvfpRecipe::te, "torchao", fmt::NvfpRecipe::torchao);
  if (p.has("hif4-compare"))
    o.hif4_compare = one_of_two(p, "hif4-compare", "exact", fmt::Hif4Compare::exact, "bf16", fmt::Hif4Compare::bf16_rounded);
  o.hif4_convention = one_of_two(p, "hif4-convention", "official", fmt::Hif4Convention::official, "ascend-a6",
                                 fmt::Hif4Convention::ascend_a6);
  if (o.hif4_convention == fmt::Hif4Convention::ascend_a6 && o.hif4_compare == fmt::Hif4Compare::exact &&
      p.has("hif4-compare"))
    throw Error("command line", "--hif4-compare", "exact conflicts with --hif4-convention ascend-a6 (bf16 compare); leave it out");
  o.hif4_inf_to_nan = one_of_two(p, "hif4-inf", "saturate", false, "nan", true);
  if (p.has("mx-scale")) {
    const std::string v = p.get("mx-scale");
    bool found = false;
    for (fmt::MxScaleRule r : {fmt::MxScaleRule::floor, fmt::MxScaleRule::ceil, fmt::MxScaleRule::rceil,
                               fmt::MxScaleRule::pow2_ceil, fmt::MxScaleRule::even})
      if (v == fmt::mx_scale_rule_name(r)) o.mx_scale_rule = r, found = true;
    if (!found) throw Error("command line", "--mx-scale", "'" + v + "' is not floor, ceil, rceil, pow2-ceil or even");
  }
  if (p.has("mx-convention")) {
    const std::string v = p.get("mx-convention");
    std::string names;
    for (const fmt::MxConvention& c : fmt::mx_conventions()) {
      names += std::string(names.empty() ? "" : ", ") + c.name;
      if (v != c.name) continue;
      if (p.has("mx-scale") || p.has("rounding"))
        throw Error("command line", "--mx-convention", v + " sets the scale rule and the rounding; leave --mx-scale and --rounding out");
      o.mx_convention = c.name;
      o.mx_scale_rule = c.rule;
      o.rounding = c.rounding;
    }
    if (o.mx_convention.empty()) throw Error("command line", "--mx-convention", "'" + v + "' is not one of " + names);
  }
  o.nvfp4_2d = p.is_set("nvfp4-2d");
  o.nvfp4_tensor_scale = one_of_two(p, "nvfp4-tensor-scale", "on", true, "off", false);
  return o;
}

}  // namespace hifsim::cli
