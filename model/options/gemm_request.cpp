#include "options/gemm_request.hpp"

#include "options/quant_request.hpp"
#include "util/error.hpp"

namespace hifsim::opt {

const Options<GemmOptions>& gemm_options() {
  using G = GemmOptions;
  static const Options<G> rows = [] {
    Options<G> r = {
        {"acc", "A", "accumulator: fp32 | fp32-m<bits>-rz | fp32-m<bits>-rne | kulisch", "fp32",
         [](G& o, const Value& v) { o.acc = dp::AccSpec::parse(v.text()); }},
        {"align-width", "W", "hif8/bf16 alignment window in bits, 0 = exact (default: hif8 0, bf16 64)", std::nullopt,
         [](G& o, const Value& v) { o.align_width = static_cast<int>(v.integer(0, 120)); }},
        {"align-policy", "P", "hif8/bf16 bits below the window: trunc | sticky (default: hif8 trunc, bf16 sticky)",
         std::nullopt,
         [](G& o, const Value& v) {
           o.align_policy = one_of<dp::AlignPolicy>(v, {{"trunc", dp::AlignPolicy::trunc}, {"sticky", dp::AlignPolicy::sticky}});
         }},
        {"hif8-lanes", "N", "HiF8 dot-product width: 16 | 32 | 64", "64",
         [](G& o, const Value& v) { o.hif8_lanes = static_cast<int>(v.integer(1, 1024)); }},
        {"kernel", "K",
         "auto | portable | avx2 | avxvnni | avx512 | amx | reference (all give the same bits; auto: HIFSIM_KERNEL, else the fastest this CPU runs)",
         "auto", [](G& o, const Value& v) { o.kernel = dp::parse_gemm_kernel(v.text()); }},
        {"rht", "N", "random Hadamard transform of both operands along K in blocks of N: 0 (off) | 16 | 32 | 64", "0",
         [](G& o, const Value& v) {
           o.rht.n = static_cast<unsigned>(v.integer(0, 64));
           // The size alone here; K is checked against it per GEMM (fmt::validate_rht).
           if (o.rht.n != 0 && o.rht.n != 16 && o.rht.n != 32 && o.rht.n != 64) v.fail("must be 16, 32 or 64 (0 = off)");
         }},
        {"rht-seed", "S", "seed of the Hadamard sign vector (docs/training.md)", "0",
         [](G& o, const Value& v) { o.rht.seed = v.u64(); }},
        {"rht-signs", "R", "Hadamard signs: random (from --rht-seed) | none (plain Hadamard)", "random",
         [](G& o, const Value& v) { o.rht.signs = one_of<fmt::RhtSigns>(v, {{"random", fmt::RhtSigns::random}, {"none", fmt::RhtSigns::none}}); }},
    };
    append(r, quant_options(), &G::quant);
    return r;
  }();
  return rows;
}

dp::GemmSpec gemm_spec(const GemmOptions& o, fmt::Format f) {
  dp::GemmSpec s;
  s.format = f;
  s.quant = o.quant;
  s.threads = o.quant.threads;
  s.acc = o.acc;
  s.hif8_lanes = o.hif8_lanes;
  if (o.align_width || o.align_policy) {
    if (f != fmt::Format::hif8 && f != fmt::Format::bf16)
      throw Error(o.spelling.where, o.spelling.field(o.align_width ? "align-width" : "align-policy"),
                  "applies only to hif8 and bf16");
    s.align = dp::default_align(f);
    s.align_set = true;
    if (o.align_width) s.align.width = *o.align_width;
    if (o.align_policy) s.align.policy = *o.align_policy;
  }
  s.kernel = o.kernel;
  s.rht = o.rht;
  dp::validate(s);
  return s;
}

const Options<dp::ResidualSpec>& residual_options() {
  using R = dp::ResidualSpec;
  static const Options<R> rows = {
      {"residual", "R", "Rollout-ResQ residual correction: none | dense | 2:4 | top50", "none",
       [](R& r, const Value& v) {
         r.kind = one_of<dp::ResidualKind>(v, {{"none", dp::ResidualKind::none}, {"dense", dp::ResidualKind::dense},
                             {"2:4", dp::ResidualKind::sparse24}, {"top50", dp::ResidualKind::top50}});
       }},
      {"residual-mode", "M", "residual accumulation: unfused (two GEMMs + one FP32 add) | fused", "unfused",
       [](R& r, const Value& v) { r.mode = one_of<dp::ResidualMode>(v, {{"unfused", dp::ResidualMode::unfused}, {"fused", dp::ResidualMode::fused}}); }},
  };
  return rows;
}

}  // namespace hifsim::opt
