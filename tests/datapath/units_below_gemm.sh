#!/usr/bin/env bash
# Layers point down: the datapath units (model/datapath) never include the GEMM engine (model/gemm)
# that is built from them. Prints every offending include and fails if there is one.
set -euo pipefail
src="${1:?usage: units_below_gemm.sh SOURCE_DIR}"
if grep -rn --include='*.hpp' --include='*.cpp' '#include "gemm/' "$src/model/datapath"; then
  echo "units_below_gemm: model/datapath must not include model/gemm (the engine uses the units, never the reverse)" >&2
  exit 1
fi
