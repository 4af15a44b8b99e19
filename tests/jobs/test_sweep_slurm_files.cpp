// The Slurm files of a sweep (model/sweep/slurm.hpp), run for real by bash with stand-ins for
// hifsim and sbatch that record their arguments: a sweep name with newlines and $(...), and
// a folder, executable and sweep file full of shell syntax, reach every program as the exact
// words they are and never run anything. (A real slurmctld runs them in tests/slurm.)
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "jobs/sweep_test_files.hpp"
#include "sweep/slurm.hpp"

using namespace hifsim::sweep;
using hifsim::test::read_text;
using hifsim::test::ScratchDir;
using hifsim::test::write_text;
namespace fs = std::filesystem;

namespace {
std::vector<std::string> words(const std::string& nul_separated) {
  std::vector<std::string> w;
  std::string cur;
  for (char c : nul_separated) {
    if (c == '\0') {
      w.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  return w;
}
std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> l;
  std::istringstream in(text);
  for (std::string x; std::getline(in, x);) l.push_back(x);
  return l;
}
// Runs `bash script args` with extra environment; returns the exit status.
int run(const std::string& env, const std::string& script, const std::string& args = "") {
  const int st = std::system((env + " bash " + shell_quote(script) + " " + args + " >/dev/null 2>&1").c_str());
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}
size_t injected_files(const std::string& root) {
  size_t n = 0;
  for (const auto& e : fs::recursive_directory_iterator(root))
    n += e.path().filename().string().rfind("PWNED", 0) == 0;
  return n + fs::exists("PWNED") + fs::exists("PWNED2") + fs::exists("PWNED3");
}

struct Hostile {
  ScratchDir scratch{"slurm-files"};
  std::string root = scratch.path(), fake, out, bin, sweep_file;
  SweepSpec spec;
  SlurmOptions opt;
  SlurmFiles files;
  Hostile() {
    fake = root + "/fake";  // plain name: where the stand-ins record what they received
    fs::create_directories(fake);
    const std::string shell_syntax = " $(touch PWNED) `touch PWNED2` 'q' \"dq\" ; # %j & * $HOME";
    out = root + "/out" + shell_syntax;
    bin = root + "/bin" + shell_syntax + "/hifsim";
    sweep_file = root + "/sweep" + shell_syntax + ".yaml";
    fs::create_directories(out);
    fs::create_directories(fs::path(bin).parent_path());
    write_text(bin, "#!/bin/bash\nprintf '%s\\0' \"$@\" > \"$FAKE/hifsim.args\"\n");
    chmod(bin.c_str(), 0755);
    write_text(fake + "/sbatch",
          "#!/bin/bash\nn=$(( $(cat \"$FAKE/count\" 2>/dev/null || echo 0) + 1 ))\necho $n > \"$FAKE/count\"\n"
          "printf '%s\\0' \"$@\" > \"$FAKE/sbatch.$n\"\necho \"$((1233 + n));cluster\"\n");
    chmod((fake + "/sbatch").c_str(), 0755);
    spec.name = "x\n$(touch PWNED3)\necho hi";
    opt.tasks = 4;
    opt.throttle = 2;
    opt.cpus_per_task = 3;
    opt.hifsim = bin;
    opt.sweep_file = sweep_file;
    opt.out_dir = out;
    opt.eval_args = {"--cost-sample", "512"};
    files = slurm_files(spec, opt);
    write_text(out + "/sweep.slurm", files.array_script);
    write_text(out + "/merge.slurm", files.merge_script);
    write_text(out + "/submit.sh", files.submit_script);
  }
  std::string env() const { return "FAKE=" + shell_quote(fake) + " PATH=" + shell_quote(fake) + ":\"$PATH\""; }
};
}  // namespace

TEST(SweepSlurmFiles, ScriptLinesAreOnlyDirectivesCommentsAndTheCommand) {
  const Hostile h;
  for (const std::string* script : {&h.files.array_script, &h.files.merge_script}) {
    for (const auto& l : lines(*script))
      EXPECT_TRUE(l.rfind("#", 0) == 0 || l == "set -euo pipefail" || l.rfind("exec ", 0) == 0) << l;
  }
  const auto a = lines(h.files.array_script);
  // The name only as [A-Za-z0-9._-]; the paths double-quoted for sbatch, % doubled.
  EXPECT_NE(std::find(a.begin(), a.end(), "#SBATCH --job-name=hifsim-x___touch_PWNED3__echo_hi"), a.end());
  EXPECT_NE(std::find(a.begin(), a.end(), "#SBATCH --array=0-3%2"), a.end());
  EXPECT_NE(std::find(a.begin(), a.end(), "#SBATCH --cpus-per-task=3"), a.end());
  const std::string expect_output = "#SBATCH --output=\"" + h.root +
                                    "/out $(touch PWNED) `touch PWNED2` 'q' \\\"dq\\\" ; # %%j & * $HOME/logs/sweep-%A_%a.log\"";
  EXPECT_NE(std::find(a.begin(), a.end(), expect_output), a.end()) << h.files.array_script;
}

TEST(SweepSlurmFiles, ATaskPassesEveryPathAsOneExactWord) {
  const Hostile h;
  ASSERT_EQ(run(h.env() + " SLURM_ARRAY_TASK_ID=2 SLURM_CPUS_PER_TASK=3", h.out + "/sweep.slurm"), 0);
  EXPECT_EQ(words(read_text(h.fake + "/hifsim.args")),
            (std::vector<std::string>{"sweep", "--sweep", h.sweep_file, "--out", h.out, "--cost-sample", "512", "--shard",
                                      "2/4", "--jobs", "3", "--no-plots"}));
  ASSERT_EQ(run(h.env(), h.out + "/merge.slurm"), 0);
  EXPECT_EQ(words(read_text(h.fake + "/hifsim.args")),
            (std::vector<std::string>{"sweep", "--sweep", h.sweep_file, "--out", h.out, "--cost-sample", "512", "--merge-only"}));
  EXPECT_EQ(injected_files(h.root), 0u);
}

TEST(SweepSlurmFiles, SubmitCreatesTheLogFolderAndChainsTheMerge) {
  const Hostile h;
  ASSERT_EQ(run(h.env(), h.out + "/submit.sh"), 0);
  EXPECT_TRUE(fs::is_directory(h.out + "/logs"));
  EXPECT_EQ(words(read_text(h.fake + "/sbatch.1")), (std::vector<std::string>{"--parsable", h.out + "/sweep.slurm"}));
  EXPECT_EQ(words(read_text(h.fake + "/sbatch.2")),
            (std::vector<std::string>{"--parsable", "--dependency=afterok:1234", "--kill-on-invalid-dep=yes",
                                      h.out + "/merge.slurm"}));
  EXPECT_EQ(read_text(h.out + "/logs/jobs.txt"), "1234 1235 all\n");
  // Resubmitting two tasks: only those, and a new merge after them.
  ASSERT_EQ(run(h.env(), h.out + "/submit.sh", "1,3"), 0);
  EXPECT_EQ(words(read_text(h.fake + "/sbatch.3")), (std::vector<std::string>{"--parsable", "--array=1,3", h.out + "/sweep.slurm"}));
  EXPECT_EQ(words(read_text(h.fake + "/sbatch.4")),
            (std::vector<std::string>{"--parsable", "--dependency=afterok:1236", "--kill-on-invalid-dep=yes",
                                      h.out + "/merge.slurm"}));
  // A task that does not exist, or anything that is not a task list, submits nothing.
  for (const char* bad : {"4", "0-4", "'1;touch PWNED'", "'$(touch PWNED)'", "x"})
    EXPECT_EQ(run(h.env(), h.out + "/submit.sh", bad), 2) << bad;
  EXPECT_FALSE(fs::exists(h.fake + "/sbatch.5"));
  EXPECT_EQ(injected_files(h.root), 0u);
}

TEST(SweepSlurmFiles, FoldersAnSbatchLineCannotHoldAreRefused) {
  SweepSpec s;
  SlurmOptions o;
  o.tasks = 2;
  for (const char* bad : {"/tmp/a\nb", "/tmp/a\\b"}) {
    o.out_dir = bad;
    try {
      slurm_files(s, o);
      FAIL() << "accepted " << bad;
    } catch (const std::exception& e) {
      EXPECT_EQ(std::string(e.what()).rfind("--out: ", 0), 0u) << e.what();
    }
  }
  EXPECT_EQ(shell_quote("it's"), "'it'\\''s'");
  EXPECT_EQ(job_name(""), "sweep");
  EXPECT_EQ(job_name(std::string(100, 'a')).size(), 64u);
}
