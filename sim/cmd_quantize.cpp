// hifsim quantize: float32 .npy in, the dequantized float32 .npy out (same shape), blocks
// along the last axis; optionally the packed codes (formats/packed.hpp).
#include <iostream>

#include "args.hpp"
#include "command.hpp"
#include "formats/packed.hpp"
#include "formats/tensor.hpp"
#include "io/npy.hpp"
#include "quant_options.hpp"
#include "util/error.hpp"
#include "util/files.hpp"
#include "util/manifest.hpp"

namespace {
using namespace hifsim;

int run(const std::vector<std::string>& args, const std::vector<std::string>& argv) {
  cli::ArgParser p("hifsim quantize --format F --in X.npy --out Y.npy [options]",
                   "Quantize a float32 array to format F and write the dequantized values (float32, same shape).\n"
                   "Blocks run along the last axis; a last axis that is not a multiple of the block is\n"
                   "zero-padded for quantization and the pad is dropped from the output.");
  p.option("format", "F", "one of: " + fmt::tensor_format_names(), std::nullopt, true);
  p.option("in", "X.npy", "input array (float32, C order)", std::nullopt, true);
  p.option("out", "Y.npy", "output array of dequantized values", std::nullopt, true);
  p.option("codes", "C.bin", "also write the packed codes and scales (layout in docs/formats.md)");
  cli::add_quant_options(p);
  p.epilog("A manifest (git revision, command line, seed, tool versions) is written to <out>.manifest.json.");
  if (!p.parse(args)) return 0;

  const auto f = fmt::parse_format(p.get("format"));
  if (!f || !fmt::format_info(*f).tensor)
    throw Error("--format", p.get("format"), "unknown tensor format; choose one of: " + fmt::tensor_format_names());
  const fmt::QuantOptions o = cli::read_quant_options(p);
  fmt::validate_options(*f, o);

  const std::string in = p.get("in"), out = p.get("out");
  OutputSet outs(out + ".manifest.json");
  outs.expect(out);
  if (p.has("codes")) outs.expect(p.get("codes"));
  const io::NpyArray x = io::read_npy_f32(in);
  const size_t cols = x.shape.empty() ? 1 : x.shape.back();
  const size_t rows = cols == 0 ? 0 : x.size() / cols;
  fmt::check_representable(*f, x.f32.data(), rows, cols, in);

  std::vector<float> y(x.size());
  std::string packed;
  if (p.has("codes")) {
    const fmt::QTensor q = fmt::quantize(*f, x.f32.data(), rows, cols, o);
    y = fmt::dequantize(q);
    packed = fmt::pack_tensor(q);
  } else {
    fmt::quantize_dequantize(*f, x.f32.data(), y.data(), rows, cols, o);
  }
  outs.add(out, [&](const std::string& path) { io::write_npy(path, x.shape, y.data()); },
           "dequantized float32 " + io::shape_str(x.shape));
  if (p.has("codes")) outs.add(p.get("codes"), packed, "packed codes");
  Manifest m;
  m.command = "quantize";
  m.argv = argv;
  m.seed = o.seed;
  m.add_input(in);
  m.extra.emplace_back("format", fmt::format_info(*f).name);
  m.extra.emplace_back("rounding", fmt::rounding_name(fmt::element_rounding(*f, o)));
  outs.finish(m);
  return 0;
}
}  // namespace

HIFSIM_COMMAND("quantize", "quantize a float32 .npy to a format and write the dequantized values", run);
