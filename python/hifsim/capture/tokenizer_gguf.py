"""Byte-level BPE tokenizer built from a GGUF vocabulary ("gpt2" tokenizer model).

One job: text <-> token ids, using only tokenizer.ggml.tokens / token_type / merges.

Steps (the GPT-2 byte-level BPE scheme, as used by SmolLM2):
  1. split out special (control) tokens such as <|im_start|> when parse_special=True;
  2. pre-tokenize: with pre-tokenizer "smollm" every digit is its own piece first, then the
     GPT-2 pattern splits each piece into: the contractions 's 't 're 've 'm 'll 'd;
     ' '?letters+; ' '?digits+; ' '?other+; whitespace runs (a run followed by a
     non-space gives up its last character to the next piece);
  3. map every UTF-8 byte of a piece to a printable stand-in character (the GPT-2 byte
     table: printable Latin-1 bytes map to themselves, the other 68 bytes to U+0100...);
  4. apply BPE merges in rank order (lowest rank first) inside every piece;
  5. look the resulting symbols up in the vocabulary.
The pre-tokenizer is hand-written with unicodedata categories (L* = letter, N* = number),
so no regex package is needed.
"""
from __future__ import annotations

import unicodedata
from functools import lru_cache
from typing import Dict, List, Sequence, Tuple

# Unicode White_Space characters (what \s matches in the Unicode-aware regex engines).
_WHITESPACE = set("\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
                  "\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000")
_CONTRACTIONS = ("'s", "'t", "'re", "'ve", "'m", "'ll", "'d")

TOKEN_TYPE_NORMAL = 1
TOKEN_TYPE_CONTROL = 3
TOKEN_TYPE_USER_DEFINED = 4


class TokenizerError(ValueError):
    pass


def byte_table() -> Dict[int, str]:
    """GPT-2 byte -> stand-in character table (bijective over 0..255)."""
    keep = list(range(ord("!"), ord("~") + 1)) + list(range(0xA1, 0xAC + 1)) + \
        list(range(0xAE, 0xFF + 1))
    table = {b: chr(b) for b in keep}
    extra = 0
    for b in range(256):
        if b not in table:
            table[b] = chr(256 + extra)
            extra += 1
    return table


def _is_letter(ch: str) -> bool:
    return unicodedata.category(ch)[0] == "L"


def _is_number(ch: str) -> bool:
    return unicodedata.category(ch)[0] == "N"


def _is_space(ch: str) -> bool:
    return ch in _WHITESPACE


def split_gpt2(text: str) -> List[str]:
    """The GPT-2 pre-tokenizer pattern, implemented as a scanner."""
    out: List[str] = []
    i, n = 0, len(text)
    while i < n:
        # 1. contractions
        matched = False
        if text[i] == "'":
            for c in _CONTRACTIONS:
                if text.startswith(c, i):
                    out.append(c)
                    i += len(c)
                    matched = True
                    break
        if matched:
            continue
        # 2-4. optional single ' ' followed by a run of one class
        j = i + 1 if (text[i] == " " and i + 1 < n) else i
        ch = text[j]
        if _is_letter(ch) or _is_number(ch) or not _is_space(ch):
            if _is_letter(ch):
                pred = _is_letter
            elif _is_number(ch):
                pred = _is_number
            else:
                def pred(c):
                    return not (_is_space(c) or _is_letter(c) or _is_number(c))
            if pred(ch) and (j == i + 1 or j == i):
                k = j
                while k < n and pred(text[k]):
                    k += 1
                out.append(text[i:k])
                i = k
                continue
        # 5/6. whitespace run: \s+(?!\S) then \s+
        k = i
        while k < n and _is_space(text[k]):
            k += 1
        if k > i:
            if k < n and k - i > 1:
                k -= 1          # leave one space to prefix the next piece
            out.append(text[i:k])
            i = k
            continue
        # unreachable for well-formed input, but never loop forever
        out.append(text[i])
        i += 1
    return out


def split_digits(text: str) -> List[str]:
    """Isolate every Unicode digit (category N*) as its own piece."""
    out: List[str] = []
    cur = []
    for ch in text:
        if _is_number(ch):
            if cur:
                out.append("".join(cur))
                cur = []
            out.append(ch)
        else:
            cur.append(ch)
    if cur:
        out.append("".join(cur))
    return out


