#!/usr/bin/env python3
"""Model-level perplexity through the bit-exact GEMM engine (label python; python -m hifsim.perplexity
--gemm fake|bit-exact|both).

The reference is the C++ command of the same build (HIFSIM_CLI): with --gemm bit-exact every linear
layer of the forward pass must be exactly what `hifsim gemm` computes on that layer's operands, and
the reported perplexity must be the one of a forward pass whose every linear layer is `hifsim gemm`.
A perplexity run that quietly fell back to fake quantization, or to the float64 GEMM, fails here.

The LLM is stories260K (llama2.c, from $HIFSIM_DATA / ../shared/data: what CI has): small enough to
run every layer through the command; SmolLM2 uses the same code (docs/report.md has its numbers).
"""
import json
import os
import subprocess
import tempfile
import unittest
from pathlib import Path

import numpy as np

from hifsim import perplexity as ep
from hifsim.capture import llama_numpy as ln
from hifsim.capture.capture import load_model

CLI = os.environ.get("HIFSIM_CLI", "")


def stories260k_path():
    here = Path(__file__).resolve()
    for d in (os.environ.get("HIFSIM_DATA"), here.parents[3] / "shared" / "data", "/work/shared/data"):
        if d and (Path(d) / "stories260K.bin").is_file():
            return Path(d) / "stories260K.bin"
    return None


def setUpModule():
    global MODEL_SPEC, MODEL
    if not CLI or not Path(CLI).is_file():
        raise RuntimeError("HIFSIM_CLI must name the hifsim program of the build (the CTest wrapper sets it)")
    path = stories260k_path()
    if path is None:  # a missing model fails, it does not skip
        raise RuntimeError("stories260K.bin not found: set HIFSIM_DATA to the folder holding it")
    MODEL_SPEC = f"llama2c:{path}"
    MODEL = load_model(MODEL_SPEC).model


class CliGemm:
    """linear_gemm through the `hifsim gemm` command (one process per layer): the independent reference."""

    def __init__(self, fmt, work):
        self.fmt, self.work, self.calls = fmt, Path(work), 0

    def __call__(self, a, w, **_):
        np.save(self.work / "a.npy", np.ascontiguousarray(a, dtype=np.float32))
        np.save(self.work / "b.npy", np.ascontiguousarray(w, dtype=np.float32))
        r = subprocess.run([CLI, "gemm", "--format", self.fmt, "--a", "a.npy", "--b", "b.npy", "--out", "c.npy",
                            "--quiet"], cwd=self.work, capture_output=True, text=True)
        if r.returncode != 0:
            raise AssertionError(f"hifsim gemm exited {r.returncode}: {r.stderr}")
        self.calls += 1
        return np.load(self.work / "c.npy")


class BitExactPerplexity(unittest.TestCase):
    def test_every_linear_layer_is_the_commands_gemm(self):
        ids = ln.sample(MODEL, [1], 20, seed=5)
        with tempfile.TemporaryDirectory() as d:
            for fmt in ("nvfp4", "hif8"):
                seen = []

                def record(*, layer, op, a, b, c, a_source):
                    seen.append((layer, op, a.copy(), b.copy(), c.copy()))

                nonfinite = [0]
                ln.forward(MODEL, ids, recorder=record, record_layers=[0, MODEL.config.n_layers - 1],
                           linear_gemm=ep.make_gemm(fmt, 0, nonfinite))
                linear = [s for s in seen if s[1] in ln.LINEAR_OPS]
                self.assertEqual(len(linear), 2 * len(ln.LINEAR_OPS), fmt)
                ref = CliGemm(fmt, d)
                for layer, op, a, w, c in linear:
                    want = ref(a, w)
                    self.assertEqual((c.shape, c.dtype), (want.shape, want.dtype), f"{fmt} layer {layer} {op}")
                    differ = int(np.count_nonzero(c.view(np.uint32) != want.view(np.uint32)))
                    self.assertEqual(differ, 0, f"{fmt} layer {layer} {op}: {differ} of {c.size} outputs of the "
                                     "forward's GEMM differ from hifsim gemm's bits")
                self.assertEqual(nonfinite[0], 0)

    def test_reported_perplexities_and_their_difference(self):
        tokens, fmts = 24, ("hif8", "nvfp4")
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "ppl")
            ep.main(["--model", MODEL_SPEC, "--tokens", str(tokens), "--formats", ",".join(fmts), "--residuals", "none",
                     "--gemm", "both", "--jobs", "2", "--out", out, "--quiet"])
            doc = json.loads(Path(out, "perplexity.json").read_text())
            md = Path(out, "perplexity.md").read_text()
            rows = {(r["format"], r["gemm"]): r for r in doc["rows"]}
            self.assertEqual(set(rows), {("fp32", "fp64")} | {(f, g) for f in fmts for g in ("fake", "bit-exact")})
            ids = list(ln.sample(MODEL, [1], tokens, seed=0)[: tokens + 1])
            # The reported bit-exact perplexity (two worker processes) is the one of a forward whose
            # every linear layer is `hifsim gemm` (computed here, in this process, through the command).
            ref = CliGemm("hif8", d)
            want = ln.perplexity(MODEL, ids, linear_gemm=ref)
            self.assertEqual(ref.calls, len(ln.LINEAR_OPS) * MODEL.config.n_layers)
            self.assertEqual(rows[("hif8", "bit-exact")]["perplexity"], want)
            # ... and the fake row is fake quantization (the hook), not the engine.
            fake = ln.perplexity(MODEL, ids, quantize=ep.make_hook("hif8", "none", [0]))
            self.assertEqual(rows[("hif8", "fake")]["perplexity"], fake)
            # The difference is reported per format, from the two rows.
            diffs = {x["format"]: x for x in doc["bit_exact_vs_fake"]}
            self.assertEqual(set(diffs), set(fmts))
            for f in fmts:
                b, q = rows[(f, "bit-exact")]["perplexity"], rows[(f, "fake")]["perplexity"]
                self.assertEqual(diffs[f]["relative"], b / q - 1.0)
                self.assertIn(f"| {f} | {q:.4f} | {b:.4f} | {100 * (b / q - 1):+.3f}% |", md)
            print("stories260K, 24 tokens: " + ", ".join(
                f"{f} fake {diffs[f]['fake']:.4f} bit-exact {diffs[f]['bit_exact']:.4f} ({100 * diffs[f]['relative']:+.3f}%)"
                for f in fmts))

    def test_gemm_choice(self):
        with tempfile.TemporaryDirectory() as d:
            for how, want in (("fake", {"fake"}), ("bit-exact", {"bit-exact"})):
                out = os.path.join(d, how)
                ep.main(["--model", MODEL_SPEC, "--tokens", "8", "--formats", "hif4", "--residuals", "none,2:4",
                         "--gemm", how, "--jobs", "1", "--out", out, "--quiet"])
                doc = json.loads(Path(out, "perplexity.json").read_text())
                self.assertEqual({r["gemm"] for r in doc["rows"] if r["format"] == "hif4"}, want)
                self.assertEqual(doc["bit_exact_vs_fake"], [])


if __name__ == "__main__":
    unittest.main()
