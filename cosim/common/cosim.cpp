#include "cosim.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <ctime>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>

#include "verif/conformance.hpp"
#include "waves/code_text.hpp"

namespace hifsim::cosim {

const char* level_name(Level l) { return l == Level::quick ? "quick" : "long"; }

namespace {
[[noreturn]] void usage_exit(const std::string& module, const std::string& extra, const std::string& err) {
  std::ostream& os = err.empty() ? std::cout : std::cerr;
  if (!err.empty()) os << "cosim_" << module << ": " << err << "\n\n";
  os << "usage: cosim_" << module << " [options]\n"
     << "Drives the Verilated RTL of " << module << " and the C++ golden model with the same stimulus and\n"
     << "compares every output bit of every transaction (docs/cosim.md).\n\n"
     << "  --seed N            random seed (default 1)\n"
     << "  --count N           vectors to run (default: the level's count; directed corners come first)\n"
     << "  --level quick|long  default count: quick (CTest label cosim) or long (cosim-long)\n"
     << "  --source NAME       random vectors from one stimulus source only\n"
     << "  --skip-corners      no directed corners, random vectors only\n"
     << "  --npy FILE          .npy float32 tensor for the real-tensor source\n"
     << "  --replay FILE       run exactly the vector of a replay file, with a waveform\n"
     << "  --waves             trace the whole run into <out>/<module>_s<seed>.vcd (keep --count small)\n"
     << "  --out DIR           where replay files and waveforms go (default cosim-out)\n"
     << "  --max-errors N      stop after N mismatches (default 1; 0 = never stop)\n"
     << "  --expect-mismatch   exit 0 only if a mismatch is found (the mutant check)\n"
     << "  --no-coverage-check do not fail on unhit coverage bins\n"
     << "  --verbose           print every coverage bin, not only the summary\n"
     << "  --sweep             run the sweep model: every other STAGES value / parameter set, one group\n"
     << "                      after the other (each group: --count vectors, its own declared latency)\n"
     << "  --mutant            run the mutant model (the main model built from a mutated RTL copy);\n"
     << "                      the regression must report a mismatch (use with --expect-mismatch)\n"
     << "  --group G           run only group G of the model's cosim top\n"
     << extra
     << "\nExit codes: 0 pass, 1 mismatch, 2 coverage hole, 3 usage, 4 RTL hang.\n";
  std::exit(err.empty() ? 0 : kExitUsage);
}

uint64_t parse_u64(const std::string& module, const std::string& extra, const std::string& flag, const std::string& v) {
  char* end = nullptr;
  errno = 0;
  const unsigned long long x = std::strtoull(v.c_str(), &end, 0);
  if (v.empty() || *end != '\0' || errno || v[0] == '-') usage_exit(module, extra, flag + ": not a number: '" + v + "'");
  return x;
}

// The running harness as a command a newcomer can paste (its absolute path; cosim_<module> if
// /proc is not there).
std::string self_exe(const std::string& module) {
  char buf[4096];
  const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return "cosim_" + module;
  buf[n] = '\0';
  return buf;
}

void make_dirs(const std::string& path) {
  std::string cur;
  std::stringstream ss(path);
  std::string part;
  if (!path.empty() && path[0] == '/') cur = "/";
  while (std::getline(ss, part, '/')) {
    if (part.empty()) continue;
    cur += part + "/";
    ::mkdir(cur.c_str(), 0755);
  }
}

// The GTKWave translate filters of the element and scale codes (waves/code_text.hpp), written
// once per run into <out>/gtkw-filters/ next to the failing vector's waveform; returns the
// directory with a trailing '/'.
std::string write_wave_filters(const std::string& out_dir) {
  const std::string dir = out_dir + "/gtkw-filters/";
  make_dirs(dir);
  for (const waves::FilterCode& c : waves::filter_codes()) {
    std::ofstream f(dir + c.name + ".gtkw-filter");
    f << waves::filter_file(c);
  }
  return dir;
}
}  // namespace

Options parse_cli(int argc, char** argv, const std::string& module, const std::string& extra_usage, const ExtraFlag& extra) {
  Options o;
  o.module = module;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage_exit(module, extra_usage, a + " needs a value");
      return argv[++i];
    };
    if (a == "-h" || a == "--help") usage_exit(module, extra_usage, "");
    else if (a == "--seed") o.seed = parse_u64(module, extra_usage, a, value());
    else if (a == "--count" || a == "-n") o.count = parse_u64(module, extra_usage, a, value());
    else if (a == "--level") {
      const std::string l = value();
      if (l == "quick") o.level = Level::quick;
      else if (l == "long") o.level = Level::long_;
      else usage_exit(module, extra_usage, "--level: expected quick or long, got '" + l + "'");
    } else if (a == "--replay") o.replay = value();
    else if (a == "--waves") o.waves = true;
    else if (a == "--out") o.out_dir = value();
    else if (a == "--npy") o.npy = value();
    else if (a == "--source") o.only_source = value();
    else if (a == "--skip-corners") o.skip_corners = true;
    else if (a == "--max-errors") o.max_errors = parse_u64(module, extra_usage, a, value());
    else if (a == "--expect-mismatch") o.expect_mismatch = true;
    else if (a == "--no-coverage-check") o.coverage_check = false;
    else if (a == "--verbose" || a == "-v") o.verbose = true;
    else if (a == "--sweep") o.model = "sweep";
    else if (a == "--mutant") o.model = "mutant";
    else if (a == "--group") o.group = static_cast<int>(parse_u64(module, extra_usage, a, value()));
    else if (extra && extra(a, value)) continue;
    else usage_exit(module, extra_usage, "unknown option '" + a + "'");
  }
  return o;
}

