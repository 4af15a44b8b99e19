// hifsim vectors: conformance vectors of a unit for another RTL team (docs/cosim.md,
// "Conformance vectors"): stimulus and expected results as $readmemh files plus a README, made
// by the unit's bench and golden model (verif::conformance_vectors).
#include <fstream>
#include <string>

#include "args.hpp"
#include "command.hpp"
#include "util/error.hpp"
#include "util/files.hpp"
#include "util/manifest.hpp"
#include "verif/conformance.hpp"

namespace {
using namespace hifsim;

std::string unit_list() {
  std::string s;
  for (const std::string& u : verif::bench_units()) s += (s.empty() ? "" : ", ") + u;
  return s;
}

int run_vectors(const std::vector<std::string>& args, const std::vector<std::string>& argv) {
  cli::ArgParser p("hifsim vectors --unit U --out DIR [--count N] [--seed S] [--set NAME=V[,NAME=V...]]",
                   "Write conformance vectors of a unit: DIR/stimulus.hex and DIR/expected.hex ($readmemh, one line\n"
                   "per transaction), DIR/README.md (protocol, field layout, counts, coverage bins hit) and a manifest.\n"
                   "Check your own RTL against hifsim's bit-exact model without linking it: the vectors are the ones\n"
                   "the unit's Verilated co-simulation runs with the same seed and count.");
  p.option("unit", "U", "one of: " + unit_list(), std::nullopt, true);
  p.option("out", "DIR", "output folder (created if missing)", std::nullopt, true);
  p.option("count", "N", "vectors, the directed corners first (fp32_acc, sparse_residual_add: sequences)", std::string("2000"));
  p.option("seed", "S", "seed of the random vectors", std::string("1"));
  p.option("set", "NAME=V[,NAME=V...]", "RTL parameters of the unit (default: the RTL defaults), e.g. W=32,STICKY=0");
  p.option("npy", "FILE", "float32 tensor of the real-tensor source (default traces/sample/activations.npy)");
  p.epilog("Example: hifsim vectors --unit hif8_dot --set N=32,W=24 --count 5000 --out vec/hif8");
  if (!p.parse(args)) return 0;

  verif::ConformanceSpec spec;
  spec.unit = p.get("unit");
  spec.count = p.get_u64("count");
  spec.seed = p.get_u64("seed");
  if (p.has("set")) spec.params = verif::parse_params(p.get("set"));
  if (p.has("npy")) spec.npy = p.get("npy");
  const std::string out = p.get("out");
  OutputSet outs(out + "/manifest.json");
  for (const char* f : {"/stimulus.hex", "/expected.hex", "/README.md"}) outs.expect(out + f);
  // The two .hex files are streamed to their temporaries as the vectors are made (10^7 vectors
  // are gigabytes of text) and renamed with the README and the manifest once all are whole.
  verif::check_conformance_spec(spec);  // the unit, its parameters, the tensor: before any file is opened
  const std::string stim_tmp = outs.stream_to(out + "/stimulus.hex", "stimulus, one transaction per line");
  const std::string exp_tmp = outs.stream_to(out + "/expected.hex", "expected outputs, one transaction per line");
  std::ofstream stim(stim_tmp, std::ios::binary | std::ios::trunc), exp(exp_tmp, std::ios::binary | std::ios::trunc);
  const verif::ConformanceVectors v = verif::conformance_vectors(spec, &stim, &exp);
  stim.close();
  exp.close();
  if (!stim) throw Error(out + "/stimulus.hex", "", "write failed (disk full or file size limit?)");
  if (!exp) throw Error(out + "/expected.hex", "", "write failed (disk full or file size limit?)");
  outs.add(out + "/README.md", v.readme, "field layout, protocol, counts, coverage");
  Manifest m;
  m.command = "vectors";
  m.argv = argv;
  m.seed = spec.seed;
  m.add_input(v.tensor);  // the real-tensor source read, the data folder's default included
  m.extra.emplace_back("unit", spec.unit);
  m.extra.emplace_back("vectors", std::to_string(v.vectors));
  m.extra.emplace_back("coverage_bins_hit", std::to_string(v.bins_hit) + "/" + std::to_string(v.bins_declared));
  outs.finish(m);
  std::printf("hifsim vectors: %s: %llu vectors, %llu transactions, %llu of %llu coverage bins hit -> %s\n",
              spec.unit.c_str(), static_cast<unsigned long long>(v.vectors), static_cast<unsigned long long>(v.transactions),
              static_cast<unsigned long long>(v.bins_hit), static_cast<unsigned long long>(v.bins_declared), out.c_str());
  return 0;
}

HIFSIM_COMMAND("vectors", "conformance vectors of a unit ($readmemh stimulus + expected results)", run_vectors);

}  // namespace