class GGUFTokenizer:
    def __init__(self, vocab: dict):
        if vocab.get("model") != "gpt2":
            raise TokenizerError(f"tokenizer model {vocab.get('model')!r}: only the byte-level "
                                 "BPE 'gpt2' model is implemented")
        self.pre = vocab.get("pre", "default")
        if self.pre not in ("smollm", "gpt-2", "default"):
            raise TokenizerError(f"pre-tokenizer {self.pre!r} is not implemented "
                                 "(have: smollm, gpt-2)")
        self.tokens: List[str] = list(vocab["tokens"])
        self.token_type: List[int] = list(vocab["token_type"])
        self.id_of: Dict[str, int] = {}
        for i, t in enumerate(self.tokens):
            self.id_of.setdefault(t, i)
        self.ranks: Dict[Tuple[str, str], int] = {}
        for r, m in enumerate(vocab["merges"]):
            parts = m.split(" ")
            if len(parts) != 2:
                raise TokenizerError(f"merge #{r} {m!r} is not 'left right'")
            self.ranks.setdefault((parts[0], parts[1]), r)
        self.bos_id = vocab.get("bos_id")
        self.eos_id = vocab.get("eos_id")
        self.add_bos = bool(vocab.get("add_bos", False))
        self.specials = sorted((t for t, ty in zip(self.tokens, self.token_type)
                                if ty in (TOKEN_TYPE_CONTROL, TOKEN_TYPE_USER_DEFINED) and t),
                               key=len, reverse=True)
        self.b2u = byte_table()
        self.u2b = {u: b for b, u in self.b2u.items()}
        self._bpe = lru_cache(maxsize=1 << 16)(self._bpe_uncached)

    @classmethod
    def from_gguf(cls, path: str) -> "GGUFTokenizer":
        from gguf_reader import read_vocab
        return cls(read_vocab(path))

    # -- encoding -----------------------------------------------------------------------
    def _bpe_uncached(self, piece: str) -> Tuple[int, ...]:
        syms = [self.b2u[b] for b in piece.encode("utf-8")]
        while len(syms) > 1:
            best, best_i = None, -1
            for i in range(len(syms) - 1):
                r = self.ranks.get((syms[i], syms[i + 1]))
                if r is not None and (best is None or r < best):
                    best, best_i = r, i
            if best is None:
                break
            a, b = syms[best_i], syms[best_i + 1]
            merged: List[str] = []
            i = 0
            while i < len(syms):
                if i < len(syms) - 1 and syms[i] == a and syms[i + 1] == b:
                    merged.append(a + b)
                    i += 2
                else:
                    merged.append(syms[i])
                    i += 1
            syms = merged
        ids = []
        for s in syms:
            if s not in self.id_of:
                raise TokenizerError(f"BPE symbol {s!r} of piece {piece!r} is not in the vocabulary")
            ids.append(self.id_of[s])
        return tuple(ids)

    def _pretokenize(self, text: str) -> List[str]:
        pieces = split_digits(text) if self.pre == "smollm" else [text]
        out: List[str] = []
        for p in pieces:
            out.extend(split_gpt2(p))
        return out

    def encode(self, text: str, parse_special: bool = False, add_bos: bool = None) -> List[int]:
        ids: List[int] = []
        if add_bos if add_bos is not None else self.add_bos:
            if self.bos_id is None:
                raise TokenizerError("add_bos requested but the vocabulary has no BOS id")
            ids.append(int(self.bos_id))
        for chunk, special in self._split_special(text, parse_special):
            if special:
                ids.append(self.id_of[chunk])
            else:
                for piece in self._pretokenize(chunk):
                    ids.extend(self._bpe(piece))
        return ids

    def _split_special(self, text: str, parse_special: bool):
        if not parse_special or not self.specials:
            return [(text, False)] if text else []
        out = []
        i, start = 0, 0
        while i < len(text):
            hit = None
            if text[i] == "<":
                for s in self.specials:
                    if text.startswith(s, i):
                        hit = s
                        break
            if hit:
                if start < i:
                    out.append((text[start:i], False))
                out.append((hit, True))
                i += len(hit)
                start = i
            else:
                i += 1
        if start < len(text):
            out.append((text[start:], False))
        return out

    # -- decoding -----------------------------------------------------------------------
    def decode(self, ids: Sequence[int]) -> str:
        buf = bytearray()
        for i in ids:
            t = self.tokens[int(i)]
            if self.token_type[int(i)] in (TOKEN_TYPE_CONTROL, TOKEN_TYPE_USER_DEFINED):
                buf.extend(t.encode("utf-8"))
                continue
            for ch in t:
                b = self.u2b.get(ch)
                if b is None:
                    buf.extend(ch.encode("utf-8"))
                else:
                    buf.append(b)
        return buf.decode("utf-8", errors="replace")