// ---------------------------------------------------------------------------------------
std::string hex_words(const std::vector<uint32_t>& w) {
  std::string s;
  char buf[16];
  for (size_t i = 0; i < w.size(); ++i) {
    std::snprintf(buf, sizeof buf, "%s%08x", i ? " " : "", w[i]);
    s += buf;
  }
  return s;
}

std::string artifact_stem(const Options& o, uint64_t index, int group) {
  make_dirs(o.out_dir);
  std::string which;
  if (o.model != "main" || group != 0) which = "_" + o.model + "_g" + std::to_string(group);
  return o.out_dir + "/" + o.module + which + "_s" + std::to_string(o.seed) + "_v" + std::to_string(index);
}

std::string run_wave_path(const Options& o, int group) {
  if (!o.replay.empty()) {
    make_dirs(o.out_dir);
    std::string base = o.replay.substr(o.replay.find_last_of('/') == std::string::npos ? 0 : o.replay.find_last_of('/') + 1);
    const std::string ext = ".replay";
    if (base.size() > ext.size() && base.compare(base.size() - ext.size(), ext.size(), ext) == 0)
      base.resize(base.size() - ext.size());
    return o.out_dir + "/" + base + "_replay.vcd";
  }
  if (o.waves) {
    make_dirs(o.out_dir);
    std::string which;
    if (o.model != "main" || group != 0) which = "_" + o.model + "_g" + std::to_string(group);
    return o.out_dir + "/" + o.module + which + "_s" + std::to_string(o.seed) + ".vcd";
  }
  return "";
}

std::string write_replay(const Options& o, uint64_t index, int group, const Vector& v, const std::string& source_name,
                         const std::string& description) {
  const std::string path = artifact_stem(o, index, group) + ".replay";
  std::ofstream f(path);
  f << "# hifsim cosim replay file: run it with\n#   cosim_" << o.module << " --replay " << path << "\n";
  std::stringstream ds(description);
  std::string line;
  while (std::getline(ds, line)) f << "# " << line << "\n";
  f << "module " << o.module << "\nseed " << o.seed << "\nindex " << index << "\nsource " << source_name
    << "\nmodel " << o.model << "\ngroup " << group << "\nvector " << hex_words(v.w) << "\n";
  return path;
}

void read_replay_target(const std::string& path, std::string& model, int& group) {
  std::ifstream f(path);
  if (!f) throw std::runtime_error("cannot open replay file " + path);
  model = "main";
  group = 0;
  std::string line;
  while (std::getline(f, line)) {
    std::stringstream ls(line);
    std::string key;
    ls >> key;
    if (key == "model") ls >> model;
    else if (key == "group") ls >> group;
  }
  if (model != "main" && model != "sweep" && model != "mutant")
    throw std::runtime_error(path + ": unknown model '" + model + "' (main, sweep or mutant)");
}

