#include "verif/conformance.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>

#include "util/error.hpp"
#include "verif/stimulus.hpp"
#include "verif/units.hpp"

namespace hifsim::verif {

const char* const kDotProtocol =
    "Valid/ready on both sides (in_valid / in_ready, out_valid / out_ready); a transfer happens at a rising "
    "edge with valid && ready. Latency = STAGES cycles (the unit's register ranks; STAGES = 0 is "
    "combinational); with out_ready held high the unit takes one transaction per cycle and delivers the "
    "results in order, one per cycle. Line i of expected.hex is the result of line i of stimulus.hex.";

namespace {
struct Entry {
  const char* unit;
  BenchFactory make;
};
const Entry kUnits[] = {
    {"hif4_dot64", make_hif4_dot64_bench},   {"fp32_acc", make_fp32_acc_bench},
    {"nvfp4_dot64", make_nvfp4_dot64_bench}, {"mxfp4_dot64", make_mxfp4_dot64_bench},
    {"mxfp8_dot32", make_mxfp8_dot32_bench}, {"hif8_dot", make_hif8_dot_bench},
    {"bf16_dot64", make_bf16_dot64_bench},   {"sparse_residual_add", make_sparse_residual_add_bench},
    {"hif4_quantizer", make_hif4_quantizer_bench},
    {"hadamard16", make_hadamard16_bench},
    {"sr_quantizer", make_sr_quantizer_bench},
    {"transpose_buffer", make_transpose_buffer_bench},
};
}  // namespace

const std::vector<std::string>& bench_units() {
  static const std::vector<std::string> u = [] {
    std::vector<std::string> v;
    for (const Entry& e : kUnits) v.push_back(e.unit);
    return v;
  }();
  return u;
}

std::unique_ptr<Bench> make_bench(const std::string& unit, const std::vector<Params>& sets, const BenchContext& ctx,
                                  const std::string& npy) {
  for (const Entry& e : kUnits)
    if (unit == e.unit) return e.make(sets, ctx, npy.empty() ? stim::default_npy() : npy);
  std::string all;
  for (const Entry& e : kUnits) all += std::string(all.empty() ? "" : ", ") + e.unit;
  throw Error("--unit", unit, "no such unit (have: " + all + ")");
}

SplitMix64 vector_rng(uint64_t seed) { return SplitMix64(mix64(seed ^ 0xC051A5EEDull)); }

namespace {

int fields_bits(const std::vector<PortField>& f) {
  int bits = 0;
  for (const PortField& p : f) bits = std::max(bits, p.lsb + p.width);
  return bits;
}

// Bits [0, bits) of little-endian words as one hex number, most significant digit first.
std::string hex_line(const uint32_t* w, size_t nwords, int bits) {
  std::string s;
  for (int d = (bits + 3) / 4 - 1; d >= 0; --d) {
    const size_t word = static_cast<size_t>(d / 8);
    const uint32_t nib = word < nwords ? (w[word] >> (4 * (d % 8))) & 0xF : 0;
    const int valid = std::min(4, bits - 4 * d);  // the top digit may be partial
    s += "0123456789abcdef"[nib & ((1u << valid) - 1)];
  }
  return s + "\n";
}

std::string field_table(const std::vector<PortField>& fields) {
  std::ostringstream o;
  o << "| Field | Bits | What |\n|---|---|---|\n";
  for (const PortField& f : fields) {
    o << "| `" << f.name << "` | ";
    if (f.width == 1) o << "[" << f.lsb << "]";
    else o << "[" << (f.lsb + f.width - 1) << ":" << f.lsb << "]";
    o << " | " << f.what << " |\n";
  }
  return o.str();
}

std::string params_text(const ConformanceSpec& s) {
  if (s.params.empty()) return "the RTL defaults";
  std::string t;
  for (const auto& kv : s.params) t += (t.empty() ? "" : ", ") + kv.first + "=" + std::to_string(kv.second);
  return t;
}

// The --set option that reproduces the parameters ("" for the RTL defaults).
std::string set_option(const ConformanceSpec& s) {
  std::string t;
  for (const auto& kv : s.params) t += (t.empty() ? " --set " : ",") + kv.first + "=" + std::to_string(kv.second);
  return t;
}

std::string readme(const ConformanceSpec& spec, const Bench& b, const ConformanceVectors& v, const Coverage& cov,
                   const std::vector<uint64_t>& per_source) {
  std::ostringstream o;
  o << "# Conformance vectors: " << spec.unit << "\n\n"
    << "Made by `hifsim vectors --unit " << spec.unit << set_option(spec) << " --count " << spec.count << " --seed "
    << spec.seed << "`"
    << " with hifsim's bit-exact C++ model (docs/cosim.md, \"Conformance vectors\"). Parameters: " << params_text(spec)
    << (b.active_names().empty() ? "" : " (" + b.active_names() + ")") << ".\n\n"
    << "- `stimulus.hex`: " << v.transactions << " lines, one transaction each, " << v.stimulus_bits << " bits as "
    << (v.stimulus_bits + 3) / 4 << " hex digits, most significant first (`$readmemh`).\n"
    << "- `expected.hex`: " << v.transactions << " lines, the expected outputs of the same transaction, "
    << v.expected_bits << " bits as " << (v.expected_bits + 3) / 4 << " hex digits. Every bit is exact: compare "
    << "with `!==` / `!=`, no tolerance.\n"
    << "- " << v.vectors << " vectors" << (v.transactions != v.vectors ? " (sequences of dependent transactions)" : "")
    << ": the directed corners first, then seeded random vectors, from the generator and seed of the unit's "
    << "Verilated co-simulation (`cosim_" << spec.unit << " --seed " << spec.seed << " --count " << spec.count << "`).\n\n"
    << "## Protocol\n\n" << b.protocol() << "\n\n"
    << "## Stimulus fields\n\n" << field_table(b.inputs()) << "\n"
    << "## Expected fields\n\n" << field_table(b.outputs()) << "\n"
    << "FP32 fields are IEEE binary32 bits (NaN is always 0x7fc00000; subnormal results are kept).\n\n"
    << "## Reading them in SystemVerilog\n\n```systemverilog\n"
    << "logic [" << v.stimulus_bits - 1 << ":0] stim [0:" << v.transactions - 1 << "];\n"
    << "logic [" << v.expected_bits - 1 << ":0] expect_q [0:" << v.transactions - 1 << "];\n"
    << "initial begin\n  $readmemh(\"stimulus.hex\", stim);\n  $readmemh(\"expected.hex\", expect_q);\nend\n";
  const PortField f0 = b.inputs().front();
  o << "// e.g. " << f0.name << " of transaction i: stim[i][" << (f0.lsb + f0.width - 1) << ":" << f0.lsb << "]\n```\n\n"
    << "An example testbench: cosim/conformance/ (it checks rtl/hif4_dot64.sv against these files in CTest).\n\n"
    << "## Stimulus sources\n\n| Source | Vectors |\n|---|---|\n";
  for (size_t i = 0; i < per_source.size(); ++i)
    if (per_source[i]) o << "| " << b.sources()[i] << " | " << per_source[i] << " |\n";
  o << "\n## Coverage bins hit (" << v.bins_hit << " of " << v.bins_declared << " declared)\n\n"
    << "Counted by the golden model on these vectors (docs/cosim.md \"Coverage\"). A declared bin that is not hit "
       "needs more vectors (the cosim's quick level hits all of them).\n\n| Bin | Hits |\n|---|---|\n";
  std::string missing;
  for (size_t i = 0; i < cov.size(); ++i) {
    const int id = static_cast<int>(i);
    if (!cov.required(id)) continue;
    if (cov.count(id)) o << "| `" << cov.name(id) << "` | " << cov.count(id) << " |\n";
    else missing += "`" + cov.name(id) + "` ";
  }
  if (!missing.empty()) o << "\nDeclared bins not hit: " << missing << "\n";
  return o.str();
}

}  // namespace

void check_conformance_spec(const ConformanceSpec& spec) {
  if (spec.count == 0) throw Error("--count", "", "must be at least 1");
  if (spec.count > 10000000) throw Error("--count", std::to_string(spec.count), "at most 10^7 vectors (the files would exceed a few GB)");
  Coverage cov;
  const BenchContext ctx{&cov, ""};
  make_bench(spec.unit, {spec.params}, ctx, spec.npy.empty() ? stim::default_npy() : spec.npy);
}

ConformanceVectors conformance_vectors(const ConformanceSpec& spec, std::ostream* stimulus, std::ostream* expected) {
  if (spec.count == 0) throw Error("--count", "", "must be at least 1");
  if (spec.count > 10000000) throw Error("--count", std::to_string(spec.count), "at most 10^7 vectors (the files would exceed a few GB)");
  Coverage cov;
  const BenchContext ctx{&cov, ""};
  const std::string tensor = spec.npy.empty() ? stim::default_npy() : spec.npy;
  const std::unique_ptr<Bench> b = make_bench(spec.unit, {spec.params}, ctx, tensor);
  b->set_active(0, 1);
  ConformanceVectors v;
  v.tensor = tensor;
  v.stimulus_bits = fields_bits(b->inputs());
  v.expected_bits = fields_bits(b->outputs());
  const int ow = b->out_words();
  const std::vector<Vector> corners = b->corners();
  SplitMix64 rng = vector_rng(spec.seed);
  std::vector<uint64_t> per_source(b->sources().size(), 0);
  std::ostringstream stim_text, exp_text;
  std::ostream& stim = stimulus ? *stimulus : stim_text;
  std::ostream& exp = expected ? *expected : exp_text;
  for (uint64_t i = 0; i < spec.count; ++i) {
    const Vector vec = i < corners.size() ? corners[i] : b->random(rng);
    const int n = b->steps(vec);
    std::vector<uint32_t> out(static_cast<size_t>(ow * n));
    b->golden(vec, out.data());
    for (int s = 0; s < n; ++s) {
      const std::vector<uint32_t> t = b->transaction(vec, s);
      stim << hex_line(t.data(), t.size(), v.stimulus_bits);
      exp << hex_line(out.data() + static_cast<size_t>(ow * s), static_cast<size_t>(ow), v.expected_bits);
      ++v.transactions;
    }
    ++v.vectors;
    if (vec.source >= 0 && static_cast<size_t>(vec.source) < per_source.size()) ++per_source[static_cast<size_t>(vec.source)];
  }
  for (size_t i = 0; i < cov.size(); ++i)
    if (cov.required(static_cast<int>(i))) {
      ++v.bins_declared;
      v.bins_hit += cov.count(static_cast<int>(i)) ? 1 : 0;
    }
  v.stimulus = stim_text.str();
  v.expected = exp_text.str();
  v.readme = readme(spec, *b, v, cov, per_source);
  return v;
}

}  // namespace hifsim::verif
