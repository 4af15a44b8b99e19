// hifsim cosim: the infrastructure every RTL-vs-C++ harness uses (docs/cosim.md).
//
//   Options / parse_cli   --seed --count --level quick|long --replay FILE --waves --out DIR ...
//   Vector, Coverage      (model/verif) a vector's words and source; the coverage bins
//   Session               the scoreboard: compares every output bit of every transaction,
//                         prints seed / vector index / vector / first differing field, writes a
//                         one-vector replay file and a waveform of the failing vector, prints a
//                         TestFloat-like summary and the coverage table, gives the exit code
//   VectorStream          directed corners first, then seeded random vectors (or the replay)
//
// A harness (cosim/<module>/main.cpp) supplies how the unit's bench (model/verif: generator,
// golden model, coverage) maps onto its Verilated model's ports; harness_main.hpp does the rest.
#pragma once
#include <chrono>
#include <cstdint>
#include <ctime>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "util/rng.hpp"
#include "verif/coverage.hpp"
#include "verif/stimulus.hpp"
#include "verif/vector.hpp"

namespace hifsim::cosim {

enum class Level { quick, long_ };

// Exit codes of every harness.
constexpr int kExitPass = 0;
constexpr int kExitMismatch = 1;   // at least one output differs from the C++ model
constexpr int kExitCoverage = 2;   // every output matched but a declared coverage bin was never hit
constexpr int kExitUsage = 3;      // bad command line / unreadable file
constexpr int kExitHang = 4;       // the RTL did not answer (handshake timeout)

struct Options {
  std::string module;               // set by the harness
  uint64_t seed = 1;
  uint64_t count = 0;               // vectors (transactions / sequences); 0 = the level default
  Level level = Level::quick;
  std::string replay;               // --replay FILE: run exactly that vector, with waves
  bool waves = false;               // --waves: trace the whole run (keep --count small)
  std::string out_dir = "cosim-out";  // replay files and waveforms go here
  std::string npy;                  // --npy FILE: real-tensor source (harness default if empty)
  std::string only_source;          // --source NAME: random vectors from this source only
  bool skip_corners = false;        // --skip-corners: random vectors only
  uint64_t max_errors = 1;          // --max-errors N: stop after N mismatches (0 = never stop)
  bool expect_mismatch = false;     // --expect-mismatch: pass iff a mismatch is found (mutants)
  bool coverage_check = true;       // --no-coverage-check turns the unhit-bin failure off
  bool verbose = false;
  // Which Verilated model of the harness: "main" (the unit's regression model), "sweep" (--sweep:
  // every other STAGES value and parameter set, one group at a time) or "mutant" (--mutant: the
  // main model built from a mutated RTL copy, scripts/mutate_rtl.py). A replay file names its own.
  std::string model = "main";
  int group = -1;                   // --group G: run only group G of the model (-1: every group)
};

// Parses the common options. `extra` lets a harness add flags: called with (flag, next-arg
// getter); returns true if it consumed the flag. Prints usage and exits on --help or errors.
using ExtraFlag = std::function<bool(const std::string& flag, const std::function<std::string()>& value)>;
Options parse_cli(int argc, char** argv, const std::string& module, const std::string& extra_usage = "",
                  const ExtraFlag& extra = nullptr);
const char* level_name(Level l);

// The benches and their coverage are the model's (model/verif); the cosim drives the RTL with them.
using verif::Coverage;
using verif::Vector;
namespace stim = verif::stim;

// ---- output layout (for "first differing field") ----
struct Field {
  std::string name;
  int msb, lsb;  // bit positions in the transaction's output words (word w holds bits 32w..32w+31)
};

// ---- session / scoreboard ----
class Session {
 public:
  Session(const Options& o, std::vector<std::string> source_names, std::vector<Field> layout, int out_words);

  const Options& opt() const { return o_; }
  Coverage& cov() { return cov_; }
  uint64_t count() const { return count_; }  // vectors to run
  void set_count(uint64_t n) { count_ = n; }
  bool replaying() const { return !o_.replay.empty(); }
  const std::vector<std::string>& sources() const { return sources_; }
  bool stop() const;  // true once max_errors mismatches were seen

  // Describes a vector for messages (the harness's decoder); defaults to hex words.
  std::function<std::string(const Vector&)> describe;
  // Re-runs one vector with a waveform written to `path` (the harness's function). Returns
  // true if the re-run reproduced the mismatch.
  std::function<bool(const Vector&, const std::string& path)> rerun_with_waves;

