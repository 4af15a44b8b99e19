#!/usr/bin/env python3
"""The training-step capture (hifsim.capture.training_step, torch autograd) on stories260K:
it reproduces the committed traces/stories260k-train manifest bit for bit, validates with
--check-products, its recorded GEMMs chain into each other as the backward pass does (wgrad equals
autograd's weight gradient; o_proj's dgrad output is attention's dO; down_proj's dgrad times the
SiLU gate is up_proj's dY; dS is the softmax backward of dP), and `hifsim trace` reads its
transposed operands right (BF16 far above the FP4 formats on every op, kinds.csv per kind).
Runs with Debian's python3-torch (ctest: HIFSIM_TORCH_PYTHON)."""
import csv
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import numpy as np
import yaml

from _common import ROOT, run_tests, stories260k_path

from hifsim.capture import llama_numpy as ln
from hifsim.capture.validate_trace import read_manifest, validate_trace

HIFSIM = os.environ.get("HIFSIM_BIN") or os.path.join(ROOT, "build", "bin", "hifsim")
COMMITTED = os.path.join(ROOT, "traces", "stories260k-train", "trace.yaml")


def load(d, name):
    return np.load(os.path.join(d, name))


class TrainingTraceTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="hifsim-train-trace-")
        cls.d = os.path.join(cls.tmp, "t")
        os.makedirs(cls.d)
        shutil.copy(COMMITTED, os.path.join(cls.d, "trace.yaml"))  # regenerate against the committed hashes
        r = subprocess.run([sys.executable, "-m", "hifsim.capture.training_step", "--model",
                            "llama2c:" + stories260k_path(), "--out", cls.d],
                           capture_output=True, text=True, cwd=ROOT)
        assert r.returncode == 0, r.stdout + r.stderr
        cls.log = r.stdout
        cls.t = read_manifest(cls.d)
        cls.ops = {o["name"]: o for o in cls.t["ops"]}
        cls.T = cls.t["tokens"]

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def tensor(self, name, which):
        """The operand as the GEMM uses it (transposed files transposed back)."""
        ref = self.ops[name][which]
        a = load(self.d, ref["file"])
        return np.swapaxes(a, -1, -2) if ref["transposed"] else a

    def test_reproduces_committed_manifest_and_validates(self):
        self.assertIn("regenerated tensors match the committed manifest bit for bit", self.log)
        s = validate_trace(self.d, check_products=True)
        self.assertEqual(s["schema"], "hifsim-trace/2")
        kinds = {}
        for o in self.t["ops"]:
            kinds[o["kind"]] = kinds.get(o["kind"], 0) + 1
        # 5 layers: 7 linear ops x (fprop, dgrad, wgrad), 2 forward and 4 backward attention GEMMs
        self.assertEqual(kinds, {"fprop": 35, "dgrad": 35, "wgrad": 35, "attn_fwd": 10, "attn_bwd": 20})
        with open(COMMITTED) as f:
            doc = yaml.safe_load(f)
        self.assertEqual(doc["capture"]["target_ids"][:-1], doc["capture"]["token_ids"][1:])
        self.assertLess(doc["checks"]["wgrad_vs_autograd_max_rel_err"], 1e-5)

    def test_wgrad_is_the_weight_gradient_shape_and_axis(self):
        o = self.ops["layer2.gate_proj.wgrad"]
        f = self.ops["layer2.gate_proj"]
        self.assertEqual((o["M"], o["N"], o["K"]), (f["N"], f["K"], self.T))   # reduces over the tokens
        self.assertEqual(o["a"]["file"], self.ops["layer2.gate_proj.dgrad"]["a"]["file"])  # dY stored once
        self.assertTrue(o["a"]["transposed"] and o["b"]["transposed"])

    def test_backward_chains(self):
        c = ln.LlamaConfig(**{k: v for k, v in yaml.safe_load(open(COMMITTED))["provenance"]["model_config"].items()})
        for l in range(c.n_layers):
            p = f"layer{l}."
            # o_proj's dX (its input gradient) is attention's dO, per head
            dx_o = self.tensor(p + "o_proj.dgrad", "c_ref").reshape(self.T, c.n_heads, c.head_dim).transpose(1, 0, 2)
            do = self.tensor(p + "attn_dp", "a")
            np.testing.assert_allclose(do, dx_o, rtol=0, atol=2e-6 * np.abs(do).max())
            # act = silu(g) * u: up_proj's dY = d(act) * silu(g), d(act) = down_proj's dX
            g = self.tensor(p + "gate_proj", "c_ref").astype(np.float64)
            dact = self.tensor(p + "down_proj.dgrad", "c_ref").astype(np.float64)
            dy_up = self.tensor(p + "up_proj.dgrad", "a")
            np.testing.assert_allclose(dy_up, dact * g / (1 + np.exp(-g)), rtol=0, atol=2e-6 * np.abs(dy_up).max())
            # softmax backward: dS = scale * P * (dP - rowsum(dP * P)) on the raw scores
            P = self.tensor(p + "attn_pv", "a").astype(np.float64)
            dP = self.tensor(p + "attn_dp", "c_ref").astype(np.float64)
            ds = self.tensor(p + "attn_dq", "a")
            want = P * (dP - np.sum(dP * P, axis=-1, keepdims=True)) / np.sqrt(c.head_dim)
            np.testing.assert_allclose(ds, want, rtol=0, atol=2e-6 * np.abs(ds).max())

    def test_hifsim_trace_per_kind(self):
        if not os.path.isfile(HIFSIM):
            self.skipTest(f"{HIFSIM} not built")
        out = os.path.join(self.tmp, "out")
        r = subprocess.run([HIFSIM, "trace", "--trace", self.d, "--out", out, "--formats", "nvfp4,bf16", "--quiet"],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(os.path.join(out, "ops.csv")) as f:
            ops = list(csv.DictReader(f))
        self.assertEqual(len(ops), 2 * len(self.t["ops"]))
        for row in ops:   # a transposed operand read the wrong way round would be far off c_ref
            if row["format"] == "bf16":
                self.assertGreater(float(row["sqnr_db"]), 40, row["op_name"])
        with open(os.path.join(out, "kinds.csv")) as f:
            kinds = list(csv.DictReader(f))
        self.assertEqual([(k["format"], k["kind"]) for k in kinds],
                         [(f, k) for f in ("nvfp4", "bf16") for k in ("fprop", "dgrad", "wgrad", "attn_fwd", "attn_bwd")])
        self.assertEqual(sum(int(k["ops"]) for k in kinds), len(ops))
        with open(os.path.join(out, "summary.md")) as f:
            self.assertIn("| format | correction | fprop | dgrad | wgrad | attn_fwd | attn_bwd |", f.read())


if __name__ == "__main__":
    run_tests()
