#!/usr/bin/env python3
"""capture.py end to end on stories260K: the committed manifest traces/stories260k/trace.yaml
is reproduced bit for bit, a rerun is skipped as up to date, every recorded A.B^T equals
the recorded c_ref (correctly rounded to float32), and the recorded tensors of one layer
chain together (q/k/v -> RoPE -> Q.K^T operands, P.V -> o_proj input, SwiGLU -> down_proj)."""
import math
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import numpy as np
import yaml

from _common import CAPTURE, ROOT, run_tests, stories260k_path

from hifsim.capture.validate_trace import load_npy, validate_trace

COMMITTED = os.path.join(ROOT, "traces", "stories260k", "trace.yaml")


def ulp32(x):
    x = np.abs(x.astype(np.float32))
    return np.spacing(x).astype(np.float64)


class CaptureTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.ckpt = stories260k_path()
        cls.tmp = tempfile.mkdtemp(prefix="hifsim-capture-test-")
        cls.out = os.path.join(cls.tmp, "stories260k")
        os.makedirs(cls.out)
        shutil.copy(COMMITTED, os.path.join(cls.out, "trace.yaml"))
        cls.first = cls.run_capture()
        with open(os.path.join(cls.out, "trace.yaml")) as f:
            cls.doc = yaml.safe_load(f)
        cls.cache = {}

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    @classmethod
    def run_capture(cls, *extra):
        return subprocess.run([*CAPTURE, "--model", "llama2c:" + cls.ckpt,
                               "--out", cls.out, *extra], capture_output=True, text=True)

    def t(self, rel):
        if rel not in self.cache:
            self.cache[rel] = load_npy(os.path.join(self.out, rel)).astype(np.float64)
        return self.cache[rel]

    def op(self, name):
        return next(o for o in self.doc["ops"] if o["name"] == name)

    def test_committed_manifest_reproduced_bit_for_bit(self):
        r = self.first
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("match the committed manifest bit for bit", r.stdout)
        s = validate_trace(self.out)           # includes every tensor's sha256
        self.assertEqual(s["ops"], 5 * 9)

    def test_rerun_is_skipped(self):
        r = self.run_capture()
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("up to date", r.stdout)

    def test_manifest_content(self):
        d = self.doc
        self.assertEqual(d["model"]["revision"],
                         "9414d5a285453a7eab631713d171753232c978f6f97654211469aff8be93c8d6")
        self.assertEqual(d["capture"]["layers"], [0, 1, 2, 3, 4])
        self.assertEqual(d["capture"]["tokens"], 128)
        self.assertEqual(d["capture"]["token_ids"][0], 1)
        kinds = sorted({o["op"] for o in d["ops"]})
        self.assertEqual(len(kinds), 9)
        qk = self.op("layer2.attn_qk")
        self.assertEqual((qk["batch"], qk["M"], qk["N"], qk["K"]), (8, 128, 128, 8))
        pv = self.op("layer2.attn_pv")
        self.assertEqual((pv["batch"], pv["M"], pv["N"], pv["K"]), (8, 128, 8, 128))
        down = self.op("layer4.down_proj")
        self.assertEqual((down["batch"], down["M"], down["N"], down["K"]), (1, 128, 64, 172))
        self.assertEqual(self.op("layer0.q_proj")["a"]["file"], self.op("layer0.v_proj")["a"]["file"])

    def test_products_equal_c_ref(self):
        worst = 0.0
        for o in self.doc["ops"]:
            a, b, c = self.t(o["a"]["file"]), self.t(o["b"]["file"]), self.t(o["c_ref"]["file"])
            exact = np.matmul(a, np.swapaxes(b, -1, -2))
            err_ulp = np.abs(c - exact) / np.maximum(ulp32(c), 2.0 ** -149)
            worst = max(worst, float(err_ulp.max()))
            self.assertLessEqual(float(err_ulp.max()), 0.5 + 1e-6,
                                 f"{o['name']}: c_ref is not A.B^T rounded to float32")
        self.assertGreater(worst, 0.0)

    def test_layer_tensors_chain_together(self):
        L, T, nh, nkv, hd = 3, 128, 8, 4, 8
        q = self.t(self.op(f"layer{L}.q_proj")["c_ref"]["file"])
        k = self.t(self.op(f"layer{L}.k_proj")["c_ref"]["file"])
        v = self.t(self.op(f"layer{L}.v_proj")["c_ref"]["file"])
        qk = self.op(f"layer{L}.attn_qk")
        pv = self.op(f"layer{L}.attn_pv")
        # interleaved-pair RoPE, written independently here
        pos = np.arange(T)[:, None]
        inv = 10000.0 ** (-np.arange(0, hd, 2) / hd)
        ang = pos * inv[None, :]

        def rope(x):                      # x: [T, heads*hd] -> [heads, T, hd]
            x = x.reshape(T, -1, hd).transpose(1, 0, 2)
            y = np.empty_like(x)
            y[..., 0::2] = x[..., 0::2] * np.cos(ang) - x[..., 1::2] * np.sin(ang)
            y[..., 1::2] = x[..., 0::2] * np.sin(ang) + x[..., 1::2] * np.cos(ang)
            return y

        Q, Kh = rope(q), rope(k)
        np.testing.assert_allclose(self.t(qk["a"]["file"]), Q, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(self.t(qk["b"]["file"]), np.repeat(Kh, nh // nkv, 0),
                                   rtol=1e-5, atol=1e-6)
        V = v.reshape(T, nkv, hd).transpose(1, 2, 0)          # [kv, hd, T] = V^T
        np.testing.assert_array_equal(self.t(pv["b"]["file"]), np.repeat(V, nh // nkv, 0))
        # P = causal softmax of the scaled scores
        S = self.t(qk["c_ref"]["file"]) / math.sqrt(hd)
        S = np.where(np.triu(np.ones((T, T), bool), 1), -np.inf, S)
        P = np.exp(S - S.max(-1, keepdims=True))
        P /= P.sum(-1, keepdims=True)
        np.testing.assert_allclose(self.t(pv["a"]["file"]), P, rtol=1e-5, atol=1e-7)
        # attention output feeds o_proj
        o_in = self.t(pv["c_ref"]["file"]).transpose(1, 0, 2).reshape(T, nh * hd)
        np.testing.assert_array_equal(self.t(self.op(f"layer{L}.o_proj")["a"]["file"]), o_in)
        # SwiGLU feeds down_proj
        g = self.t(self.op(f"layer{L}.gate_proj")["c_ref"]["file"])
        u = self.t(self.op(f"layer{L}.up_proj")["c_ref"]["file"])
        act = g / (1 + np.exp(-g)) * u
        np.testing.assert_allclose(self.t(self.op(f"layer{L}.down_proj")["a"]["file"]), act,
                                   rtol=1e-6, atol=1e-7)

    def test_weights_are_the_checkpoint(self):
        raw = np.fromfile(self.ckpt, dtype="<f4", offset=28)
        dim, L = 64, 5
        off = 512 * dim + L * dim + 2 * dim * dim         # embedding, rms_att, wq of layers 0-1
        wq2 = raw[off:off + dim * dim].reshape(dim, dim)
        np.testing.assert_array_equal(self.t(self.op("layer2.q_proj")["b"]["file"]), wq2)

    def test_bad_arguments(self):
        r = subprocess.run([*CAPTURE, "--model", "llama2c:" + self.ckpt,
                            "--out", os.path.join(self.tmp, "x"), "--layers", "7"],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 2)
        self.assertIn("layer 7 is outside 0..4", r.stderr)
        r = subprocess.run([*CAPTURE, "--model", "llama2c:/nonexistent.bin",
                            "--out", os.path.join(self.tmp, "y")], capture_output=True, text=True)
        self.assertEqual(r.returncode, 2)
        self.assertIn("not found", r.stderr)
        r = subprocess.run([*CAPTURE, "--help"], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0)
        self.assertIn("--layers", r.stdout)


if __name__ == "__main__":
    run_tests()
