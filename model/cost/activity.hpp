// Switching activity of the datapath units on real data (docs/cost.md, "Activity"). A sample of
// a GEMM's dot operations is run through the bit-exact units (model/datapath) in the order one PE
// sees them; each unit's net trace (datapath/hw.hpp: operands, products, tree nodes, partial sums,
// shifter and normaliser inputs/outputs, pipeline registers, accumulator state) reports the
// values on every component's nets per operation, and the Hamming distance between consecutive
// operations' values is the component's toggle count. Energy = per-toggle energy x toggles, so it
// differs between formats and between layers. Nothing here decodes an element or knows a format.
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

#include "config/unit_config.hpp"
#include "cost/inventory.hpp"
#include "formats/tensor.hpp"

namespace hifsim::cost {

struct ActivityOptions {
  size_t sample_dots = 2048;               // dot operations measured (about; whole outputs are kept)
  uint64_t seed = 1;                       // which outputs are sampled
  cfg::Dataflow order = cfg::Dataflow::os; // the sequence one PE sees
};

struct Activity {
  std::string source;                      // where the operands came from (for reports)
  uint64_t dots = 0;                       // dot operations run
  uint64_t transitions = 0;                // consecutive pairs counted (dots - 1 per call)
  // Per component name: toggled bits and observed bits, summed over all transitions.
  std::map<std::string, double> toggle_sum, bit_sum;
  bool has(const std::string& comp) const { return bit_sum.count(comp) != 0; }
  double toggles_per_dot(const std::string& comp) const;  // throws for an unmeasured component
  double bits_per_dot(const std::string& comp) const;
  double alpha(const std::string& comp) const;            // toggles / bits, in [0, 1]
  Activity& operator+=(const Activity& o);                 // pools transitions (weights by count)
};

// Runs the sample on quantized operands A (M x K) and B (N x K) (quantized along K in the
// unit's format, padded to the unit width). Order (documented, reproducible for a seed):
//   os: outputs (m, n) drawn uniformly with SplitMix64(seed); for each, the K blocks in increasing
//       order with the accumulator reset to +0 (one PE computing one output after another);
//   ws: columns n drawn uniformly, and the first min(M, 16) rows m; for each n, for each block,
//       the rows in order (the PE holds a weight block while activation rows stream), the
//       accumulator input being the row's running partial sum.
Activity measure_activity(const UnitSpec& s, const fmt::QTensor& A, const fmt::QTensor& B, const ActivityOptions& o);

// Quantizes float operands with the unit's GEMM spec first (A: M x K, B: N x K, row-major).
Activity measure_activity(const UnitSpec& s, const dp::GemmSpec& g, const float* A, size_t M, size_t K, const float* B,
                          size_t N, const ActivityOptions& o);

// ---- The recorder, exposed for tests (hand-made sequences with known Hamming distances) ----
class ToggleRecorder : public dp::hw::NetSink {
 public:
  // Starts the values of one operation.
  void begin();
  // Appends a `width`-bit value (two's complement masked to width, width 1..64) to component `comp`.
  void put(const std::string& comp, uint64_t value, int width);
  void put128(const std::string& comp, __int128 value, int width);  // width 1..128
  void net(const char* comp, __int128 value, int width) override { put128(comp, value, width); }
  // Ends the operation: adds the Hamming distance to the previous operation's values (from the
  // second operation on) into `into`.
  void end(Activity& into);

 private:
  struct Slot {
    std::vector<uint64_t> v, prev;
    std::vector<int> w, prevw;
  };
  std::map<std::string, Slot> slots_;
  bool have_prev_ = false;
};

}  // namespace hifsim::cost