Vector read_replay(const std::string& path, const std::string& module, const std::vector<std::string>& sources,
                   uint64_t* seed, uint64_t* index) {
  std::ifstream f(path);
  if (!f) throw std::runtime_error("cannot open replay file " + path);
  Vector v;
  bool have_vec = false;
  std::string line;
  while (std::getline(f, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::stringstream ls(line);
    std::string key;
    ls >> key;
    if (key == "module") {
      std::string m;
      ls >> m;
      if (m != module) throw std::runtime_error(path + ": replay file is for module " + m + ", not " + module);
    } else if (key == "seed") {
      uint64_t s = 0;
      ls >> s;
      if (seed) *seed = s;
    } else if (key == "index") {
      uint64_t s = 0;
      ls >> s;
      if (index) *index = s;
    } else if (key == "source") {
      std::string s;
      ls >> s;
      const auto it = std::find(sources.begin(), sources.end(), s);
      v.source = it == sources.end() ? 0 : static_cast<int>(it - sources.begin());
    } else if (key == "model" || key == "group") {
      // read by read_replay_target (the harness chose the model and group from them)
    } else if (key == "vector") {
      std::string h;
      while (ls >> h) v.w.push_back(static_cast<uint32_t>(std::stoul(h, nullptr, 16)));
      have_vec = true;
    } else {
      throw std::runtime_error(path + ": unknown line '" + line + "'");
    }
  }
  if (!have_vec) throw std::runtime_error(path + ": no 'vector' line");
  return v;
}

// ---------------------------------------------------------------------------------------
Session::Session(const Options& o, std::vector<std::string> source_names, std::vector<Field> layout, int out_words)
    : o_(o), sources_(std::move(source_names)), layout_(std::move(layout)), out_words_(out_words),
      per_source_(sources_.size(), 0), t0_(std::chrono::steady_clock::now()), c0_(std::clock()) {
  describe = [](const Vector& v) { return hex_words(v.w); };
  if (!o_.only_source.empty() &&
      std::find(sources_.begin(), sources_.end(), o_.only_source) == sources_.end()) {
    std::string all;
    for (const auto& s : sources_) all += " " + s;
    std::cerr << "cosim_" << o_.module << ": --source: unknown source '" << o_.only_source << "' (have:" << all << ")\n";
    std::exit(kExitUsage);
  }
}

bool Session::stop() const { return hang_ || timing_ || (o_.max_errors && mismatches_ >= o_.max_errors); }

void Session::count_vector(const Vector& v) {
  ++vectors_;
  if (v.source >= 0 && static_cast<size_t>(v.source) < per_source_.size()) ++per_source_[static_cast<size_t>(v.source)];
}

void Session::fail_hang(uint64_t index, const std::string& what) {
  hang_ = true;
  std::printf("HANG %s: seed %llu, vector %llu: %s\n", o_.module.c_str(), static_cast<unsigned long long>(o_.seed),
              static_cast<unsigned long long>(index), what.c_str());
}

bool Session::check(uint64_t index, const Vector& v, const uint32_t* expected, const uint32_t* got, int step,
                    const std::string& context) {
  ++checked_;
  bool same = true;
  for (int i = 0; i < out_words_; ++i) same = same && expected[i] == got[i];
  if (same) return true;
  ++mismatches_;
  if (o_.expect_mismatch && mismatches_ > 1) return false;  // the mutant check needs only one
  auto bits = [](const uint32_t* w, int msb, int lsb) {
    uint64_t r = 0;
    for (int b = msb; b >= lsb; --b) r = (r << 1) | ((w[b / 32] >> (b % 32)) & 1u);
    return r;
  };
  std::string field = "(unnamed bits)";
  uint64_t fe = 0, fg = 0;
  int fw = 0;
  for (const auto& f : layout_) {
    const uint64_t e = bits(expected, f.msb, f.lsb), g = bits(got, f.msb, f.lsb);
    if (e != g) {
      field = f.name;
      fe = e;
      fg = g;
      fw = f.msb - f.lsb + 1;
      break;
    }
  }
  const std::string src = v.source >= 0 && static_cast<size_t>(v.source) < sources_.size() ? sources_[static_cast<size_t>(v.source)] : "?";
  std::vector<uint32_t> ew(expected, expected + out_words_), gw(got, got + out_words_);
  std::printf("MISMATCH %s: seed %llu, vector %llu%s (source %s)\n", o_.module.c_str(),
              static_cast<unsigned long long>(o_.seed), static_cast<unsigned long long>(index),
              step >= 0 ? (", step " + std::to_string(step)).c_str() : "", src.c_str());
  std::printf("  first differing field: %s (%d bits): expected 0x%llx, RTL 0x%llx\n", field.c_str(), fw,
              static_cast<unsigned long long>(fe), static_cast<unsigned long long>(fg));
  std::printf("  expected words: %s\n  RTL words:      %s\n", hex_words(ew).c_str(), hex_words(gw).c_str());
  if (!context.empty()) std::printf("  %s\n", context.c_str());
  report_vector(index, v, src);
  return false;
}

void Session::report_vector(uint64_t index, const Vector& v, const std::string& src) {
  if (!group_what_.empty()) std::printf("  model %s, group %d: %s\n", o_.model.c_str(), group_, group_what_.c_str());
  std::printf("  vector: %s\n", hex_words(v.w).c_str());
  const std::string desc = describe(v);
  std::stringstream ds(desc);
  std::string line;
  while (std::getline(ds, line)) std::printf("    %s\n", line.c_str());
  if (!replaying()) {
    const std::string rp = write_replay(o_, index, group_, v, src, desc);
    std::printf("  replay file: %s\n  reproduce:   %s --replay %s\n", rp.c_str(), self_exe(o_.module).c_str(), rp.c_str());
    if (rerun_with_waves && !o_.waves) {
      const std::string wp = artifact_stem(o_, index, group_) + ".vcd";
      const bool again = rerun_with_waves(v, wp);
      std::printf("  waveform: %s (the vector re-run alone from reset, a few cycles: %s)\n", wp.c_str(),
                  again ? "mismatch reproduced" : "did NOT reproduce alone -- depends on the history/handshake; use --waves");
      const std::string fdir = write_wave_filters(o_.out_dir);
      std::printf("  view:        gtkwave %s\n               (codes as values: %s<code>.gtkw-filter, docs/cosim.md §3)\n",
                  wp.c_str(), fdir.c_str());
    }
  }
  std::fflush(stdout);
}

void Session::fail_timing(uint64_t index, const Vector* v, uint64_t cycle, const std::string& what) {
  ++mismatches_;
  timing_ = true;
  const std::string src = v && v->source >= 0 && static_cast<size_t>(v->source) < sources_.size() ? sources_[static_cast<size_t>(v->source)] : "?";
  std::printf("TIMING MISMATCH %s: seed %llu, vector %llu (source %s), cycle %llu after reset\n", o_.module.c_str(),
              static_cast<unsigned long long>(o_.seed), static_cast<unsigned long long>(index), src.c_str(),
              static_cast<unsigned long long>(cycle));
  std::printf("  %s\n", what.c_str());
  if (v) report_vector(index, *v, src);
  else std::fflush(stdout);
}

int Session::finish() {
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  std::string per;
  for (size_t i = 0; i < sources_.size(); ++i) {
    if (!per_source_[i]) continue;
    per += (per.empty() ? "" : ", ") + sources_[i] + " " + std::to_string(per_source_[i]);
  }
  // CPU time too: on a shared machine the wall rate says more about the load than the harness.
  const double cpu = static_cast<double>(std::clock() - c0_) / CLOCKS_PER_SEC;
  std::printf("%s: seed %llu, level %s: %llu vectors (%s), %llu transactions checked, %.2f s (%.0f vectors/s), "
              "CPU %.2f s (%.0f vectors/CPU-s)\n",
              o_.module.c_str(), static_cast<unsigned long long>(o_.seed), level_name(o_.level),
              static_cast<unsigned long long>(vectors_), per.c_str(), static_cast<unsigned long long>(checked_), secs,
              secs > 0 ? static_cast<double>(vectors_) / secs : 0.0, cpu, cpu > 0 ? static_cast<double>(vectors_) / cpu : 0.0);
  const bool cov_applies = o_.coverage_check && !replaying() && !o_.expect_mismatch;
  // The bin table is only meaningful for a complete run (not a replay, not one cut short by
  // a mismatch).
  if (!replaying() && !stop()) cov_.print(o_.verbose);
  const int holes = cov_.unhit_required();
  int rc = kExitPass;
  const char* verdict = "PASS";
  if (hang_) {
    rc = kExitHang;
    verdict = "FAIL (RTL hang)";
  } else if (o_.expect_mismatch) {
    if (mismatches_) verdict = "PASS (mismatch found, as expected for a mutant)";
    else {
      rc = kExitMismatch;
      verdict = "FAIL (expected a mismatch: the regression did not catch the mutant)";
    }
  } else if (mismatches_) {
    rc = kExitMismatch;
    verdict = "FAIL (mismatch)";
  } else if (cov_applies && holes) {
    rc = kExitCoverage;
    verdict = "FAIL (coverage: declared bins never hit)";
  }
  std::printf("%s: %llu mismatches, %d coverage holes: %s\n", o_.module.c_str(),
              static_cast<unsigned long long>(mismatches_), cov_applies ? holes : 0, verdict);
  std::fflush(stdout);
  return rc;
}

// ---------------------------------------------------------------------------------------
VectorStream::VectorStream(Session& s, std::vector<Vector> corners, std::function<void(SplitMix64&, Vector&)> gen)
    : s_(s), corners_(std::move(corners)), gen_(std::move(gen)), rng_(verif::vector_rng(s.opt().seed)) {
  if (s_.replaying()) s_.set_count(1);
  if (s_.opt().skip_corners) corners_.clear();
}

bool VectorStream::next(Vector& v, uint64_t& index) {
  if (s_.stop() || i_ >= s_.count()) return false;
  if (s_.replaying()) {
    uint64_t idx = 0;
    v = read_replay(s_.opt().replay, s_.opt().module, s_.sources(), nullptr, &idx);
    index = idx;
    ++i_;
    return true;
  }
  index = i_;
  if (i_ < corners_.size()) v = corners_[i_];
  else gen_(rng_, v);
  ++i_;
  return true;
}

}  // namespace hifsim::cosim
