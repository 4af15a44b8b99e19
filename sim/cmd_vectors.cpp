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
#include "verif/format_vectors.hpp"

namespace {
using namespace hifsim;

std::string unit_list() {
  std::string s;
  for (const std::string& u : verif::bench_units()) s += (s.empty() ? "" : ", ") + u;
  return s;
}

// The RTL vector sets of --all: every unit at its defaults, plus the parameter sets that select a
// convention or an element format (hif4_quantizer ASCEND_A6, mxfp8_dot32 E5M2, sr_quantizer FMT).
struct RtlSet {
  const char* unit;
  const char* name;
  const char* set;
};
const RtlSet kRtlSets[] = {
    {"hif4_quantizer", "official", ""},  {"hif4_quantizer", "ascend-a6", "ASCEND_A6=1"},
    {"hif4_dot64", "default", ""},       {"nvfp4_dot64", "default", ""},
    {"mxfp4_dot64", "default", ""},      {"mxfp8_dot32", "e4m3", ""},
    {"mxfp8_dot32", "e5m2", "E5M2=1"},   {"hif8_dot", "default", ""},
    {"bf16_dot64", "default", ""},       {"fp32_acc", "default", ""},
    {"sr_quantizer", "nvfp4", ""},       {"sr_quantizer", "hif4", "FMT=1"},
    {"sr_quantizer", "mxfp4", "FMT=2"},
};

// hifsim vectors --all: every format x convention (quantizer/) and every unit's RTL sets (rtl/).
int run_all(const cli::ArgParser& p, const std::vector<std::string>& argv) {
  const std::string out = p.get("out");
  const uint64_t count = p.get_u64("count"), seed = p.get_u64("seed");
  OutputSet outs(out + "/manifest.json");
  std::string index =
      "# hifsim conformance vectors, every format x convention\n\nMade by `hifsim vectors --all --count " +
      std::to_string(count) + " --seed " + std::to_string(seed) +
      "` (docs/cosim.md, \"Conformance vectors per convention\"). Each folder has stimulus.hex, expected.hex "
      "($readmemh, one transaction per line) and a README.md with the field layout.\n\n"
      "| Folder | Unit / format | Convention or parameters | Vectors |\n|---|---|---|---|\n";
  std::vector<std::pair<std::string, verif::FormatVectors>> qsets;
  for (const verif::FormatConvention& c : verif::format_conventions()) {
    const std::string dir = std::string("quantizer/") + fmt::format_info(c.format).name + "/" + c.name;
    for (const char* f : {"/stimulus.hex", "/expected.hex", "/README.md"}) outs.expect(out + "/" + dir + f);
    qsets.emplace_back(dir, verif::format_vectors(c, count, seed));
    index += "| " + dir + " | " + fmt::format_info(c.format).name + " quantizer (model) | " +
             (c.option.empty() ? c.name + " (default)" : "`" + c.option + "`") + " | " +
             std::to_string(qsets.back().second.vectors) + " |\n";
  }
  std::vector<std::pair<std::string, verif::ConformanceVectors>> rsets;
  for (const RtlSet& r : kRtlSets) {
    const std::string dir = std::string("rtl/") + r.unit + "/" + r.name;
    for (const char* f : {"/stimulus.hex", "/expected.hex", "/README.md"}) outs.expect(out + "/" + dir + f);
    verif::ConformanceSpec spec;
    spec.unit = r.unit;
    spec.count = count;
    spec.seed = seed;
    if (*r.set) spec.params = verif::parse_params(r.set);
    rsets.emplace_back(dir, verif::conformance_vectors(spec));
    index += "| " + dir + " | rtl/" + r.unit + ".sv | " + (*r.set ? std::string("`--set ") + r.set + "`" : "RTL defaults") +
             " | " + std::to_string(rsets.back().second.vectors) + " |\n";
  }
  for (auto& [dir, v] : qsets) {
    outs.add(out + "/" + dir + "/stimulus.hex", v.stimulus, std::to_string(v.vectors) + " FP32 blocks");
    outs.add(out + "/" + dir + "/expected.hex", v.expected, "packed block records");
    outs.add(out + "/" + dir + "/README.md", v.readme, "field layout, convention, counts");
  }
  for (auto& [dir, v] : rsets) {
    outs.add(out + "/" + dir + "/stimulus.hex", v.stimulus, std::to_string(v.transactions) + " transactions");
    outs.add(out + "/" + dir + "/expected.hex", v.expected, "expected outputs");
    outs.add(out + "/" + dir + "/README.md", v.readme, "field layout, protocol, counts, coverage");
  }
  outs.expect(out + "/README.md");
  outs.add(out + "/README.md", index, "index of the vector sets");
  Manifest m;
  m.command = "vectors";
  m.argv = argv;
  m.seed = seed;
  m.extra.emplace_back("sets", std::to_string(qsets.size() + rsets.size()));
  outs.finish(m);
  std::printf("hifsim vectors --all: %zu quantizer sets (format x convention), %zu RTL sets, %llu vectors each -> %s\n",
              qsets.size(), rsets.size(), static_cast<unsigned long long>(count), out.c_str());
  return 0;
}

int run_vectors(const std::vector<std::string>& args, const std::vector<std::string>& argv) {
  cli::ArgParser p("hifsim vectors (--unit U | --all) --out DIR [--count N] [--seed S] [--set NAME=V[,NAME=V...]]",
                   "Write conformance vectors of a unit: DIR/stimulus.hex and DIR/expected.hex ($readmemh, one line\n"
                   "per transaction), DIR/README.md (protocol, field layout, counts, coverage bins hit) and a manifest.\n"
                   "Check your own RTL against hifsim's bit-exact model without linking it: the vectors are the ones\n"
                   "the unit's Verilated co-simulation runs with the same seed and count.");
  p.option("unit", "U", "one of: " + unit_list());
  p.flag("all", "every format x convention (quantizer/<format>/<convention>/) and every unit's RTL sets "
                "(rtl/<unit>/<set>/), with an index README.md and one manifest");
  p.option("out", "DIR", "output folder (created if missing)", std::nullopt, true);
  p.option("count", "N", "vectors, the directed corners first (fp32_acc, sparse_residual_add: sequences)", std::string("2000"));
  p.option("seed", "S", "seed of the random vectors", std::string("1"));
  p.option("set", "NAME=V[,NAME=V...]", "RTL parameters of the unit (default: the RTL defaults), e.g. W=32,STICKY=0");
  p.option("npy", "FILE", "float32 tensor of the real-tensor source (default traces/sample/activations.npy)");
  p.epilog("Example: hifsim vectors --unit hif8_dot --set N=32,W=24 --count 5000 --out vec/hif8");
  if (!p.parse(args)) return 0;
  if (p.is_set("all")) {
    if (p.has("unit") || p.has("set") || p.has("npy"))
      throw Error("command line", "--all", "writes every unit and convention; leave --unit, --set and --npy out");
    return run_all(p, argv);
  }
  if (!p.has("unit")) throw Error("command line", "--unit", "missing (or give --all)");

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
