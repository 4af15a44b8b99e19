#!/usr/bin/env python3
"""GGUF dequantization used by gguf_reader.py (the gguf package's helpers) against an
independent implementation of the ggml Q4_1 and Q8_0 block layouts written here, on
synthetic blocks (no model file needed)."""
import unittest

import numpy as np

from _common import run_tests

import gguf


def q4_1_reference(raw):
    """ggml block_q4_1: fp16 d, fp16 m, 16 bytes of nibbles; low nibbles are elements 0-15,
    high nibbles elements 16-31; value = d*q + m."""
    blocks = raw.reshape(-1, 20)
    out = np.empty((blocks.shape[0], 32), np.float32)
    for i, blk in enumerate(blocks):
        d = np.frombuffer(blk[0:2].tobytes(), "<f2")[0].astype(np.float32)
        m = np.frombuffer(blk[2:4].tobytes(), "<f2")[0].astype(np.float32)
        qs = blk[4:20]
        for j in range(16):
            out[i, j] = np.float32(d * np.float32(qs[j] & 0x0F)) + m
            out[i, j + 16] = np.float32(d * np.float32(qs[j] >> 4)) + m
    return out.reshape(-1)


def q8_0_reference(raw):
    """ggml block_q8_0: fp16 d, 32 int8; value = d*q."""
    blocks = raw.reshape(-1, 34)
    out = np.empty((blocks.shape[0], 32), np.float32)
    for i, blk in enumerate(blocks):
        d = np.frombuffer(blk[0:2].tobytes(), "<f2")[0].astype(np.float32)
        q = np.frombuffer(blk[2:34].tobytes(), np.int8).astype(np.float32)
        out[i] = d * q
    return out.reshape(-1)


class DequantTest(unittest.TestCase):
    def setUp(self):
        rng = np.random.default_rng(3)
        self.x = (rng.standard_normal((8, 64)) * 0.05).astype(np.float32)
        self.x[0, :32] = 0.0                     # a constant block
        self.x[1, 5] = 0.9                       # an outlier

    def check(self, qtype, ref, bound):
        raw = gguf.quants.quantize(self.x, qtype)
        got = gguf.quants.dequantize(raw, qtype).reshape(-1)
        want = ref(np.asarray(raw, np.uint8).reshape(-1))
        np.testing.assert_array_equal(got, want)
        err = np.abs(got - self.x.reshape(-1))
        self.assertLessEqual(float(err.max()), bound)

    def test_q4_1(self):
        # 15 steps between block min and max: error <= half a step (+ fp16 rounding)
        self.check(gguf.GGMLQuantizationType.Q4_1, q4_1_reference, 0.9 / 15)

    def test_q8_0(self):
        self.check(gguf.GGMLQuantizationType.Q8_0, q8_0_reference, 0.9 / 127)


if __name__ == "__main__":
    run_tests()
