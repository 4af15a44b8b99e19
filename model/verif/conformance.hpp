// Conformance vectors (hifsim vectors, docs/cosim.md "Conformance vectors"): a unit's bench
// (model/verif/<unit>_bench.cpp) run without a subject, its stimulus and expected results written
// as $readmemh files, so another RTL team can check its own HiF4 / HiF8 / MX / NVFP4 / BF16 unit
// against hifsim's golden model without linking it. The vectors are the ones the Verilated
// co-simulation of the unit sees with the same seed and count (the directed corners first, then
// the seeded random sources), so a vector that fails another team's unit can be replayed here.
#pragma once
#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "util/rng.hpp"
#include "verif/bench.hpp"

namespace hifsim::verif {

// The units with a bench, in the order of docs/cosim.md.
const std::vector<std::string>& bench_units();
// The bench of `unit` for the parameter sets `sets` (RTL parameter names; missing ones take the
// RTL defaults). Throws hifsim::Error for an unknown unit or a bad parameter.
std::unique_ptr<Bench> make_bench(const std::string& unit, const std::vector<Params>& sets, const BenchContext& ctx,
                                  const std::string& npy);

// The random stream of a run with `seed` (shared with the cosim's VectorStream, so both see the
// same vectors).
SplitMix64 vector_rng(uint64_t seed);

struct ConformanceSpec {
  std::string unit;
  Params params;          // one parameter set (--set NAME=VALUE)
  uint64_t count = 2000;  // vectors, the directed corners first (a sequence unit: sequences)
  uint64_t seed = 1;
  std::string npy;        // the real-tensor source ("" = traces/sample/activations.npy)
};

// What `hifsim vectors` writes.
struct ConformanceVectors {
  std::string stimulus;   // stimulus.hex: one line per transaction, $readmemh format (unless streamed)
  std::string expected;   // expected.hex: one line per transaction (unless streamed)
  std::string readme;     // README.md: protocol, field layout, counts, coverage bins hit
  uint64_t vectors = 0, transactions = 0;
  int stimulus_bits = 0, expected_bits = 0;
  uint64_t bins_declared = 0, bins_hit = 0;
  std::string tensor;     // the real-tensor source read (every bench reads one): an input of the manifest
};

// Generates the vectors of `spec` with the unit's bench and golden model. Throws hifsim::Error
// for a bad unit, parameter or count.
// Checks `spec` (count, unit, parameters, the tensor source) as conformance_vectors would,
// without making vectors: for callers that open their outputs before the work.
void check_conformance_spec(const ConformanceSpec& spec);
// With `stimulus`/`expected` given, the lines go there as they are made (the strings of the
// result stay empty): 10^7 vectors are gigabytes of text, never held in memory.
ConformanceVectors conformance_vectors(const ConformanceSpec& spec, std::ostream* stimulus = nullptr,
                                       std::ostream* expected = nullptr);

}  // namespace hifsim::verif
