#!/usr/bin/env bash
# The whole test suite, from a fresh clone: installs what is missing, configures, builds,
# runs every test (ctest), then rebuilds the C++ model with AddressSanitizer and
# UndefinedBehaviorSanitizer in build-asan/ and runs the fast tests there, and runs every fuzz
# harness for a short smoke budget (build-fuzz/, scripts/fuzz.sh).
# Long levels (labels `exhaustive`, `cosim-long`, `calibration-long`, `train-long`, `formal-long`, `proof-open`, `mismatch-long`) are not run here: see docs/testing.md.
set -euo pipefail
# shellcheck source=scripts/fresh_clone.sh
source "$(dirname "${BASH_SOURCE[0]}")/fresh_clone.sh"  # ROOT (cd there), JOBS, step(); runs scripts/setup.sh

step "configure + build (build/, Release)"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$JOBS"

step "trace tensors of stories260k (seconds; read by the trace and TLM tests)"
bash scripts/capture/ensure_traces.sh --only stories260k

step "tests (build/)"
ctest --test-dir build -j "$JOBS" --output-on-failure --timeout 1500 -LE 'exhaustive|cosim-long|calibration-long|train-long|formal-long|proof-open|mismatch-long'

step "sanitizers: build-asan/ (-fsanitize=address,undefined), fast tests"
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHIFSIM_SANITIZE=ON -DHIFSIM_FAST_ONLY=ON >/dev/null
cmake --build build-asan -j "$JOBS"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build-asan -j "$JOBS" --output-on-failure --timeout 1500 -L sanitize

# ~2 min on 2 cores: the clang build of the readers (~2.5 CPU-minutes) and 5 s per harness, which
# replays the committed seeds and regression inputs first (docs/testing.md "Fuzzing").
step "fuzz smoke: the libFuzzer harnesses of fuzz/ (clang-14, ASan + UBSan), 5 s each"
bash scripts/fuzz.sh --smoke 5

step "all tests passed"
