#!/usr/bin/env bash
# Yosys elaboration of the calibration array rtl/array/matrix_unit_top.sv for one PE type
# (docs/tlm.md section 11; ctest `rtl.elab.matrix_unit_top.<pe>`, label rtl-lint). The dataflow (OS / WS) and every
# timing field are run-time registers of the top, so one elaboration per PE type holds the
# hardware of both dataflows. Recipe: read the sources, set the model's parameters,
# `hierarchy -check` (every module and port exists), `proc`, `check -assert` (no used wire
# without a driver, no multiple drivers, no combinational loop); also fails on an "implicitly
# declared" warning: a misspelt signal that happens to be driven would pass `check` as an
# implicit 1-bit wire.
#
#   yosys_elab.sh YOSYS PE HIF8_N HIF8_W HIF8_STICKY STAGES SOURCE...
#   yosys_elab.sh --broken YOSYS SOURCE...
# SOURCE...: the files of rtl/array/matrix_unit_top.f in order (CMake passes them).
# --broken checks that the recipe can fail: a copy of the sources in which one signal of
# matrix_unit_top (`running` in `assign busy = running;`) is misspelt, elaborated as HiF4; exits
# 0 only if the mutation was applied and Yosys rejected the copy naming that signal.
set -euo pipefail
broken=0
if [[ ${1:-} == --broken ]]; then
  broken=1
  shift
fi
yosys=$1
shift
if ((broken)); then
  pe=0 n8=64 w8=0 sk=0 st=3
else
  (($# > 5)) || { echo "usage: yosys_elab.sh YOSYS PE HIF8_N HIF8_W HIF8_STICKY STAGES SOURCE..." >&2; exit 2; }
  pe=$1 n8=$2 w8=$3 sk=$4 st=$5
  shift 5
fi
srcs=("$@")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if ((broken)); then
  # No source `include`s another, so a flat copy reads the same.
  mkdir "$work/src"
  copies=()
  for f in "${srcs[@]}"; do
    cp "$f" "$work/src/"
    copies+=("$work/src/$(basename "$f")")
  done
  srcs=("${copies[@]}")
  top=$work/src/matrix_unit_top.sv
  sed -i 's/^\(\s*assign busy = \)running;/\1running_undeclared;/' "$top"
  grep -q 'running_undeclared' "$top" || { echo "yosys_elab.sh: mutation not applied (matrix_unit_top.sv changed?)" >&2; exit 1; }
fi

log=$work/yosys.log
rc=0
"$yosys" -q -l "$log" -p "read_verilog -sv ${srcs[*]};
  chparam -set PE $pe -set HIF8_N $n8 -set HIF8_W $w8 -set HIF8_STICKY $sk -set STAGES $st matrix_unit_top;
  hierarchy -check -top matrix_unit_top; proc; check -assert" > /dev/null 2>&1 || rc=$?
if grep -q 'implicitly declared' "$log"; then
  rc=1
fi

if ((broken)); then
  if ((rc != 0)) && grep -q 'running_undeclared' "$log"; then
    echo "the copy with an undeclared signal is rejected, as it must be:"
    grep -E 'running_undeclared|ERROR' "$log" | sort -u | head -5
    exit 0
  fi
  echo "yosys_elab.sh: the copy with an undeclared signal was NOT rejected (rc $rc)" >&2
  exit 1
fi
if ((rc != 0)); then
  grep -E 'ERROR|Warning: .*(implicitly|no driver|multiple|loop)' "$log" >&2 || tail -20 "$log" >&2
  exit 1
fi
echo "matrix_unit_top PE=$pe HIF8_N=$n8 HIF8_W=$w8 HIF8_STICKY=$sk STAGES=$st elaborates ($("$yosys" -V))"
