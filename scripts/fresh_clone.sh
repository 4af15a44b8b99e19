# shellcheck shell=bash
# The start of the jobs that run from a fresh clone (scripts/test.sh, scripts/main.sh), sourced
# after `set -euo pipefail`: ROOT is the checkout (and the working folder from here on), JOBS the
# parallel build jobs ($HIFSIM_JOBS, default all cores), step() prints a stage banner; then the
# first stage, scripts/setup.sh, installs only what is missing.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
JOBS="${HIFSIM_JOBS:-$(nproc)}"
step() { printf '\n==== %s ====\n' "$*"; }

step "setup (installs only what is missing)"
bash scripts/setup.sh
