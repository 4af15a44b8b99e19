#!/usr/bin/env bash
# The main job from a fresh clone: the format comparison report on the whole of a real LLM
# (SmolLM2-135M-Instruct: all 30 layers, 256 tokens). Installs what is missing, builds only what
# the job needs, produces the trace tensors (scripts/capture/ensure_traces.sh --only smollm2-all),
# then runs `hifsim compare`, which writes reports/smollm2-135m-all/report.html (plots embedded),
# report.md, plots/ and data/.
# Extra arguments go to `hifsim compare` (see `build/bin/hifsim compare --help`).
set -euo pipefail
# shellcheck source=scripts/fresh_clone.sh
source "$(dirname "${BASH_SOURCE[0]}")/fresh_clone.sh"  # ROOT (cd there), JOBS, step(); runs scripts/setup.sh

step "build (build/, Release: the hifsim program and its Python package)"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$JOBS" --target hifsim hifsim_python

step "trace tensors (traces/smollm2-135m-all: SmolLM2-135M, all 30 layers x 256 tokens)"
bash scripts/capture/ensure_traces.sh --only smollm2-all

step "format comparison report"
build/bin/hifsim compare "$@"
