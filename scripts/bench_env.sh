# shellcheck shell=bash
# The common start of the benchmark scripts that build bench/ targets (scripts/bench_formats.sh,
# scripts/bench_gemm.sh), sourced after `set -euo pipefail`: ROOT (the working folder from here
# on), BUILD ($HIFSIM_BENCH_BUILD, default build/), JOBS ($HIFSIM_JOBS, default all cores), PY (the
# project venv's python), OUT (a scratch folder, removed at exit), and bench_build TARGET...:
# configure BUILD as Release and build only those targets.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
BUILD="${HIFSIM_BENCH_BUILD:-build}"
JOBS="${HIFSIM_JOBS:-$(nproc)}"
PY="$ROOT/.venv/bin/python"
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT

bench_build() {
  cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$BUILD" -j "$JOBS" --target "$@"
}
