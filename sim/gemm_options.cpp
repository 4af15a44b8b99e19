#include "gemm_options.hpp"

#include "quant_options.hpp"
#include "util/error.hpp"
#include "util/text.hpp"

namespace hifsim::cli {

void add_gemm_options(ArgParser& p) {
  p.option("acc", "A", "accumulator: fp32 | fp32-m<bits>-rz | fp32-m<bits>-rne | kulisch", std::string("fp32"));
  p.option("align-width", "W", "hif8/bf16 alignment window in bits, 0 = exact (default: hif8 0, bf16 64)");
  p.option("align-policy", "P", "hif8/bf16 bits below the window: trunc | sticky (default: hif8 trunc, bf16 sticky)");
  p.option("hif8-lanes", "N", "HiF8 dot-product width: 16 | 32 | 64", std::string("64"));
  p.option("kernel", "K", "auto | portable | avx2 | avx512 | reference (all give the same bits; auto: HIFSIM_KERNEL, else the fastest this CPU runs)",
           std::string("auto"));
  p.option("rht", "N", "random Hadamard transform of both operands along K in blocks of N: 0 (off) | 16 | 32 | 64",
           std::string("0"));
  p.option("rht-seed", "S", "seed of the Hadamard sign vector (docs/training.md)", std::string("0"));
  p.option("rht-signs", "R", "Hadamard signs: random (from --rht-seed) | none (plain Hadamard)", std::string("random"));
  add_quant_options(p);
}

dp::GemmSpec read_gemm_options(const ArgParser& p, fmt::Format f) {
  dp::GemmSpec s;
  s.format = f;
  s.quant = read_quant_options(p);
  s.threads = s.quant.threads;
  s.acc = dp::AccSpec::parse(p.get("acc"));
  s.hif8_lanes = static_cast<int>(p.get_int("hif8-lanes", 1, 1024));
  const bool w = p.has("align-width"), pol = p.has("align-policy");
  if (w || pol) {
    if (f != fmt::Format::hif8 && f != fmt::Format::bf16)
      throw Error("command line", w ? "--align-width" : "--align-policy", "applies only to hif8 and bf16");
    s.align = dp::default_align(f);
    s.align_set = true;
    if (w) s.align.width = static_cast<int>(p.get_int("align-width", 0, 120));
    if (pol) {
      const std::string v = p.get("align-policy");
      if (v == "trunc") s.align.policy = dp::AlignPolicy::trunc;
      else if (v == "sticky") s.align.policy = dp::AlignPolicy::sticky;
      else throw Error("command line", "--align-policy", "'" + v + "' is not trunc or sticky");
    }
  }
  s.rht.n = static_cast<unsigned>(p.get_int("rht", 0, 64));
  s.rht.seed = p.get_u64("rht-seed");
  const std::string signs = p.get("rht-signs");
  if (signs == "none") s.rht.signs = fmt::RhtSigns::none;
  else if (signs != "random") throw Error("command line", "--rht-signs", "'" + signs + "' is not random or none");
  fmt::validate_rht(s.rht, s.rht.n, "--rht");  // the size alone; K is checked against it per GEMM
  s.kernel = dp::parse_gemm_kernel(p.get("kernel"));
  dp::validate(s);
  return s;
}

std::vector<fmt::Format> parse_tensor_formats(const std::string& list) {
  std::vector<fmt::Format> formats;
  for (const std::string& f : split_list(list)) {
    const auto fm = fmt::parse_format(f);
    if (!fm || !fmt::format_info(*fm).tensor)
      throw Error("--formats", f, "unknown tensor format; choose from " + fmt::tensor_format_names());
    formats.push_back(*fm);
  }
  if (formats.empty()) throw Error("--formats", list, "no format given");
  return formats;
}

void add_residual_options(ArgParser& p) {
  p.option("residual", "R", "Rollout-ResQ residual correction: none | dense | 2:4 | top50", std::string("none"));
  p.option("residual-mode", "M", "residual accumulation: unfused (two GEMMs + one FP32 add) | fused",
           std::string("unfused"));
}

dp::ResidualSpec read_residual_options(const ArgParser& p) {
  dp::ResidualSpec r;
  r.kind = dp::ResidualSpec::parse_kind(p.get("residual"));
  r.mode = dp::ResidualSpec::parse_mode(p.get("residual-mode"));
  return r;
}

}  // namespace hifsim::cli
