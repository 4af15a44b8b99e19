#!/usr/bin/env python3
"""tokenizer_gguf.py on a small hand-made byte-level BPE vocabulary: pre-tokenizer splits
(expected lists written by hand from the GPT-2 pattern), the byte table, merge order,
special tokens and exact decode round trips. Needs no model file."""
import unittest

from _common import run_tests

from hifsim.capture.tokenizer_gguf import GGUFTokenizer, TokenizerError, byte_table, split_digits, split_gpt2


def toy_vocab():
    b2u = byte_table()
    base = [b2u[b] for b in range(256)]
    merges = ["Ġ t", "h e", "Ġt he", "i n", "Ġ a", "Ġa n", "Ġan d", "l l", "e ll", "h ell",
              "hell o"]
    tokens = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"] + base
    for m in merges:
        tokens.append(m.replace(" ", ""))
    types = [3, 3, 3] + [1] * (len(tokens) - 3)
    return {"model": "gpt2", "pre": "smollm", "tokens": tokens, "token_type": types,
            "merges": merges, "bos_id": 1, "eos_id": 2, "add_bos": False}


class TokenizerTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tok = GGUFTokenizer(toy_vocab())

    def test_byte_table_is_a_bijection(self):
        t = byte_table()
        self.assertEqual(len(set(t.values())), 256)
        self.assertEqual(t[ord(" ")], "Ġ")
        self.assertEqual(t[ord("\n")], "Ċ")
        self.assertEqual(t[ord("A")], "A")
        self.assertEqual(t[0], chr(256))

    def test_gpt2_pretokenizer(self):
        cases = {
            "Hello world": ["Hello", " world"],
            "It's we're I'll": ["It", "'s", " we", "'re", " I", "'ll"],
            "a  b": ["a", " ", " b"],
            "a\n\nb": ["a", "\n", "\n", "b"],
            "end.  ": ["end", ".", "  "],
            "x!?\"y": ["x", "!?\"", "y"],
            " 12ab": [" 12", "ab"],
            "\tTab": ["\t", "Tab"],
            "naïve café": ["naïve", " café"],
            "'hello": ["'", "hello"],
        }
        for text, want in cases.items():
            self.assertEqual(split_gpt2(text), want, repr(text))
            self.assertEqual("".join(split_gpt2(text)), text)

    def test_digits_are_isolated(self):
        self.assertEqual(split_digits("in 2024!"), ["in ", "2", "0", "2", "4", "!"])

    def test_merges_apply_in_rank_order(self):
        ids = self.tok.encode(" the hello and")
        pieces = [self.tok.tokens[i] for i in ids]
        # "h e" (rank 1) wins over "l l" (rank 7), which then blocks "e ll" (rank 8)
        self.assertEqual(pieces, ["Ġthe", "Ġ", "he", "ll", "o", "Ġand"])

    def test_roundtrip_is_exact(self):
        for text in ("The cat's 3 hats.\n\n  Indented  line\t end", "ünïcödé — “quotes”", ""):
            self.assertEqual(self.tok.decode(self.tok.encode(text)), text)

    def test_special_tokens(self):
        ids = self.tok.encode("<|im_start|>the<|im_end|>", parse_special=True)
        self.assertEqual(ids[0], 1)
        self.assertEqual(ids[-1], 2)
        plain = self.tok.encode("<|im_start|>", parse_special=False)
        self.assertNotIn(1, plain)
        self.assertEqual(self.tok.decode(ids), "<|im_start|>the<|im_end|>")
        self.assertEqual(self.tok.encode("x", add_bos=True)[0], 1)

    def test_rejects_unknown_models(self):
        v = toy_vocab()
        v["model"] = "llama"
        with self.assertRaises(TokenizerError):
            GGUFTokenizer(v)
        v = toy_vocab()
        v["pre"] = "qwen2"
        with self.assertRaises(TokenizerError):
            GGUFTokenizer(v)


if __name__ == "__main__":
    run_tests()
