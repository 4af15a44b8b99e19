#include "sweep/slurm.hpp"

#include <cctype>

#include "util/error.hpp"

namespace hifsim::sweep {
namespace {

// An #SBATCH argument: sbatch reads a directive up to the end of its line, honours "..." and
// backslash escapes, and never runs a shell on it.
std::string directive_quote(const std::string& s) {
  std::string o = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\';
    o += c;
  }
  return o + "\"";
}

// Slurm expands %j, %A, %a, ... in log file names; a literal % is written %%.
std::string log_pattern_literal(const std::string& s) {
  std::string o;
  for (char c : s) o += c == '%' ? std::string("%%") : std::string(1, c);
  return o;
}

std::string command(const SlurmOptions& o, const std::string& tail) {
  std::string c = "exec " + shell_quote(o.hifsim) + " sweep --sweep " + shell_quote(o.sweep_file) + " --out " +
                  shell_quote(o.out_dir);
  for (const auto& a : o.eval_args) c += " " + shell_quote(a);
  return c + " " + tail + "\n";
}

}  // namespace

std::string shell_quote(const std::string& s) {
  std::string o = "'";
  for (char c : s) o += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return o + "'";
}

std::string job_name(const std::string& sweep_name) {
  std::string o;
  for (char c : sweep_name) {
    if (o.size() == 64) break;
    o += (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-') ? c : '_';
  }
  return o.empty() ? "sweep" : o;
}

SlurmFiles slurm_files(const SweepSpec& s, const SlurmOptions& o) {
  if (o.out_dir.find_first_of("\n\r\\") != std::string::npos)
    throw Error("--out", o.out_dir,
                "a folder for a Slurm sweep must not contain a newline or a backslash (an #SBATCH log path cannot hold "
                "them)");
  if (o.tasks == 0) throw Error("--emit-slurm", "0", "needs at least one task");
  const std::string name = job_name(s.name), n = std::to_string(o.tasks);
  const std::string logs = log_pattern_literal(o.out_dir) + "/logs/";
  SlurmFiles f;

  f.array_script = "#!/bin/bash\n"
                   "# The hifsim sweep " + name + " as a Slurm job array: task i evaluates shard i/" + n +
                   " of its points\n"
                   "# (docs/sweeps.md). Written by `hifsim sweep --emit-slurm`; submit it with submit.sh next to it,\n"
                   "# which creates the log folder and queues the merge. A resubmitted task skips finished points.\n"
                   "#SBATCH --job-name=hifsim-" + name + "\n"
                   "#SBATCH --array=0-" + std::to_string(o.tasks - 1) + (o.throttle ? "%" + std::to_string(o.throttle) : "") + "\n"
                   "#SBATCH --cpus-per-task=" + std::to_string(o.cpus_per_task) + "\n"
                   "#SBATCH --output=" + directive_quote(logs + "sweep-%A_%a.log") + "\n"
                   "set -euo pipefail\n" +
                   command(o, "--shard \"${SLURM_ARRAY_TASK_ID}/" + n + "\" --jobs \"${SLURM_CPUS_PER_TASK:-1}\" --no-plots");

  f.merge_script = "#!/bin/bash\n"
                   "# The merge of the hifsim sweep " + name + " (docs/sweeps.md): results.csv, missing.txt and the\n"
                   "# Pareto plot from every finished point. submit.sh queues it after the job array.\n"
                   "#SBATCH --job-name=hifsim-" + name + "-merge\n"
                   "#SBATCH --cpus-per-task=1\n"
                   "#SBATCH --output=" + directive_quote(logs + "merge-%j.log") + "\n"
                   "set -euo pipefail\n" +
                   command(o, "--merge-only");

  f.submit_script =
      "#!/bin/bash\n"
      "# Submits the hifsim sweep " + name + " to Slurm (docs/sweeps.md): the job array sweep.slurm, then\n"
      "# merge.slurm with --dependency=afterok on the array, so it runs once every task succeeded (and\n"
      "# Slurm cancels it if one fails). Prints the two job ids.\n"
      "#   bash submit.sh          every task\n"
      "#   bash submit.sh 2,5      only these tasks (after a failure or a cancel), and a new merge\n"
      "set -euo pipefail\n"
      "dir=" + shell_quote(o.out_dir) + "\n"
      "tasks=${1:-}\n"
      "if [[ -n $tasks ]]; then\n"
      "  [[ $tasks =~ ^[0-9]{1,6}(-[0-9]{1,6})?(,[0-9]{1,6}(-[0-9]{1,6})?)*(%[0-9]{1,6})?$ ]] ||\n"
      "    { echo \"submit.sh: '$tasks' is not a task list such as 2, 1,3 or 0-3%2\" >&2; exit 2; }\n"
      "  for t in $(tr ',-' '  ' <<<\"${tasks%%\\%*}\"); do\n"
      "    ((10#$t < " + n + ")) || { echo \"submit.sh: task $t does not exist (tasks are 0-" + std::to_string(o.tasks - 1) +
      ")\" >&2; exit 2; }\n"
      "  done\n"
      "fi\n"
      "# Slurm opens a job's log file before the job starts: the folder must exist at submission.\n"
      "mkdir -p \"$dir/logs\"\n"
      "array=$(sbatch --parsable ${tasks:+--array=\"$tasks\"} \"$dir/sweep.slurm\")\n"
      "array=${array%%;*}\n"
      "merge=$(sbatch --parsable --dependency=afterok:\"$array\" --kill-on-invalid-dep=yes \"$dir/merge.slurm\")\n"
      "merge=${merge%%;*}\n"
      "echo \"$array $merge ${tasks:-all}\" >>\"$dir/logs/jobs.txt\"\n"
      "echo \"array job $array (tasks ${tasks:-all}), merge job $merge after it\"\n"
      "echo \"logs: $dir/logs/sweep-${array}_<task>.log, $dir/logs/merge-$merge.log\"\n";
  return f;
}

}  // namespace hifsim::sweep
