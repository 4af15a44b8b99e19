#!/usr/bin/env bash
# `hifsim vectors --all` end to end (docs/cosim.md "Conformance vectors per convention"):
#   - 22 quantizer sets (format x convention) and 13 RTL sets, each with stimulus.hex and
#     expected.hex of equal line counts and the widths its README states, an index README and
#     one manifest listing every file;
#   - the same seed gives the same bytes, another seed other vectors;
#   - conventions whose rules differ give different expected files (and the same stimulus);
#   - --all with --unit fails with one message and writes nothing.
set -euo pipefail
HIFSIM=$1
OUT=$2
rm -rf "$OUT"
mkdir -p "$OUT"
fail() { echo "cli_vectors_all.sh: $*" >&2; exit 1; }

"$HIFSIM" vectors --all --count 60 --seed 3 --out "$OUT/a" > "$OUT/a.log"
sets=$(find "$OUT/a" -name stimulus.hex | wc -l)
[[ "$sets" == 35 ]] || fail "$sets vector sets, want 35"
[[ $(find "$OUT/a/quantizer" -name stimulus.hex | wc -l) == 22 ]] || fail "want 22 quantizer sets"
for s in $(find "$OUT/a" -name stimulus.hex | sort); do
  d=$(dirname "$s")
  for f in expected.hex README.md; do [[ -s "$d/$f" ]] || fail "$d: $f missing or empty"; done
  ns=$(wc -l < "$d/stimulus.hex"); ne=$(wc -l < "$d/expected.hex")
  [[ "$ns" == "$ne" && "$ns" -ge 60 ]] || fail "$d: $ns stimulus lines, $ne expected lines"
  ds=$(sed -n 's/^- `stimulus.hex`: .* bits as \([0-9]*\) hex digits.*/\1/p' "$d/README.md")
  de=$(sed -n 's/^- `expected.hex`: .* bits as \([0-9]*\) hex digits.*/\1/p' "$d/README.md")
  [[ -n "$ds" && -n "$de" ]] || fail "$d: README does not state the line widths"
  awk -v n="$ds" 'length($0) != n || $0 !~ /^[0-9a-f]+$/ {exit 1}' "$d/stimulus.hex" || fail "$d: a stimulus line is not $ds hex digits"
  awk -v n="$de" 'length($0) != n || $0 !~ /^[0-9a-f]+$/ {exit 1}' "$d/expected.hex" || fail "$d: an expected line is not $de hex digits"
  rel=${d#"$OUT/a/"}
  grep -q "$rel/expected.hex" "$OUT/a/manifest.json" || fail "manifest does not list $rel/expected.hex"
  grep -q "| $rel |" "$OUT/a/README.md" || fail "index README does not list $rel"
done
[[ $(find "$OUT/a/quantizer" -name stimulus.hex -path '*quantizer/hif4/*' | wc -l) == 2 ]] || fail "want 2 hif4 conventions"
[[ $(find "$OUT/a/quantizer/mxfp4" -name stimulus.hex | wc -l) == 6 ]] || fail "want 6 mxfp4 conventions"

# Conventions with different rules: same stimulus, different expected results.
q=$OUT/a/quantizer
cmp -s "$q/hif4/official/stimulus.hex" "$q/hif4/ascend-a6/stimulus.hex" || fail "hif4 conventions got different stimulus"
cmp -s "$q/hif4/official/expected.hex" "$q/hif4/ascend-a6/expected.hex" && fail "hif4 official and ascend-a6 give the same results"
cmp -s "$q/mxfp4/ocp/expected.hex" "$q/mxfp4/nvidia/expected.hex" && fail "mxfp4 ocp and nvidia give the same results"
cmp -s "$q/mxfp4/ocp/expected.hex" "$q/mxfp4/microxcaling/expected.hex" && fail "mxfp4 ocp and microxcaling give the same results"
cmp -s "$q/nvfp4/te/expected.hex" "$q/nvfp4/torchao/expected.hex" && fail "nvfp4 te and torchao give the same results"
r=$OUT/a/rtl/sr_quantizer
cmp -s "$r/nvfp4/expected.hex" "$r/hif4/expected.hex" && fail "sr_quantizer FMT=1 gives the NVFP4 codes"
cmp -s "$r/nvfp4/stimulus.hex" "$r/mxfp4/stimulus.hex" || fail "sr_quantizer FMT=2 got other stimulus than FMT=0"
cmp -s "$r/nvfp4/expected.hex" "$r/mxfp4/expected.hex" && fail "sr_quantizer FMT=2 gives the NVFP4 codes (Inf, NaN not 0)"
r=$OUT/a/rtl/hif4_quantizer
cmp -s "$r/official/expected.hex" "$r/ascend-a6/expected.hex" && fail "hif4_quantizer ASCEND_A6=1 gives the official results"
grep -q "ASCEND_A6=1" "$r/ascend-a6/README.md" || fail "the A6 RTL README does not name ASCEND_A6=1"

# Reproducible by seed; another seed, other vectors.
"$HIFSIM" vectors --all --count 60 --seed 3 --out "$OUT/b" > /dev/null
diff -r -q -x manifest.json "$OUT/a" "$OUT/b" > /dev/null || fail "the same seed gave different files"
"$HIFSIM" vectors --all --count 60 --seed 4 --out "$OUT/c" > /dev/null
cmp -s "$q/mxfp8-e4m3/ocp/stimulus.hex" "$OUT/c/quantizer/mxfp8-e4m3/ocp/stimulus.hex" && fail "another seed gave the same vectors"

# --all with --unit: one error line naming the option, nothing written.
if "$HIFSIM" vectors --all --unit hif4_dot64 --out "$OUT/bad" 2> "$OUT/bad.err"; then fail "--all --unit succeeded"; fi
[[ $(wc -l < "$OUT/bad.err") == 1 ]] && grep -q -- "--all" "$OUT/bad.err" || fail "--all --unit: want one line naming --all"
[[ ! -e "$OUT/bad/manifest.json" ]] || fail "--all --unit left a manifest"
echo "cli_vectors_all.sh: ok ($sets sets)"
