// Shared conventions of the SystemC/TLM model: one clock cycle is 1 ns of SystemC time.
// (clock_ghz in the unit config only converts cycles to seconds in reports.)
#pragma once
#include <cstdint>
#include <systemc>

namespace hifsim::tlm_model {

inline sc_core::sc_time cycles(uint64_t n) { return sc_core::sc_time(static_cast<double>(n), sc_core::SC_NS); }

// The cycle of a SystemC time (times are always whole cycles in this model).
inline uint64_t to_cycles(const sc_core::sc_time& t) {
  return static_cast<uint64_t>(t.value() / sc_core::sc_time(1, sc_core::SC_NS).value());
}

inline uint64_t now_cycles() { return to_cycles(sc_core::sc_time_stamp()); }

}  // namespace hifsim::tlm_model
