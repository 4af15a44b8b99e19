// The declared timing of every valid/ready unit of rtl/, as a cycle model the scoreboard
// compares the RTL's handshake outputs with at every cycle (docs/cosim.md, "Timing").
//
// A unit with L = STAGES register ranks is a chain of L hifsim_pipe_reg slices: a rank accepts
// when it is empty or when its content moves on in the same cycle (up_ready = !valid ||
// dn_ready), in_ready is combinational from out_ready through the chain, out_valid is the last
// rank's valid; L = 0 is combinational (in_ready = out_ready, out_valid = in_valid). So a
// transaction accepted at cycle t is offered at t + L when nothing ahead of it is stalled, and a
// full pipeline delivers one result per cycle. The TLM timing model (docs/tlm.md) assumes
// exactly this; a unit whose handshake differs in any cycle (a result one cycle late, a dropped
// or duplicated one, a bubble the pipeline should have squeezed out, a stall that is not needed)
// disagrees with this model in that cycle.
//
// No Verilator here: the model is plain C++ and tested on its own (tests/cosim).
#pragma once
#include <cstddef>
#include <vector>

namespace hifsim::cosim {

class PipeTiming {
 public:
  explicit PipeTiming(int ranks) : v_(static_cast<size_t>(ranks), false) {}
  int ranks() const { return static_cast<int>(v_.size()); }
  void reset() { v_.assign(v_.size(), false); }

  // The combinational outputs of the current cycle.
  bool in_ready(bool out_ready) const { return ready_of(0, out_ready); }
  bool out_valid(bool in_valid) const { return v_.empty() ? in_valid : v_.back(); }
  // Rank contents in flight (0 .. ranks).
  int occupancy() const {
    int n = 0;
    for (bool b : v_) n += b ? 1 : 0;
    return n;
  }

  // The rising edge with the cycle's in_valid and out_ready.
  // In place, output side first (rank i reads rank i-1's old valid and its own up_ready, which
  // depends only on ranks >= i); no allocation: it runs every cycle of the cosim.
  void edge(bool in_valid, bool out_ready) {
    bool r = out_ready;  // up_ready of rank k, from the output side in
    for (size_t k = v_.size(); k > 0; --k) {
      const size_t i = k - 1;
      const bool ready = !v_[i] || r;
      if (ready) v_[i] = i == 0 ? in_valid : v_[i - 1];
      r = ready;
    }
  }

 private:
  // up_ready of rank i (i == ranks: the output, out_ready).
  bool ready_of(size_t i, bool out_ready) const {
    bool r = out_ready;
    for (size_t k = v_.size(); k > i; --k) r = !v_[k - 1] || r;
    return r;
  }
  std::vector<bool> v_;  // valid bit of each rank, input side first
};

}  // namespace hifsim::cosim
