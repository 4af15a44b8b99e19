#!/usr/bin/env bash
# `hifsim vectors` end to end (docs/cosim.md "Conformance vectors"):
#   - every unit writes stimulus.hex / expected.hex / README.md / manifest.json with one line per
#     transaction of the width the README states;
#   - the same seed gives the same bytes, another seed other vectors;
#   - bad options fail with a message naming the option, and write nothing.
# The values themselves are checked against the RTL by cosim.conformance.hif4_dot64.
set -euo pipefail
HIFSIM=$1
OUT=$2
rm -rf "$OUT"
mkdir -p "$OUT"
fail() { echo "cli_vectors.sh: $*" >&2; exit 1; }

for u in hif4_dot64 fp32_acc nvfp4_dot64 mxfp4_dot64 mxfp8_dot32 hif8_dot bf16_dot64 sparse_residual_add hif4_quantizer hadamard16 sr_quantizer; do
  "$HIFSIM" vectors --unit "$u" --count 40 --seed 5 --out "$OUT/$u" > "$OUT/$u.log"
  for f in stimulus.hex expected.hex README.md manifest.json; do
    [[ -s "$OUT/$u/$f" ]] || fail "$u: $f missing or empty"
  done
  ns=$(wc -l < "$OUT/$u/stimulus.hex")
  ne=$(wc -l < "$OUT/$u/expected.hex")
  [[ "$ns" == "$ne" && "$ns" -ge 40 ]] || fail "$u: $ns stimulus lines, $ne expected lines (want equal, >= 40)"
  # The README states the line widths; every line must have exactly that many hex digits.
  ds=$(sed -n 's/^- `stimulus.hex`: .* bits as \([0-9]*\) hex digits.*/\1/p' "$OUT/$u/README.md")
  de=$(sed -n 's/^- `expected.hex`: .* bits as \([0-9]*\) hex digits.*/\1/p' "$OUT/$u/README.md")
  [[ -n "$ds" && -n "$de" ]] || fail "$u: README does not state the line widths"
  awk -v d="$ds" 'length($0) != d || $0 !~ /^[0-9a-f]+$/ {exit 1}' "$OUT/$u/stimulus.hex" || fail "$u: a stimulus line is not $ds hex digits"
  awk -v d="$de" 'length($0) != d || $0 !~ /^[0-9a-f]+$/ {exit 1}' "$OUT/$u/expected.hex" || fail "$u: an expected line is not $de hex digits"
  grep -q "^## Coverage bins hit" "$OUT/$u/README.md" || fail "$u: README has no coverage section"
done

# Parameters change the expected values (a narrow truncating window rounds differently).
"$HIFSIM" vectors --unit hif8_dot --set N=16,W=8,STICKY=0 --count 300 --seed 5 --out "$OUT/hif8_w8" > /dev/null
"$HIFSIM" vectors --unit hif8_dot --set N=16 --count 300 --seed 5 --out "$OUT/hif8_exact" > /dev/null
cmp -s "$OUT/hif8_w8/expected.hex" "$OUT/hif8_exact/expected.hex" && fail "W=8 trunc and exact give the same results"
grep -q "N=16, W=8, STICKY=0" "$OUT/hif8_w8/README.md" || fail "README does not name the parameters"
grep -q -- "--set N=16,W=8,STICKY=0 --count 300 --seed 5" "$OUT/hif8_w8/README.md" || fail "README does not give the command that reproduces the vectors"

# Reproducible by seed; another seed, other random vectors.
"$HIFSIM" vectors --unit nvfp4_dot64 --count 800 --seed 9 --out "$OUT/s9a" > /dev/null
"$HIFSIM" vectors --unit nvfp4_dot64 --count 800 --seed 9 --out "$OUT/s9b" > /dev/null
"$HIFSIM" vectors --unit nvfp4_dot64 --count 800 --seed 10 --out "$OUT/s10" > /dev/null
cmp "$OUT/s9a/stimulus.hex" "$OUT/s9b/stimulus.hex" || fail "same seed, different stimulus"
cmp "$OUT/s9a/expected.hex" "$OUT/s9b/expected.hex" || fail "same seed, different expected values"
cmp -s "$OUT/s9a/stimulus.hex" "$OUT/s10/stimulus.hex" && fail "seeds 9 and 10 give the same stimulus"

# Bad options: a message naming the option, a non-zero exit, nothing written.
expect_error() {  # expect_error <text the message must contain> <args...>
  local want=$1
  shift
  local err
  if err=$("$HIFSIM" vectors "$@" 2>&1 >/dev/null); then fail "'vectors $*' succeeded"; fi
  [[ "$err" == *"$want"* ]] || fail "'vectors $*': message '$err' does not mention '$want'"
}
expect_error "--unit: nope" --unit nope --out "$OUT/bad1"
expect_error "--set: FOO" --unit hif8_dot --set FOO=1 --out "$OUT/bad2"
expect_error "--set: W" --unit hif8_dot --set W=3 --out "$OUT/bad3"
expect_error "--set: N" --unit hif8_dot --set N=24 --out "$OUT/bad4"
expect_error "--set: W" --unit bf16_dot64 --set W=121 --out "$OUT/bad5"
expect_error "--set" --unit bf16_dot64 --set W --out "$OUT/bad6"
expect_error "--count" --unit hif4_dot64 --count 0 --out "$OUT/bad7"
for d in bad1 bad2 bad3 bad4 bad5 bad6 bad7; do
  [[ ! -e "$OUT/$d" ]] || fail "a failed run left $OUT/$d behind"
done
# The safe writer (a FIFO, link or folder named by an output) is tested with every command by outputs.cli.
echo "cli_vectors.sh: all checks passed"
