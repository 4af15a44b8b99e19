// What one run of the matrix-unit model reports (docs/tlm.md section "Outputs"): cycles, the
// stall breakdown, utilization, bytes moved per memory level and action counts per component.
// Action names are stable: the energy model multiplies each by a per-action energy.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace hifsim {
class JsonWriter;
}

namespace hifsim::perf {

// Action counts by stable dotted name ("pe.dot_ops", "buffer_a.read_bytes", ...). Every name in
// action_names() is always present (zero when unused), so a consumer never has to guess.
class Actions {
 public:
  Actions();
  uint64_t& operator[](const std::string& name);  // throws std::logic_error for an unknown name
  uint64_t get(const std::string& name) const;
  const std::vector<std::pair<std::string, uint64_t>>& items() const { return items_; }
  Actions& operator+=(const Actions& o);
  Actions scaled(uint64_t times) const;
  bool operator==(const Actions& o) const { return items_ == o.items_; }

 private:
  std::vector<std::pair<std::string, uint64_t>> items_;
  std::map<std::string, size_t> index_;
};

// The stable action names with their units (docs/tlm.md lists the same table).
const std::vector<std::pair<std::string, std::string>>& action_names();

struct Cycles {
  uint64_t total = 0;
  uint64_t fill = 0;           // before the first PE-array issue (first tile loads)
  uint64_t compute = 0;        // PE-array issue cycles (includes bank-limited and partial passes)
  uint64_t memory_stall = 0;   // array idle between steps, waiting for a tile load or a free accumulator slot
  uint64_t drain = 0;          // after the last issue: pipeline tail, last drain, last store
  uint64_t residual = 0;       // part of `compute` spent on shared-path residual steps
  uint64_t bank_stall = 0;     // part of `compute` caused by too few buffer banks
  // The fields by name in report order (JSON object "cycles", CSV columns cycles_<name>): the
  // arithmetic, the comparison and both writers go through this one list.
  using Field = std::pair<const char*, uint64_t Cycles::*>;
  static const std::array<Field, 7>& fields();
  Cycles& operator+=(const Cycles& o);
  Cycles scaled(uint64_t k) const;
  bool operator==(const Cycles& o) const;
};

struct TilingInfo {
  uint64_t mt = 0, nt = 0, kt = 0;     // tile extents (K in padded elements)
  uint64_t tiles_m = 0, tiles_n = 0, tiles_k = 0;
  uint64_t steps = 0;
  std::string order;                   // "mnk" | "nmk"
};

struct RunReport {
  std::string name;                    // op name (trace) or "gemm"
  uint64_t M = 0, N = 0, K = 0;
  uint64_t instances = 1;              // identical GEMMs this report stands for (batch x repeat)
  uint64_t simulated = 1;              // how many of them were simulated (the rest are copies)
  Cycles cycles;                       // for ONE instance when instances > 1 (see totals())
  uint64_t macs = 0;                   // useful multiply-adds M*N*K (one instance)
  uint64_t peak_macs_per_cycle = 0;
  TilingInfo tiling;
  Actions actions;                     // one instance
  std::string checksum;                // FNV-1a 64 of the FP32 result bytes ("" in timing-only mode)
  bool values = false;

  double utilization() const;          // macs / (cycles.total * peak)
  double busy_utilization() const;     // macs / (cycles.compute * peak)
};

// A run of several reports (a trace): sums every field times `instances`.
struct Totals {
  Cycles cycles;
  Actions actions;
  double macs = 0;
  uint64_t gemms = 0;
};
Totals totals(const std::vector<RunReport>& reports);

// JSON object of one report (keys documented in docs/tlm.md).
void write_report_json(JsonWriter& w, const RunReport& r, double clock_ghz);
// CSV: one header line and one line per report (every cycle field and every action).
std::string reports_csv(const std::vector<RunReport>& reports);

}  // namespace hifsim::perf
