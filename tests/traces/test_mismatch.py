#!/usr/bin/env python3
"""hifsim.mismatch (rollout/training mismatch) on stories260K, 24 tokens: the two figures on a
hand-computed case; a format with row-local block scales (HiF4) decodes bit for bit like the
full-sequence forward (no mismatch), NVFP4, whose per-tensor scale depends on the whole activation
tensor, does not; Rollout-ResQ on the rollout creates a mismatch against a training forward
without it; the rollout's float64 weight copies (made once, not per token) change no bit; the
formats measured in parallel processes give the same rows as one after the other."""
import math
import unittest

import numpy as np

from _common import run_tests, stories260k_path

from hifsim.capture import llama_numpy as ln
from hifsim.capture.llama2c_reader import read_llama2c
from hifsim.mismatch import PAIRS, compare, measure, rollout_logprobs, training_logprobs
from hifsim.perplexity import make_hook


class MismatchTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.m = read_llama2c(stories260k_path())
        ids = [1] + ln.sample(cls.m, [1], 24, seed=0)
        cls.inputs, cls.targets = ids[:-1], np.asarray(ids[1:])

    def test_figures_on_a_hand_case(self):
        a = np.log(np.array([[0.5, 0.5], [0.9, 0.1]]))
        b = np.log(np.array([[0.25, 0.75], [0.9, 0.1]]))
        d, kl = compare(a, b, np.array([0, 1]))
        self.assertAlmostEqual(d, (math.log(2) + 0.0) / 2)          # |log .5 - log .25|, then 0
        self.assertAlmostEqual(kl, (0.5 * math.log(2) + 0.5 * math.log(0.5 / 0.75)) / 2)
        self.assertEqual(compare(a, a, np.array([0, 1])), (0.0, 0.0))

    def run_pair(self, fmt, residual):
        bad = [0]
        roll = rollout_logprobs(self.m, self.inputs, make_hook(fmt, residual, bad))
        train = training_logprobs(self.m, self.inputs, make_hook(fmt, "none", bad))
        self.assertEqual(bad[0], 0)
        return roll, train

    def test_row_local_scales_decode_like_the_full_sequence(self):
        roll, train = self.run_pair("hif4", "none")
        np.testing.assert_array_equal(roll, train)

    def test_nvfp4_tensor_scale_makes_a_mismatch(self):
        d, kl = compare(*self.run_pair("nvfp4", "none"), self.targets)
        self.assertGreater(d, 1e-3)
        self.assertGreater(kl, 1e-4)

    def test_rollout_resq_makes_a_mismatch(self):
        d, kl = compare(*self.run_pair("hif4", "2:4"), self.targets)
        self.assertGreater(d, 1e-3)
        self.assertGreater(kl, 1e-4)

    def test_weights_converted_once_change_no_bit(self):
        bad = [0]
        hook = make_hook("nvfp4", "2:4", bad)
        cache = ln.KVCache(self.m.config, max_len=len(self.inputs))
        plain = np.stack([ln.log_softmax(ln.forward(self.m, [t], cache=cache, quantize=hook, logits_for="last"))[0]
                          for t in self.inputs])
        np.testing.assert_array_equal(rollout_logprobs(self.m, self.inputs, hook), plain)

    def test_parallel_formats_give_the_same_rows(self):
        bf16 = training_logprobs(self.m, self.inputs, make_hook("bf16", "none", [0]))
        one = list(measure(self.m, self.inputs, self.targets, ["hif4", "nvfp4"], "2:4", bf16, jobs=1))
        two = list(measure(self.m, self.inputs, self.targets, ["hif4", "nvfp4"], "2:4", bf16, jobs=2))
        self.assertEqual([r["format"] for r in two], ["hif4", "nvfp4"])
        for a, b in zip(one, two):
            self.assertEqual([a[k + s] for k in PAIRS for s in ("_dlogp", "_kl")],
                             [b[k + s] for k in PAIRS for s in ("_dlogp", "_kl")])


if __name__ == "__main__":
    run_tests()
