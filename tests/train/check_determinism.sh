#!/usr/bin/env bash
# `hifsim train` is the same bits for any thread count (label train, docs/testing.md): a few
# steps of the hif4 recipe (bit-exact engine in every linear GEMM), of nvfp4 (stochastic rounding,
# RHT, 16x16 weight blocks, BF16 layers), of fp32 and of bf16 with Full-Stack FP4 attention
# (`attention: full_stack_fp4`, the attention GEMMs through the NVFP4/BF16 engines) with 1 and 2
# threads; loss.csv must be identical except the wall-clock column, and the attention option must
# change the run against plain bf16. Usage: check_determinism.sh HIFSIM
set -euo pipefail
hifsim=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
src=$(cd "$(dirname "$0")/../.." && pwd)
# The checkpoint where hifsim train looks for it ($HIFSIM_DATA, ../shared/data, /work/shared/data):
# absent, the test is reported as skipped (exit 77), as the trace tests are.
found=""
for d in ${HIFSIM_DATA:+"$HIFSIM_DATA"} "$src/../shared/data" /work/shared/data; do
  [ -f "$d/stories260K.bin" ] && { found=$d; break; }
done
[ -n "$found" ] || { echo "SKIPPED: stories260K.bin not found (set HIFSIM_DATA)"; exit 77; }
{ sed 's/^recipe: bf16$/recipe: bf16-fs4attn/' "$src/configs/recipes/bf16.yaml"; echo "attention: full_stack_fp4"; } \
  > "$tmp/bf16-fs4attn.yaml"
for recipe in hif4 nvfp4 fp32 bf16 bf16-fs4attn; do
  spec=$recipe; [ "$recipe" = bf16-fs4attn ] && spec=$tmp/bf16-fs4attn.yaml
  for t in 1 2; do
    "$hifsim" train --recipe "$spec" --steps 3 --seed 7 --batch 2 --seq-len 64 --threads "$t" --quiet --out "$tmp/$recipe-$t"
    cut -d, -f1-9 "$tmp/$recipe-$t/loss.csv" > "$tmp/$recipe-$t.csv"
  done
  if ! cmp -s "$tmp/$recipe-1.csv" "$tmp/$recipe-2.csv"; then
    echo "FAIL: $recipe: loss.csv differs between 1 and 2 threads"; diff "$tmp/$recipe-1.csv" "$tmp/$recipe-2.csv" || true; exit 1
  fi
  # the run must train: the loss of step 3 differs from step 1 (a trainer that never updates fails)
  l1=$(sed -n 2p "$tmp/$recipe-1.csv" | cut -d, -f2); l3=$(sed -n 4p "$tmp/$recipe-1.csv" | cut -d, -f2)
  [ "$l1" != "$l3" ] || { echo "FAIL: $recipe: the loss did not change in 3 steps"; exit 1; }
  test -s "$tmp/$recipe-1/loss.svg" && test -s "$tmp/$recipe-1/manifest.json"
  echo "$recipe: 1 and 2 threads identical ($(($(wc -l < "$tmp/$recipe-1.csv") - 1)) steps)"
done
# Full-Stack FP4 attention (Q/K/V and dS in NVFP4) changes the run: loss and gradient columns differ
if cmp -s "$tmp/bf16-1.csv" "$tmp/bf16-fs4attn-1.csv"; then
  echo "FAIL: attention: full_stack_fp4 gives the same loss.csv as bf16"; exit 1
fi
echo "bf16-fs4attn: differs from bf16 ($(cut -d, -f2 "$tmp/bf16-1.csv" | tail -1) vs $(cut -d, -f2 "$tmp/bf16-fs4attn-1.csv" | tail -1) at the last step)"