  // Compares one transaction. `step` names a sub-transaction (e.g. the step of an
  // accumulator sequence; -1 = none). Returns true if every output bit matches.
  bool check(uint64_t index, const Vector& v, const uint32_t* expected, const uint32_t* got, int step = -1,
             const std::string& context = "");
  void count_vector(const Vector& v);  // one vector finished (for the per-source counts)
  void fail_hang(uint64_t index, const std::string& what);
  // The handshake differs from the declared timing (PipeTiming) at `cycle`; `v` is the vector
  // the difference is blamed on (the oldest in flight, or the one offered; null: none). Counts as a
  // mismatch and stops the run (the cycle models no longer agree on what is in flight).
  void fail_timing(uint64_t index, const Vector* v, uint64_t cycle, const std::string& what);
  // The group (of the model's cosim top) being run, for messages and replay files.
  void set_group(int g, const std::string& what) {
    group_ = g;
    group_what_ = what;
  }
  int group() const { return group_; }
  // The output fields and words of the group being run (the names of its parameter sets).
  void set_output(std::vector<Field> layout, int out_words) {
    layout_ = std::move(layout);
    out_words_ = out_words;
  }

  // Prints the summary and the coverage table; returns the exit code.
  int finish();

  uint64_t mismatches() const { return mismatches_; }
  uint64_t transactions() const { return checked_; }

 private:
  Options o_;
  std::vector<std::string> sources_;
  std::vector<Field> layout_;
  int out_words_;
  Coverage cov_;
  uint64_t count_ = 0, checked_ = 0, mismatches_ = 0, vectors_ = 0;
  bool hang_ = false, timing_ = false;
  int group_ = 0;
  std::string group_what_;
  // Prints the vector (decoded), writes its replay file and re-runs it alone with a waveform.
  void report_vector(uint64_t index, const Vector& v, const std::string& src);
  std::vector<uint64_t> per_source_;
  std::chrono::steady_clock::time_point t0_;
  std::clock_t c0_;  // process CPU time at the start
};

// ---- replay files ----
// Text, one item per line:
//   # comment
//   module hif4_dot64
//   seed 1
//   index 1234
//   source shaped
//   model sweep                       (optional: main, sweep or mutant; default main)
//   group 2                           (optional: the group of the model's cosim top; default 0)
//   vector 0000c0ff 12345678 ...      (hex words, word 0 first)
// write_replay returns the path written.
std::string write_replay(const Options& o, uint64_t index, int group, const Vector& v, const std::string& source_name,
                         const std::string& description);
// Reads a replay file; checks the module name. Throws std::runtime_error on errors.
Vector read_replay(const std::string& path, const std::string& module, const std::vector<std::string>& sources,
                   uint64_t* seed = nullptr, uint64_t* index = nullptr);
// The model and group a replay file names (defaults "main" and 0). Throws if unreadable.
void read_replay_target(const std::string& path, std::string& model, int& group);

std::string hex_words(const std::vector<uint32_t>& w);

// ---- vector stream ----
// The directed corners first, then random vectors from `gen` (seeded from --seed), `count`
// vectors in all (a count below the number of corners runs only the first corners). In replay
// mode: the one vector of the file.
class VectorStream {
 public:
  // gen(r, v): the next random vector into v (verif::Bench::random_into).
  VectorStream(Session& s, std::vector<Vector> corners, std::function<void(SplitMix64&, Vector&)> gen);
  bool next(Vector& v, uint64_t& index);  // false when done (count reached or session stopped)

 private:
  Session& s_;
  std::vector<Vector> corners_;
  std::function<void(SplitMix64&, Vector&)> gen_;
  SplitMix64 rng_;
  uint64_t i_ = 0;
  Vector replay_;
};

// The per-harness file name stem for a failing vector: <out>/<module>_s<seed>_v<index>, with
// _<model>_g<group> inserted for a vector of another model than main or another group than 0.
std::string artifact_stem(const Options& o, uint64_t index, int group = 0);
// The waveform of a whole run: with --replay F, <out>/<F's name>.vcd; with --waves,
// <out>/<module>_s<seed>.vcd (_<model>_g<group> inserted as in artifact_stem); otherwise ""
// (no waveform).
std::string run_wave_path(const Options& o, int group = 0);

}  // namespace hifsim::cosim
