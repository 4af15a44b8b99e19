#!/usr/bin/env bash
# The main job from a fresh clone: the format comparison report on the shipped real LLM layer
# trace (SmolLM2-135M-Instruct). Installs what is missing, builds only what the job needs,
# produces the trace tensors (scripts/capture/ensure_traces.sh), then runs `hifsim compare`,
# which writes reports/smollm2-135m/report.html (plots embedded), report.md, plots/ and data/.
# Extra arguments go to `hifsim compare` (see `build/bin/hifsim compare --help`).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
JOBS="${HIFSIM_JOBS:-$(nproc)}"
step() { printf '\n==== %s ====\n' "$*"; }

step "setup (installs only what is missing)"
bash scripts/setup.sh

step "build (build/, Release: the hifsim program and its Python package)"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$JOBS" --target hifsim hifsim_python

step "trace tensors (traces/smollm2-135m, traces/stories260k)"
bash scripts/capture/ensure_traces.sh

step "format comparison report"
build/bin/hifsim compare "$@"
