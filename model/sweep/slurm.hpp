// The Slurm files of a sweep (docs/sweeps.md, "On a Slurm cluster"), written by
// `hifsim sweep --emit-slurm N` into the sweep's folder DIR:
//   DIR/sweep.slurm  a job array of N tasks; task i runs shard i/N (resumable)
//   DIR/merge.slurm  the merge (results.csv, missing.txt, Pareto plot), a job of its own
//   DIR/submit.sh    creates DIR/logs, submits the array and the merge with
//                    --dependency=afterok:<array> (cancelled by Slurm if a task fails);
//                    `submit.sh 2,5` resubmits only those tasks and queues a new merge
// Logs: DIR/logs/sweep-<array job>_<task>.log and DIR/logs/merge-<job>.log.
//
// Every value that comes from the user is quoted for the place it lands in: single-quoted for
// bash, double-quoted with backslash escapes (and % doubled in log names) in #SBATCH lines, and
// the sweep name reduced to [A-Za-z0-9._-] wherever it appears, so no name or path can become a
// command. A folder whose path cannot be written in an #SBATCH line (a newline, or a backslash,
// which turns off Slurm's %A/%a log names) is refused with hifsim::Error naming --out.
#pragma once
#include <string>
#include <vector>

#include "sweep/sweep.hpp"

namespace hifsim::sweep {

struct SlurmOptions {
  size_t tasks = 1;                    // array tasks = shards
  size_t throttle = 0;                 // at most this many tasks at once (%K); 0 = no limit
  unsigned cpus_per_task = 1;          // each task evaluates this many points in parallel
  std::string hifsim;                  // absolute path of the hifsim executable
  std::string sweep_file;              // absolute path of the sweep file
  std::string out_dir;                 // absolute path of the sweep's folder
  std::vector<std::string> eval_args;  // options every task and the merge repeat (e.g. --cost-sample 256)
};

struct SlurmFiles {
  std::string array_script, merge_script, submit_script;
};

SlurmFiles slurm_files(const SweepSpec& s, const SlurmOptions& o);

// POSIX shell single-quoting: the result is one word whatever the bytes of s.
std::string shell_quote(const std::string& s);
// The sweep name as Slurm shows it and comments may hold: [A-Za-z0-9._-], at most 64 characters.
std::string job_name(const std::string& sweep_name);

}  // namespace hifsim::sweep
