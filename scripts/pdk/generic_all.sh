#!/usr/bin/env bash
# scripts/pdk/generic_all.sh: run only the Liberty-independent synthesis of every unit
# (synth_unit.py's cached generic step), so the mapping can start as soon as a Liberty exists.
#   usage: generic_all.sh [--only REGEX] [--work DIR]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
ONLY=""; WORK="$ROOT/build/pdk/synth"
while (($#)); do case "$1" in --only) ONLY="$2"; shift 2 ;; --work) WORK="$2"; shift 2 ;; *) echo "generic_all.sh: unknown option '$1'" >&2; exit 2 ;; esac; done
bash "$ROOT/scripts/synth.sh" --list-sources | while IFS='|' read -r mod srcs params; do
  [[ -z "$ONLY" ]] || grep -Eq -- "$ONLY" <<<"$mod $params" || continue
  tag="${mod}_${params//[;=]/_}"
  mkdir -p "$WORK/$tag"
  PYTHONPATH="$ROOT/python" "$ROOT/.venv/bin/python" -c "from hifsim_flows.pdk import synth_unit as s; print(s.generic('$mod', '$srcs', '$params', '$WORK/$tag'))" \
    && echo "[generic] $mod $params" || echo "[generic] $mod $params FAILED" >&2
done
