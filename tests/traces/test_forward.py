#!/usr/bin/env python3
"""The numpy Llama forward (python/hifsim/capture/llama_numpy.py) on the real stories260K model
against a deliberately different, straightforward re-implementation written here:
token-by-token with a KV cache, one head at a time, weights read with struct from the raw
file (not through llama2c_reader), float64 throughout."""
import math
import struct

import numpy as np

from _common import run_tests, stories260k_path
import unittest

from hifsim.capture import llama_numpy as ln
from hifsim.capture.llama2c_reader import CheckpointError, read_llama2c

TOKENS = [1, 300, 301, 290, 264, 400, 13, 271, 459, 302, 1, 350, 260, 261, 262, 263, 511, 0, 2, 3]


def load_raw(path):
    with open(path, "rb") as f:
        raw = f.read()
    dim, hid, L, nh, nkv, vocab, seq = struct.unpack("<7i", raw[:28])
    vals = np.frombuffer(raw, dtype="<f4", offset=28).astype(np.float64)
    hs = dim // nh
    kvd = nkv * hs
    pos = 0

    def take(n, shape):
        nonlocal pos
        out = vals[pos:pos + n].reshape(shape)
        pos += n
        return out

    w = {}
    w["emb"] = take(abs(vocab) * dim, (abs(vocab), dim))
    w["att_norm"] = take(L * dim, (L, dim))
    w["wq"] = take(L * dim * dim, (L, dim, dim))
    w["wk"] = take(L * kvd * dim, (L, kvd, dim))
    w["wv"] = take(L * kvd * dim, (L, kvd, dim))
    w["wo"] = take(L * dim * dim, (L, dim, dim))
    w["ffn_norm"] = take(L * dim, (L, dim))
    w["w1"] = take(L * hid * dim, (L, hid, dim))
    w["w2"] = take(L * dim * hid, (L, dim, hid))
    w["w3"] = take(L * hid * dim, (L, hid, dim))
    w["final_norm"] = take(dim, (dim,))
    cfg = dict(dim=dim, hid=hid, L=L, nh=nh, nkv=nkv, vocab=abs(vocab), seq=seq, hs=hs)
    return cfg, w


def reference_logits(cfg, w, tokens):
    """Token-at-a-time forward, one head at a time (float64)."""
    dim, L, nh, nkv, hs = cfg["dim"], cfg["L"], cfg["nh"], cfg["nkv"], cfg["hs"]
    kv_mul = nh // nkv
    kcache = [[] for _ in range(L)]
    vcache = [[] for _ in range(L)]
    out = []

    def norm(x, g):
        return g * x / math.sqrt(float(np.dot(x, x)) / len(x) + 1e-5)

    def rotate(vec, pos):
        vec = vec.copy()
        for i in range(0, len(vec), 2):
            j = i % hs
            theta = pos * 10000.0 ** (-j / hs)
            c, s = math.cos(theta), math.sin(theta)
            a, b = vec[i], vec[i + 1]
            vec[i], vec[i + 1] = a * c - b * s, a * s + b * c
        return vec

    for pos, tok in enumerate(tokens):
        x = w["emb"][tok].copy()
        for l in range(L):
            h = norm(x, w["att_norm"][l])
            q = rotate(w["wq"][l] @ h, pos)
            k = rotate(w["wk"][l] @ h, pos)
            v = w["wv"][l] @ h
            kcache[l].append(k)
            vcache[l].append(v)
            att_out = np.zeros(dim)
            for head in range(nh):
                kvh = head // kv_mul
                qh = q[head * hs:(head + 1) * hs]
                scores = np.array([np.dot(qh, kk[kvh * hs:(kvh + 1) * hs]) / math.sqrt(hs)
                                   for kk in kcache[l]])
                p = np.exp(scores - scores.max())
                p /= p.sum()
                att_out[head * hs:(head + 1) * hs] = sum(
                    pt * vv[kvh * hs:(kvh + 1) * hs] for pt, vv in zip(p, vcache[l]))
            x = x + w["wo"][l] @ att_out
            h = norm(x, w["ffn_norm"][l])
            g = w["w1"][l] @ h
            u = w["w3"][l] @ h
            x = x + w["w2"][l] @ (g / (1.0 + np.exp(-g)) * u)
        out.append(w["emb"] @ norm(x, w["final_norm"]))
    return np.array(out)


class ForwardTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.path = stories260k_path()
        cls.model = read_llama2c(cls.path)
        cls.cfg, cls.raw = load_raw(cls.path)

    def test_config_matches_header(self):
        c = self.model.config
        self.assertEqual((c.dim, c.hidden_dim, c.n_layers, c.n_heads, c.n_kv_heads, c.vocab_size,
                          c.max_seq_len), (64, 172, 5, 8, 4, 512, 512))
        self.assertEqual(c.head_dim, 8)
        self.assertEqual(c.kv_dim, 32)
        self.assertIs(self.model.classifier, self.model.tok_embeddings)  # shared classifier

    def test_logits_match_independent_reference(self):
        got = ln.forward(self.model, TOKENS)
        ref = reference_logits(self.cfg, self.raw, TOKENS)
        self.assertEqual(got.shape, (len(TOKENS), 512))
        self.assertEqual(got.dtype, np.float32)
        err = np.max(np.abs(got - ref)) / np.max(np.abs(ref))
        self.assertLess(err, 2e-6, f"relative max error {err}")
        self.assertTrue(np.array_equal(got.argmax(1), ref.argmax(1)))

    def test_kv_cache_equals_full_sequence(self):
        full = ln.forward(self.model, TOKENS)
        cache = ln.KVCache(self.model.config)
        part1 = ln.forward(self.model, TOKENS[:7], cache=cache)
        steps = [ln.forward(self.model, [t], cache=cache) for t in TOKENS[7:]]
        inc = np.concatenate([part1] + steps)
        self.assertEqual(cache.length, len(TOKENS))
        self.assertLess(float(np.max(np.abs(inc - full))), 1e-5)

    def test_gqa_and_recorded_shapes(self):
        rec = []
        T = 12
        ln.forward(self.model, TOKENS[:T], record_layers=[2],
                   recorder=lambda **kw: rec.append(kw))
        shapes = {r["op"]: (r["a"].shape, r["b"].shape, r["c"].shape) for r in rec}
        self.assertEqual(set(r["layer"] for r in rec), {2})
        self.assertEqual(shapes["q_proj"], ((T, 64), (64, 64), (T, 64)))
        self.assertEqual(shapes["k_proj"], ((T, 64), (32, 64), (T, 32)))
        self.assertEqual(shapes["v_proj"], ((T, 64), (32, 64), (T, 32)))
        self.assertEqual(shapes["o_proj"], ((T, 64), (64, 64), (T, 64)))
        self.assertEqual(shapes["gate_proj"], ((T, 64), (172, 64), (T, 172)))
        self.assertEqual(shapes["up_proj"], ((T, 64), (172, 64), (T, 172)))
        self.assertEqual(shapes["down_proj"], ((T, 172), (64, 172), (T, 64)))
        self.assertEqual(shapes["attn_qk"], ((8, T, 8), (8, T, 8), (8, T, T)))
        self.assertEqual(shapes["attn_pv"], ((8, T, T), (8, 8, T), (8, T, 8)))
        qk = next(r for r in rec if r["op"] == "attn_qk")
        pv = next(r for r in rec if r["op"] == "attn_pv")
        # GQA: query heads 2j and 2j+1 share KV head j
        for j in range(4):
            self.assertTrue(np.array_equal(qk["b"][2 * j], qk["b"][2 * j + 1]))
            self.assertTrue(np.array_equal(pv["b"][2 * j], pv["b"][2 * j + 1]))
        self.assertFalse(np.array_equal(qk["b"][0], qk["b"][2]))
        # P is causal and row-stochastic
        P = pv["a"]
        self.assertTrue(np.all(np.triu(P, k=1) == 0))
        self.assertLess(float(np.max(np.abs(P.sum(-1) - 1))), 1e-6)
        # q/k/v share one A; gate/up share one A
        by = {r["op"]: r for r in rec}
        self.assertIs(by["q_proj"]["a"], by["k_proj"]["a"])
        self.assertIs(by["gate_proj"]["a"], by["up_proj"]["a"])

    def test_quantize_hook_is_applied_to_linear_layers_only(self):
        seen = []

        def hook(x, *, role, layer, op):
            seen.append((role, layer, op))
            return np.zeros_like(x) if op == "down_proj" else x

        base = ln.forward(self.model, TOKENS[:6])
        same = ln.forward(self.model, TOKENS[:6], quantize=lambda x, **kw: x)
        self.assertTrue(np.array_equal(base, same))
        changed = ln.forward(self.model, TOKENS[:6], quantize=hook)
        self.assertFalse(np.allclose(base, changed))
        ops = {s[2] for s in seen}
        self.assertEqual(ops, set(ln.LINEAR_OPS))
        self.assertEqual(len(seen), 2 * 7 * 5)   # act + weight, 7 linear ops, 5 layers
        # a hook that rounds to bfloat16-like precision changes logits only slightly
        def trunc(x, **kw):
            return (x.view(np.uint32) & np.uint32(0xFFFF0000)).view(np.float32)
        approx = ln.forward(self.model, TOKENS[:6], quantize=ln.per_tensor(trunc))
        self.assertLess(float(np.max(np.abs(approx - base))), 0.1 * float(np.max(np.abs(base))))
        self.assertGreater(float(np.max(np.abs(approx - base))), 0.0)

    def test_perplexity_sampling_and_determinism(self):
        s1 = ln.sample(self.model, [1], 40, seed=5)
        s2 = ln.sample(self.model, [1], 40, seed=5)
        s3 = ln.sample(self.model, [1], 40, seed=6)
        self.assertEqual(s1, s2)
        self.assertNotEqual(s1, s3)
        own = ln.perplexity(self.model, [1] + s1)
        rng = np.random.default_rng(0)
        rand = ln.perplexity(self.model, [1] + [int(t) for t in rng.integers(0, 512, 40)])
        self.assertTrue(math.isfinite(own) and own > 1.0)
        self.assertGreater(rand, 10 * own, "model should prefer its own samples to random tokens")
        g1 = ln.generate_greedy(self.model, [1], 10)
        self.assertEqual(g1, ln.generate_greedy(self.model, [1], 10))
        full = ln.forward(self.model, [1] + g1[:-1])
        self.assertEqual(list(full.argmax(1)), g1)   # greedy == argmax of the full forward

    def test_bad_inputs_are_rejected(self):
        with self.assertRaises(ValueError):
            ln.forward(self.model, [512])
        with self.assertRaises(ValueError):
            ln.forward(self.model, [])
        with self.assertRaises(ValueError):
            ln.forward(self.model, [1] * 513)

    def test_truncated_checkpoint_is_rejected(self):
        import tempfile, os
        with open(self.path, "rb") as f:
            raw = f.read()
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "cut.bin")
            with open(p, "wb") as f:
                f.write(raw[:-4])
            with self.assertRaisesRegex(CheckpointError, "bytes of tensors"):
                read_llama2c(p)


if __name__ == "__main__":
    run_tests()
