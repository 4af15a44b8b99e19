// hifsim encode / hifsim decode: float32 .npy <-> element or scale codes .npy, one code per
// value (uint8; uint16 for bf16). The command-line face of formats/codes.hpp, used by the
// external-oracle tests (tests/formats/oracle_*.py) and by anyone who wants raw codes.
#include <cstdio>
#include <iostream>

#include "args.hpp"
#include "command.hpp"
#include "formats/codes.hpp"
#include "io/npy.hpp"
#include "quant_options.hpp"
#include "util/error.hpp"
#include "util/files.hpp"
#include "util/manifest.hpp"

namespace {
using namespace hifsim;

const char* kFormatNotes =
    "Formats and their rules (docs/formats.md):\n"
    "  hif8        rounding away (default) | rne | rz | stochastic | hybrid; --saturate; 0x80 NaN, 0x6F/0xEF Inf\n"
    "  fp8-e4m3    rounding rne (default) | away | rz | stochastic; --saturate (else overflow -> NaN 0x7F/0xFF)\n"
    "  fp8-e5m2    rounding rne (default) | away | rz | stochastic; --saturate (else overflow -> Inf)\n"
    "  fp4-e2m1    rounding rne (default) | away; always saturates at +-6; NaN/Inf input is an error\n"
    "  s1p2        rounding away (default) | rne; saturates at +-1.75; sign = (x < 0); NaN/Inf is an error\n"
    "  e6m2        RNE on the 2-bit mantissa, clamped to [2^-48, 49152]; NaN -> 0xFF; <= 0 -> 0x00\n"
    "  e8m0        nearest power of two, ties (1.5*2^e) up; < 2^-127 -> 0x00; 0, <0, NaN, Inf, overflow -> 0xFF\n"
    "  bf16        rounding rne (default) | rz; 16-bit codes (uint16 .npy)\n"
    "4-bit codes are stored one per uint8 (values 0..15).";

fmt::Format parse_code_format(const std::string& name) {
  const auto f = fmt::parse_format(name);
  if (!f || !fmt::is_code_format(*f))
    throw Error("--format", name, "unknown code format; choose one of: " + fmt::encode_format_names());
  return *f;
}

// The operands of both commands: --format (a code format), --in and --out (.npy files, described
// by the command).
void declare_code_io(cli::ArgParser& p, const std::string& in_meta, const std::string& in_help, const std::string& out_meta,
                     const std::string& out_help) {
  p.option("format", "F", "one of: " + fmt::encode_format_names(), std::nullopt, true);
  p.option("in", in_meta, in_help, std::nullopt, true);
  p.option("out", out_meta, out_help, std::nullopt, true);
}

// One code per value: uint16 for bf16, uint8 for every other format.
void write_codes(const std::string& path, fmt::Format f, const std::vector<size_t>& shape, const std::vector<uint16_t>& codes) {
  if (fmt::format_info(f).code_bits == 16) {
    io::write_npy(path, shape, codes.data());
  } else {
    const std::vector<uint8_t> c8(codes.begin(), codes.end());
    io::write_npy(path, shape, c8.data());
  }
}

int run_encode(const std::vector<std::string>& args, const std::vector<std::string>& argv) {
  cli::ArgParser p("hifsim encode --format F --in X.npy --out C.npy [options]",
                   "Encode every value of a float32 array as a code of an element or scale format F.\n"
                   "The output has the same shape: uint8 codes (uint16 for bf16).");
  declare_code_io(p, "X.npy", "input array (float32, C order)", "C.npy", "output codes (uint8; uint16 for bf16)");
  cli::add_code_options(p);
  p.epilog(std::string(kFormatNotes) + "\nA manifest is written to <out>.manifest.json.");
  if (!p.parse(args)) return 0;

  const fmt::Format f = parse_code_format(p.get("format"));
  const fmt::QuantOptions o = cli::read_code_options(p, f);

  const std::string in = p.get("in"), out = p.get("out");
  OutputSet outs(out + ".manifest.json");
  outs.expect(out);
  const io::NpyArray x = io::read_npy_f32(in);
  std::vector<uint16_t> codes(x.size());
  fmt::encode_codes(f, x.f32.data(), x.size(), o, codes.data(), in);
  outs.add(out, [&](const std::string& path) { write_codes(path, f, x.shape, codes); },
           std::string(fmt::format_info(f).name) + " codes " + io::shape_str(x.shape));
  Manifest m;
  m.command = "encode";
  m.argv = argv;
  m.seed = o.seed;
  m.add_input(in);
  m.extra.emplace_back("format", fmt::format_info(f).name);
  m.extra.emplace_back("rounding", fmt::rounding_name(o.rounding ? *o.rounding : fmt::code_default_rounding(f)));
  outs.finish(m);
  return 0;
}

int run_decode(const std::vector<std::string>& args, const std::vector<std::string>& argv) {
  cli::ArgParser p("hifsim decode --format F --in C.npy --out Y.npy",
                   "Decode an array of element or scale codes of format F (uint8; uint16 for bf16) to float32.\n"
                   "NaN codes decode to the canonical quiet NaN 0x7FC00000 (with the code's sign for fp8/bf16).");
  declare_code_io(p, "C.npy", "input codes (uint8; uint16 for bf16; 4-bit formats: values 0..15)", "Y.npy",
                  "output values (float32, same shape)");
  p.epilog(kFormatNotes);
  if (!p.parse(args)) return 0;
  const fmt::Format f = parse_code_format(p.get("format"));
  const std::string in = p.get("in"), out = p.get("out");
  OutputSet outs(out + ".manifest.json");
  outs.expect(out);
  const io::NpyArray c = io::read_npy(in);
  const io::NpyDtype want = fmt::format_info(f).code_bits == 16 ? io::NpyDtype::uint16 : io::NpyDtype::uint8;
  if (c.dtype != want)
    throw Error(in, "dtype",
                std::string("expected ") + io::dtype_name(want) + " codes for " + fmt::format_info(f).name + ", got " +
                    io::dtype_name(c.dtype));
  std::vector<uint16_t> codes = want == io::NpyDtype::uint16 ? c.u16 : std::vector<uint16_t>(c.u8.begin(), c.u8.end());
  std::vector<float> y(codes.size());
  fmt::decode_codes(f, codes.data(), codes.size(), y.data(), in);
  outs.add(out, [&](const std::string& path) { io::write_npy(path, c.shape, y.data()); },
           "decoded float32 " + io::shape_str(c.shape));
  Manifest m;
  m.command = "decode";
  m.argv = argv;
  m.add_input(in);
  m.extra.emplace_back("format", fmt::format_info(f).name);
  outs.finish(m);
  return 0;
}
}  // namespace

HIFSIM_COMMAND("encode", "encode a float32 .npy as element/scale codes (hif8, fp8, fp4-e2m1, s1p2, e6m2, e8m0, bf16)",
               run_encode);
HIFSIM_COMMAND("decode", "decode element/scale codes (.npy) back to float32", run_decode);
