# shellcheck shell=bash
# The common start of the end-to-end shell tests called as `<test>.sh HIFSIM REPO_ROOT OUT_DIR`
# (tests/cost/cli_cost.sh, tests/tlm/cli_run.sh), sourced after `set -euo pipefail`: H is the
# hifsim binary, ROOT the source tree, OUT the output folder (emptied, so that nothing of an
# earlier run can pass a check), A the committed 64 x 1024 float32 activations, fail() the exit.
H=$1
ROOT=$2
OUT=$3
rm -rf "$OUT"
mkdir -p "$OUT"
A=$ROOT/traces/sample/activations.npy   # 64 x 1024 float32, committed
fail() { echo "FAIL: $*" >&2; exit 1; }
