#!/usr/bin/env python3
"""Shape-only traces: the committed manifests validate, equal what shape_traces.py writes
today, and spot-checked shapes match the published configs."""
import filecmp
import os
import shutil
import tempfile
import unittest

import yaml

from _common import ROOT, run_tests

from hifsim.capture import shape_traces
from hifsim.capture.validate_trace import find_trace_dirs, validate_trace

SHAPES = os.path.join(ROOT, "traces", "shapes")
NAMES = ["deepseek-v3-decode-b64", "deepseek-v3-prefill2048", "deepseek-v3-train2048",
         "llama3-8b-decode-b64", "llama3-8b-prefill2048", "llama3-8b-train2048",
         "qwen2.5-7b-decode-b64", "qwen2.5-7b-prefill2048", "qwen2.5-7b-train2048"]


def load(name):
    with open(os.path.join(SHAPES, name, "trace.yaml")) as f:
        doc = yaml.safe_load(f)
    return doc, {o["name"]: o for o in doc["ops"]}


def mnk(o):
    return (o["M"], o["N"], o["K"], o["batch"], o.get("repeat", 1))


class ShapesTest(unittest.TestCase):
    def test_committed_traces_validate(self):
        dirs = [os.path.basename(d) for d in find_trace_dirs(SHAPES)]
        self.assertEqual(sorted(dirs), NAMES)
        for n in NAMES:
            s = validate_trace(os.path.join(SHAPES, n))
            self.assertEqual(s["kind"], "shape-only")

    def test_script_reproduces_committed_files(self):
        tmp = tempfile.mkdtemp()
        try:
            shape_traces.main(["--out", tmp])
            for n in NAMES:
                self.assertTrue(filecmp.cmp(os.path.join(tmp, n, "trace.yaml"),
                                            os.path.join(SHAPES, n, "trace.yaml"), shallow=False),
                                f"{n}: committed manifest is stale; rerun shape_traces.py")
        finally:
            shutil.rmtree(tmp)

    def test_llama3_8b(self):
        doc, ops = load("llama3-8b-prefill2048")
        self.assertEqual(mnk(ops["q_proj"]), (2048, 4096, 4096, 1, 32))
        self.assertEqual(mnk(ops["k_proj"]), (2048, 1024, 4096, 1, 32))
        self.assertEqual(mnk(ops["attn_qk"]), (2048, 2048, 128, 32, 32))
        self.assertEqual(mnk(ops["attn_pv"]), (2048, 128, 2048, 32, 32))
        self.assertEqual(mnk(ops["down_proj"]), (2048, 4096, 14336, 1, 32))
        doc, ops = load("llama3-8b-decode-b64")
        self.assertEqual(doc["shape"], {**doc["shape"], "phase": "decode", "sequences": 64})
        self.assertEqual(mnk(ops["gate_proj"]), (64, 14336, 4096, 1, 32))
        self.assertEqual(mnk(ops["attn_qk"]), (1, 2048, 128, 64 * 32, 32))

    def test_training_step_is_three_forwards(self):
        # dgrad and wgrad each repeat the fprop's multiply-adds; the four attention backward
        # GEMMs twice the two forward ones: a training step is exactly 3x the prefill.
        def macs(ops):
            return sum(o["M"] * o["N"] * o["K"] * o["batch"] * o["repeat"] for o in ops.values())
        for key in ("llama3-8b", "qwen2.5-7b", "deepseek-v3"):
            doc, train = load(f"{key}-train2048")
            _, fwd = load(f"{key}-prefill2048")
            self.assertEqual(doc["schema"], "hifsim-trace/2")
            self.assertEqual(macs(train), 3 * macs(fwd), key)
            kinds = {o["kind"] for o in train.values()}
            self.assertEqual(kinds, {"fprop", "dgrad", "wgrad", "attn_fwd", "attn_bwd"}, key)
        _, ops = load("llama3-8b-train2048")
        self.assertEqual(mnk(ops["down_proj.dgrad"]), (2048, 14336, 4096, 1, 32))
        self.assertEqual(mnk(ops["down_proj.wgrad"]), (4096, 14336, 2048, 1, 32))
        self.assertEqual(mnk(ops["attn_dv"]), (2048, 128, 2048, 32, 32))
        _, ops = load("deepseek-v3-train2048")
        self.assertEqual(mnk(ops["moe.routed.up_proj.wgrad"]), (2048, 7168, 64, 256, 58))

    def test_qwen25_7b(self):
        _, ops = load("qwen2.5-7b-prefill2048")
        self.assertEqual(mnk(ops["q_proj"]), (2048, 3584, 3584, 1, 28))
        self.assertEqual(mnk(ops["v_proj"]), (2048, 512, 3584, 1, 28))
        self.assertEqual(mnk(ops["up_proj"]), (2048, 18944, 3584, 1, 28))

    def test_deepseek_v3(self):
        _, ops = load("deepseek-v3-prefill2048")
        self.assertEqual(mnk(ops["mla.q_b_proj"]), (2048, 128 * 192, 1536, 1, 61))
        self.assertEqual(mnk(ops["attn_qk"]), (2048, 2048, 192, 128, 61))
        self.assertEqual(mnk(ops["moe.routed.gate_proj"]), (64, 2048, 7168, 256, 58))
        self.assertEqual(mnk(ops["dense_mlp.down_proj"]), (2048, 7168, 18432, 1, 3))
        _, ops = load("deepseek-v3-decode-b64")
        self.assertEqual(mnk(ops["moe.routed.down_proj"]), (2, 7168, 2048, 256, 58))
        self.assertEqual(mnk(ops["attn_qk"]), (128, 2048, 576, 64, 61))
        self.assertEqual(mnk(ops["o_proj"]), (64, 7168, 16384, 1, 61))


if __name__ == "__main__":
    run_tests()
