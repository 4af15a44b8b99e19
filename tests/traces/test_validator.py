#!/usr/bin/env python3
"""validate_trace.py: a valid trace passes; each kind of malformed manifest or tensor file is
rejected with one line naming the manifest, the field and the reason (exit code 1)."""
import copy
import hashlib
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import unittest

import numpy as np
import yaml

from _common import ROOT, VALIDATOR, run_tests

from hifsim.capture.validate_trace import TraceError, find_trace_dirs, read_manifest, validate_trace

M, N, K, H = 4, 3, 5, 2


def npy(path, arr):
    np.save(path, arr)
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def make_trace(d):
    """A small valid captured trace: one linear op and one attention op."""
    rng = np.random.default_rng(1)
    os.makedirs(os.path.join(d, "tensors"))
    a = rng.standard_normal((M, K)).astype(np.float32)
    b = rng.standard_normal((N, K)).astype(np.float32)
    c = (a.astype(np.float64) @ b.T.astype(np.float64)).astype(np.float32)
    qa = rng.standard_normal((H, M, K)).astype(np.float32)
    qb = rng.standard_normal((H, M, K)).astype(np.float32)
    qc = np.matmul(qa.astype(np.float64), np.swapaxes(qb, 1, 2).astype(np.float64)).astype(np.float32)
    files = {"a.npy": a, "b.npy": b, "c.npy": c, "qa.npy": qa, "qb.npy": qb, "qc.npy": qc}
    sha = {k: npy(os.path.join(d, "tensors", k), v) for k, v in files.items()}

    def ref(k):
        return {"file": f"tensors/{k}", "dtype": "float32", "sha256": sha[k]}

    doc = {
        "schema": "hifsim-trace/1", "kind": "captured",
        "model": {"name": "toy", "source": "test", "revision": "ab" * 32, "architecture": "llama"},
        "capture": {"script": "test", "token_source": "model-sample", "tokens": M,
                    "token_ids": [1, 2, 3, 4], "seed": 0, "layers": [0]},
        "ops": [
            {"name": "layer0.q_proj", "layer": 0, "op": "q_proj", "M": M, "N": N, "K": K,
             "batch": 1, "a": ref("a.npy"), "b": ref("b.npy"), "c_ref": ref("c.npy")},
            {"name": "layer0.attn_qk", "layer": 0, "op": "attn_qk", "M": M, "N": M, "K": K,
             "batch": H, "a": ref("qa.npy"), "b": ref("qb.npy"), "c_ref": ref("qc.npy")},
        ],
    }
    write(d, doc)
    return doc


def write(d, doc):
    with open(os.path.join(d, "trace.yaml"), "w") as f:
        yaml.safe_dump(doc, f, sort_keys=False)


class ValidatorTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="hifsim-trace-test-")
        self.d = os.path.join(self.tmp, "t")
        os.makedirs(self.d)
        self.doc = make_trace(self.d)

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def expect(self, field, reason, **kw):
        """Validation must fail with the given field (exact) and a reason containing text."""
        with self.assertRaises(TraceError) as cm:
            validate_trace(self.d, **kw)
        e = cm.exception
        self.assertEqual(e.field, field, str(e))
        self.assertIn(reason, e.reason, str(e))
        self.assertTrue(e.manifest.endswith("trace.yaml"))
        self.assertNotIn("\n", str(e))

    def mutate(self, fn):
        doc = copy.deepcopy(self.doc)
        fn(doc)
        write(self.d, doc)

    # -- valid ------------------------------------------------------------------------
    def test_valid_trace_passes(self):
        s = validate_trace(self.d, check_products=True)
        self.assertEqual((s["kind"], s["ops"], s["tensors"]), ("captured", 2, 6))

    def test_cli_ok_and_error_lines(self):
        r = subprocess.run([*VALIDATOR, self.d], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertTrue(r.stdout.startswith("OK "))
        self.mutate(lambda d: d["ops"][0].update(M=7))
        r = subprocess.run([*VALIDATOR, self.tmp], capture_output=True, text=True)
        self.assertEqual(r.returncode, 1)
        lines = r.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, r.stderr)
        self.assertIn("trace.yaml: ops[0] (layer0.q_proj).M: 7 != capture.tokens 4", lines[0])

    # -- top level --------------------------------------------------------------------
    def test_missing_manifest(self):
        os.remove(os.path.join(self.d, "trace.yaml"))
        self.expect("(file)", "trace.yaml is missing")

    def test_yaml_syntax_error(self):
        with open(os.path.join(self.d, "trace.yaml"), "w") as f:
            f.write("schema: hifsim-trace/1\nops: [ {name: x\n")
        with self.assertRaises(TraceError) as cm:
            validate_trace(self.d)
        self.assertTrue(cm.exception.field.startswith("line "), str(cm.exception))
        self.assertIn("not valid YAML", cm.exception.reason)

    def test_duplicate_key(self):
        # PyYAML kept the last value, yaml-cpp the first: the one reader refuses the file.
        with open(os.path.join(self.d, "trace.yaml")) as f:
            text = f.read()
        with open(os.path.join(self.d, "trace.yaml"), "w") as f:
            f.write(text + "kind: shape-only\n")
        self.expect("kind", "given twice")

    def test_manifest_fifo(self):
        os.remove(os.path.join(self.d, "trace.yaml"))
        os.mkfifo(os.path.join(self.d, "trace.yaml"))
        self.expect("(file)", "is a FIFO (named pipe), not a regular file")

    def test_wrong_schema(self):
        self.mutate(lambda d: d.update(schema="hifsim-trace/3"))
        self.expect("schema", "is not 'hifsim-trace/1' or 'hifsim-trace/2'")

    def test_unknown_top_level_field(self):
        self.mutate(lambda d: d.update(extra=1))
        self.expect("extra", "unknown field")

    def test_missing_ops(self):
        self.mutate(lambda d: d.pop("ops"))
        self.expect("ops", "required field is missing")

    def test_bad_kind(self):
        self.mutate(lambda d: d.update(kind="partial"))
        self.expect("kind", "is not one of captured, shape-only")

    def test_bad_revision(self):
        self.mutate(lambda d: d["model"].update(revision="v1"))
        self.expect("model.revision", "sha256")

    def test_bad_architecture(self):
        self.mutate(lambda d: d["model"].update(architecture="gpt2"))
        self.expect("model.architecture", "is not one of")

    def test_token_ids_length(self):
        self.mutate(lambda d: d["capture"].update(token_ids=[1, 2, 3]))
        self.expect("capture.token_ids", "has 3 ids, capture.tokens is 4")

    def test_text_source_needs_existing_text(self):
        self.mutate(lambda d: d["capture"].update(token_source="text", text="nowhere/none.txt"))
        self.expect("capture.text", "not found relative to the repository root")

    def test_shape_block_on_captured_trace(self):
        self.mutate(lambda d: d.update(shape={"phase": "prefill"}))
        self.expect("shape", "only shape-only traces")

    # -- ops ----------------------------------------------------------------------------
    def test_duplicate_op_name(self):
        self.mutate(lambda d: d["ops"][1].update(name="layer0.q_proj"))
        self.expect("ops[1].name", "duplicate op name")

    def test_unknown_op_kind(self):
        self.mutate(lambda d: d["ops"][0].update(op="lm_head"))
        self.expect("ops[0] (layer0.q_proj).op", "is not one of q_proj")

    def test_boolean_dimension(self):
        self.mutate(lambda d: d["ops"][0].update(N=True))
        self.expect("ops[0] (layer0.q_proj).N", "must be an integer, got boolean")

    def test_zero_dimension(self):
        self.mutate(lambda d: d["ops"][0].update(K=0))
        self.expect("ops[0] (layer0.q_proj).K", "out of range")

    def test_linear_op_with_batch(self):
        self.mutate(lambda d: d["ops"][0].update(batch=2))
        self.expect("ops[0] (layer0.q_proj).batch", "linear ops with tensors must have batch 1")

    def test_layer_not_captured(self):
        self.mutate(lambda d: d["ops"][0].update(layer=3))
        self.expect("ops[0] (layer0.q_proj).layer", "not listed in capture.layers")

    def test_missing_b_tensor(self):
        self.mutate(lambda d: d["ops"][0].pop("b"))
        self.expect("ops[0] (layer0.q_proj).b", "required field is missing")

    def test_shape_mismatch_with_N(self):
        self.mutate(lambda d: d["ops"][0].update(N=4))
        self.expect("ops[0] (layer0.q_proj).b.file tensors/b.npy",
                    "shape (3, 5), expected [N, K] = (4, 5)")

    def test_attention_batch_mismatch(self):
        self.mutate(lambda d: d["ops"][1].update(batch=3))
        self.expect("ops[1] (layer0.attn_qk).a.file tensors/qa.npy",
                    "expected [batch, M, K] = (3, 4, 5)")

    def test_dtype_field(self):
        self.mutate(lambda d: d["ops"][0]["a"].update(dtype="bfloat16"))
        self.expect("ops[0] (layer0.q_proj).a.dtype", "is not one of float32")

    def test_unknown_tensor_field(self):
        self.mutate(lambda d: d["ops"][0]["a"].update(scale=1.0))
        self.expect("ops[0] (layer0.q_proj).a.scale", "unknown field")

    def test_path_escape(self):
        self.mutate(lambda d: d["ops"][0]["a"].update(file="../a.npy"))
        self.expect("ops[0] (layer0.q_proj).a.file", "relative path inside the trace directory")

    def test_wrong_extension(self):
        self.mutate(lambda d: d["ops"][0]["a"].update(file="tensors/a.bin"))
        self.expect("ops[0] (layer0.q_proj).a.file", "must end in .npy or .safetensors")

    def test_missing_tensor_file(self):
        os.remove(os.path.join(self.d, "tensors", "c.npy"))
        self.expect("ops[0] (layer0.q_proj).c_ref.file tensors/c.npy", "file does not exist")
        # ... but a manifest-only check passes
        validate_trace(self.d, check_tensors=False)

    def test_tensor_symlink_outside_the_trace(self):
        outside = os.path.join(self.tmp, "outside.npy")
        os.replace(os.path.join(self.d, "tensors", "c.npy"), outside)
        os.symlink(outside, os.path.join(self.d, "tensors", "c.npy"))
        self.expect("ops[0] (layer0.q_proj).c_ref.file tensors/c.npy", "outside the trace directory")

    def test_tensor_fifo(self):
        os.remove(os.path.join(self.d, "tensors", "c.npy"))
        os.mkfifo(os.path.join(self.d, "tensors", "c.npy"))
        self.expect("ops[0] (layer0.q_proj).c_ref.file tensors/c.npy", "is a FIFO (named pipe)")

    def test_float64_tensor(self):
        np.save(os.path.join(self.d, "tensors", "a.npy"), np.zeros((M, K), np.float64))
        self.expect("ops[0] (layer0.q_proj).a.file tensors/a.npy", "expected little-endian float32")

    def test_big_endian_tensor(self):
        np.save(os.path.join(self.d, "tensors", "a.npy"), np.zeros((M, K), ">f4"))
        self.expect("ops[0] (layer0.q_proj).a.file tensors/a.npy", "dtype >f4")

    def test_fortran_order_tensor(self):
        np.save(os.path.join(self.d, "tensors", "a.npy"),
                np.asfortranarray(np.ones((M, K), np.float32)))
        self.expect("ops[0] (layer0.q_proj).a.file tensors/a.npy", "fortran_order")

    def test_truncated_tensor(self):
        p = os.path.join(self.d, "tensors", "b.npy")
        with open(p, "rb") as f:
            raw = f.read()
        with open(p, "wb") as f:
            f.write(raw[:-4])
        self.expect("ops[0] (layer0.q_proj).b.file tensors/b.npy", "data bytes")

    def test_not_npy(self):
        with open(os.path.join(self.d, "tensors", "b.npy"), "wb") as f:
            f.write(b"hello world")
        self.expect("ops[0] (layer0.q_proj).b.file tensors/b.npy", "not a valid .npy")

    def test_nan_in_tensor(self):
        a = np.load(os.path.join(self.d, "tensors", "a.npy"))
        a[1, 2] = np.nan
        a[0, 0] = np.inf
        np.save(os.path.join(self.d, "tensors", "a.npy"), a)
        self.expect("ops[0] (layer0.q_proj).a.file tensors/a.npy", "contains 2 NaN/Inf values")

    def test_sha256_mismatch(self):
        a = np.load(os.path.join(self.d, "tensors", "a.npy"))
        a[0, 0] += 1
        np.save(os.path.join(self.d, "tensors", "a.npy"), a)
        self.expect("ops[0] (layer0.q_proj).a.sha256", "tensors differ from the capture")
        validate_trace(self.d, check_hash=False)

    def test_c_ref_not_the_product(self):
        c = np.load(os.path.join(self.d, "tensors", "c.npy"))
        c[2, 1] *= 1.001
        np.save(os.path.join(self.d, "tensors", "c.npy"), c)
        self.mutate(lambda d: d["ops"][0]["c_ref"].pop("sha256"))
        validate_trace(self.d)   # without --check-products the content is not compared
        self.expect("ops[0] (layer0.q_proj).c_ref", "differs from A.B^T at (2, 1)",
                    check_products=True)

    def test_safetensors_accepted_and_checked(self):
        a = np.load(os.path.join(self.d, "tensors", "a.npy"))
        raw = a.astype("<f4").tobytes()
        hdr = json.dumps({"x": {"dtype": "F32", "shape": list(a.shape),
                                "data_offsets": [0, len(raw)]}}).encode()
        with open(os.path.join(self.d, "tensors", "a.safetensors"), "wb") as f:
            f.write(struct.pack("<Q", len(hdr)) + hdr + raw)
        self.mutate(lambda d: d["ops"][0].update(a={"file": "tensors/a.safetensors",
                                                    "dtype": "float32", "key": "x"}))
        validate_trace(self.d, check_products=True)
        self.mutate(lambda d: d["ops"][0].update(a={"file": "tensors/a.safetensors",
                                                    "dtype": "float32", "key": "y"}))
        self.expect("ops[0] (layer0.q_proj).a.file tensors/a.safetensors", "no tensor named 'y'")

    # -- version 2: op kinds, operand roles, transposed files, training steps ----------------
    def to_v2(self, doc):
        doc["schema"] = "hifsim-trace/2"
        doc["ops"][0].update(kind="fprop")
        doc["ops"][0]["a"]["role"], doc["ops"][0]["b"]["role"], doc["ops"][0]["c_ref"]["role"] = "x", "w", "y"
        doc["ops"][1].update(kind="attn_fwd")
        doc["ops"][1]["a"]["role"], doc["ops"][1]["b"]["role"], doc["ops"][1]["c_ref"]["role"] = "q", "k", "s"

    def test_v2_valid_with_a_transposed_operand(self):
        b = np.load(os.path.join(self.d, "tensors", "b.npy"))
        npy(os.path.join(self.d, "tensors", "bt.npy"), np.ascontiguousarray(b.T))

        def fn(d):
            self.to_v2(d)
            d["ops"][0]["b"] = {"file": "tensors/bt.npy", "dtype": "float32", "role": "w", "transposed": True}
        self.mutate(fn)
        s = validate_trace(self.d, check_products=True)
        self.assertEqual(s["schema"], "hifsim-trace/2")
        t = read_manifest(self.d)
        self.assertEqual(t["ops"][0]["b"]["file_shape"], [K, N])
        self.mutate(lambda d: (self.to_v2(d), d["ops"][0]["b"].update(file="tensors/bt.npy")))
        self.expect("ops[0] (layer0.q_proj).b.file tensors/bt.npy", "shape (5, 3), expected [N, K] = (3, 5)")

    def test_v2_keys_are_unknown_in_v1(self):
        self.mutate(lambda d: d["ops"][0].update(kind="fprop"))
        self.expect("ops[0].kind", "unknown field")
        self.mutate(lambda d: d["ops"][0]["a"].update(role="x"))
        self.expect("ops[0] (layer0.q_proj).a.role", "unknown field")

    def test_v2_role_kind_and_step_rules(self):
        self.mutate(lambda d: (self.to_v2(d), d["ops"][0]["b"].update(role="x")))
        self.expect("ops[0] (layer0.q_proj).b.role", "is not the role of this operand ('w')")
        self.mutate(lambda d: (self.to_v2(d), d["ops"][0]["b"].pop("role")))
        self.expect("ops[0] (layer0.q_proj).b.role", "required field is missing")
        self.mutate(lambda d: (self.to_v2(d), d["ops"][1].update(kind="fprop")))
        self.expect("ops[1] (layer0.attn_qk).kind", "does not fit op 'attn_qk' (attn_fwd)")
        self.mutate(lambda d: (self.to_v2(d), d["ops"][0].pop("kind")))
        self.expect("ops[0].kind", "required field is missing")
        # a dgrad op (A = dY, B = W^T) in a forward capture, then in a training step without targets
        def dgrad(d):
            self.to_v2(d)
            d["ops"][0].update(kind="dgrad")
            d["ops"][0]["a"]["role"], d["ops"][0]["c_ref"]["role"] = "dy", "dx"
        self.mutate(dgrad)
        self.expect("ops[0] (layer0.q_proj).kind", "'dgrad' in a forward capture")
        self.mutate(lambda d: (dgrad(d), d["capture"].update(step="training")))
        self.expect("capture.target_ids", "required when capture.step is training")
        self.mutate(lambda d: (dgrad(d), d["capture"].update(step="training", target_ids=[2, 3, 4])))
        self.expect("capture.target_ids", "has 3 ids, capture.tokens is 4")
        self.mutate(lambda d: (dgrad(d), d["capture"].update(step="training", target_ids=[2, 3, 4, 5])))
        validate_trace(self.d, check_products=True)
        # wgrad reduces over the tokens: K, not M, is the token count
        def wgrad(d):
            dgrad(d)
            d["capture"].update(step="training", target_ids=[2, 3, 4, 5])
            d["ops"][0].update(kind="wgrad")
            d["ops"][0]["b"]["role"], d["ops"][0]["c_ref"]["role"] = "x", "dw"
        self.mutate(wgrad)
        self.expect("ops[0] (layer0.q_proj).K", "5 != capture.tokens 4 (K is the token count)")

    def test_old_version_manifest_still_loads(self):
        # A frozen hifsim-trace/1 manifest, and the shipped version-1 forward traces (manifests).
        old = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "v1")
        for d in [old] + [os.path.join(ROOT, "traces", n) for n in ("stories260k", "smollm2-135m-all")]:
            t = read_manifest(d)
            self.assertEqual(t["schema"], "hifsim-trace/1", d)
            self.assertEqual({o["kind"] for o in t["ops"]}, {"fprop", "attn_fwd"}, d)
            validate_trace(d, check_tensors=False)

    def test_reader_and_yaml_agree(self):
        """Every committed manifest (versions 1 and 2) as the C++ reader returns it equals the YAML
        document, field by field: the one reader drops or alters nothing."""
        dirs = find_trace_dirs(os.path.join(ROOT, "traces")) + [
            os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "v1")]
        self.assertGreater(len(dirs), 10)
        for d in dirs:
            with open(os.path.join(d, "trace.yaml")) as f:   # libyaml's loader: the big manifests parse fast
                doc = yaml.load(f, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
            t = read_manifest(d)
            where = doc.get("capture") or doc.get("shape")
            self.assertEqual((t["schema"], t["kind"], t["model_name"], t["model_revision"], t["tokens"]),
                             (doc["schema"], doc["kind"], doc["model"]["name"], doc["model"]["revision"],
                              where["tokens"]), d)
            self.assertEqual(t["layers"], (doc.get("capture") or {}).get("layers", []), d)
            self.assertEqual(len(t["ops"]), len(doc["ops"]), d)
            for got, want in zip(t["ops"], doc["ops"]):
                for k in ("name", "layer", "op", "M", "N", "K", "batch"):
                    self.assertEqual(got[k], want[k], f"{d} {want['name']}.{k}")
                self.assertEqual(got["repeat"], want.get("repeat", 1))
                self.assertEqual(got["note"], want.get("note", ""))
                if "kind" in want:
                    self.assertEqual(got["kind"], want["kind"])
                for w in ("a", "b", "c_ref"):
                    self.assertEqual(w in got, w in want, f"{d} {want['name']}.{w}")
                    if w in want:
                        for k in ("file", "dtype", "sha256", "key", "role"):
                            self.assertEqual(got[w][k], want[w].get(k, ""), f"{d} {want['name']}.{w}.{k}")
                        self.assertEqual(got[w]["transposed"], want[w].get("transposed", False))

    def test_shape_only_trace(self):
        doc = {"schema": "hifsim-trace/1", "kind": "shape-only",
               "model": {"name": "m", "source": "s", "revision": "r", "architecture": "qwen2"},
               "shape": {"phase": "decode", "sequences": 2, "tokens": 2, "context": 9, "config": "c"},
               "ops": [{"name": "q", "layer": 0, "op": "q_proj", "M": 2, "N": 8, "K": 8,
                        "batch": 1, "repeat": 4}]}
        write(self.d, doc)
        validate_trace(self.d)
        doc["ops"][0]["a"] = {"file": "tensors/a.npy", "dtype": "float32"}
        write(self.d, doc)
        self.expect("ops[0] (q).a", "shape-only traces carry no tensors")
        del doc["ops"][0]["a"]
        doc["shape"]["phase"] = "train"
        write(self.d, doc)
        self.expect("shape.phase", "is not one of prefill, decode")
        doc["shape"]["phase"] = "decode"
        doc["ops"][0]["repeat"] = 0
        write(self.d, doc)
        self.expect("ops[0] (q).repeat", "out of range")


if __name__ == "__main__":
    run_tests()
