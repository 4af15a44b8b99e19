"""Gate-level information-flow (taint) model of an AIG, for the no-X proofs of formal/prove.py
(method `taint`, docs/formal.md "No X on the outputs").

Input: the ASCII AIGER file and symbol map that `write_aiger -zinit -ascii -map` writes for one
copy of a unit (formal/nox_wrap.py `taint_wrapper`: its outputs are the observed signals). With
-zinit every latch starts at 0 and every register without a reset value reads, in the first cycle,
an extra primary input of its own (its arbitrary power-up contents); those inputs are the ones the
map does not list as `input` ports.

Output: a binary AIGER file with the same inputs, latches and constraints, one taint latch per
latch, a taint bit for every AND gate, and ONE output (the bad state): some observed signal is
tainted. Taint sources: the power-up inputs (tainted), nothing else (ports, constants and reset
values are clean). Propagation is the precise rule for an AND gate (GLIFT, Tiwari et al. 2009):
    t(a & b) = a & t(b) | b & t(a) | t(a) & t(b),    t(!a) = t(a),
a latch's taint is a latch loaded with the taint of its next-state function. Soundness: if a
signal's taint is 0 in a cycle, changing the values of the tainted sources cannot change its
value in that cycle (induction over the gates and cycles: a clean AND input forced to 0 makes the
gate 0 whatever the other input). So "never tainted" for an output means it is a function of the
inputs since reset alone -- the same meaning as the two-copy proof (nox_top), which it implies.
The converse fails: taint tracking may flag a signal the two-copy proof shows clean (reconvergent
paths), so a REFUTED taint job is a counterexample of the taint model, not necessarily of the RTL.
"""
import sys


def read_aag(path):
    with open(path) as f:
        lines = f.read().split("\n")
    head = lines[0].split()
    if head[0] != "aag":
        raise ValueError(f"{path}: not an ASCII AIGER file")
    M, I, L, O, A = (int(x) for x in head[1:6])
    B, C = (int(head[6]) if len(head) > 6 else 0), (int(head[7]) if len(head) > 7 else 0)
    pos = 1
    inputs = [int(lines[pos + k]) for k in range(I)]
    pos += I
    latches = []
    for k in range(L):
        f = [int(x) for x in lines[pos + k].split()]
        if len(f) > 2 and f[2] != 0:
            raise ValueError(f"{path}: latch {f[0]} has a nonzero reset value (expected -zinit)")
        latches.append((f[0], f[1]))
    pos += L
    outputs = [int(lines[pos + k]) for k in range(O)]
    pos += O
    bad = [int(lines[pos + k]) for k in range(B)]
    pos += B
    constraints = [int(lines[pos + k]) for k in range(C)]
    pos += C
    ands = []
    for k in range(A):
        lhs, r0, r1 = (int(x) for x in lines[pos + k].split())
        ands.append((lhs, r0, r1))
    return dict(M=M, inputs=inputs, latches=latches, outputs=outputs, bad=bad, constraints=constraints, ands=ands)


def named_input(map_path, name):
    """The AIG input index of the 1-bit port `name`, or None."""
    for line in open(map_path):
        f = line.split()
        if len(f) >= 4 and f[0] == "input" and f[3] == name:
            return int(f[1])
    return None


def reset_words(aag, word_of, rst_input):
    """The words every latch of which has a constant next state while the port rst_input is 0
    (the registers the reset sets: async2sync makes an asynchronous reset a mux on the next
    state), by constant propagation with every other input and latch unknown."""
    known = {0: 0}                     # variable -> 0 / 1 (absent: unknown)
    if rst_input is not None:
        known[aag["inputs"][rst_input] >> 1] = 0

    def c(lit):
        x = known.get(lit >> 1)
        return None if x is None else x ^ (lit & 1)

    for lhs, r0, r1 in aag["ands"]:
        a, b = c(r0), c(r1)
        if a == 0 or b == 0:
            known[lhs >> 1] = 0
        elif a == 1 and b == 1:
            known[lhs >> 1] = 1
    words = {}
    for k, (_, nx) in enumerate(aag["latches"]):
        words[word_of[k]] = words.get(word_of[k], True) and c(nx) is not None
    return {w for w, ok in words.items() if ok}


def port_inputs(map_path):
    """Indices of the AIG inputs that are ports of the top (the map's `input` lines)."""
    idx = set()
    for line in open(map_path):
        f = line.split()
        if f and f[0] == "input":
            idx.add(int(f[1]))
    return idx


def latch_words(map_path, n_latches):
    """The latches grouped into words: latch index -> word number. Two latches are one word when
    the map gives them the same set of names (the bits of one register, with its aliases); a
    latch without a name is a word of its own."""
    names = {}
    for line in open(map_path):
        f = line.split()
        if len(f) >= 4 and f[0] in ("latch", "invlatch"):
            names.setdefault(int(f[1]), set()).add(f[3])
    words, out = {}, {}
    for k in range(n_latches):
        key = tuple(sorted(names[k])) if k in names else ("#", k)
        out[k] = words.setdefault(key, len(words))
    return out


class Builder:
    """A new AIG: inputs and latches first (variables 1..), then AND gates, structurally hashed
    with constant folding."""

    def __init__(self, n_inputs, n_latches):
        self.n_in, self.n_lat = n_inputs, n_latches
        self.next_var = n_inputs + n_latches + 1
        self.ands = []          # (lhs, r0, r1)
        self.hash = {}

    def input_lit(self, k):
        return 2 * (1 + k)

    def latch_lit(self, k):
        return 2 * (1 + self.n_in + k)

    def AND(self, a, b):
        if a > b:
            a, b = b, a
        if a == 0:
            return 0
        if a == 1:
            return b
        if a == b:
            return a
        if a ^ 1 == b:
            return 0
        key = (a, b)
        if key not in self.hash:
            lhs = 2 * self.next_var
            self.next_var += 1
            self.ands.append((lhs, b, a))
            self.hash[key] = lhs
        return self.hash[key]

    def OR(self, a, b):
        return self.AND(a ^ 1, b ^ 1) ^ 1


def instrument(aag, tainted_inputs, word_of=None, rule="precise", rst_input=None):
    """The taint model of `aag` (read_aag): returns (builder, latch_next, outputs, constraints).
    word_of (latch index -> word, latch_words): one taint latch per word, loaded with the OR of
    its bits' next-state taints -- an over-approximation (a bit's taint is at most its word's),
    so still sound, with one invariant clause per register rank for pdr to find instead of one
    per bit; None: a taint latch per latch.

    Clean words first (clean_words): the words whose taint is 0 in every reachable state by
    structure alone get the constant 0 instead of a taint latch, so a gate with one input
    computed from them (a rank's enable, a valid bit, a counter) takes the cheap form of the
    precise rule, `a & t(b)`. rule "or": a gate whose two inputs are both data (computed from a
    register without a reset: reset_words, rst_input the reset port's input index) gets t(a) | t(b): no masking, an
    over-approximation of the precise rule, so still sound. A gate with a control input (one
    computed from ports, power-up values and reset registers alone: a valid bit, an enable, a
    select) keeps the precise rule, which is what lets a rank's enable stop the taint of its old
    contents; the datapath's taint is then a function of the taint latches, not of the data."""
    n_in, n_lat = len(aag["inputs"]), len(aag["latches"])
    if word_of is None:
        word_of = {k: k for k in range(n_lat)}
    n_words = max(word_of.values(), default=-1) + 1
    is_data = None
    if rule == "or":
        data_words = set(word_of.values()) - reset_words(aag, word_of, rst_input)
        is_data = {0: False}
        for lit in aag["inputs"]:
            is_data[lit >> 1] = False
        for k, (lit, _) in enumerate(aag["latches"]):
            is_data[lit >> 1] = word_of[k] in data_words
        for lhs, r0, r1 in aag["ands"]:
            is_data[lhs >> 1] = is_data[r0 >> 1] or is_data[r1 >> 1]
    clean = clean_words(aag, tainted_inputs, word_of, n_words, is_data)
    return _model(aag, tainted_inputs, word_of, n_words, clean, is_data)[:4]


def clean_words(aag, tainted_inputs, word_of, n_words, is_data):
    """The greatest set C of words such that, with the taint of every word of C taken as 0, the
    next-state taint of every word of C is the constant 0 (structural hashing and constant
    folding decide). Their taint latches start at 0 and stay 0 by induction over the cycles, so
    replacing them by 0 changes no reachable state of the model: an exact simplification."""
    cand = set(range(n_words))
    while True:
        word_next = _model(aag, tainted_inputs, word_of, n_words, cand, is_data)[4]
        keep = {w for w in cand if word_next[w] == 0}
        if keep == cand:
            return cand
        cand = keep


def _model(aag, tainted_inputs, word_of, n_words, clean, is_data):
    n_in, n_lat = len(aag["inputs"]), len(aag["latches"])
    g = Builder(n_in, n_lat + n_words)
    val = {0: 0}   # old variable -> new literal of its value
    tnt = {0: 0}   # old variable -> new literal of its taint
    for k, lit in enumerate(aag["inputs"]):
        val[lit >> 1] = g.input_lit(k)
        tnt[lit >> 1] = 1 if k in tainted_inputs else 0
    for k, (lit, _) in enumerate(aag["latches"]):
        val[lit >> 1] = g.latch_lit(k)
        tnt[lit >> 1] = 0 if word_of[k] in clean else g.latch_lit(n_lat + word_of[k])

    def v(lit):
        return val[lit >> 1] ^ (lit & 1)

    def t(lit):
        return tnt[lit >> 1]

    for lhs, r0, r1 in aag["ands"]:
        a, b, ta, tb = v(r0), v(r1), t(r0), t(r1)
        val[lhs >> 1] = g.AND(a, b)
        if is_data is not None and is_data[r0 >> 1] and is_data[r1 >> 1]:
            tnt[lhs >> 1] = g.OR(ta, tb)
        else:
            tnt[lhs >> 1] = g.OR(g.OR(g.AND(a, tb), g.AND(b, ta)), g.AND(ta, tb))
    word_next = [0] * n_words
    for k, (_, nx) in enumerate(aag["latches"]):
        word_next[word_of[k]] = g.OR(word_next[word_of[k]], t(nx))
    loaded = [0 if w in clean else x for w, x in enumerate(word_next)]  # a clean word's latch: 0
    nexts = [v(nx) for _, nx in aag["latches"]] + loaded
    bad = 0
    for lit in aag["outputs"]:
        bad = g.OR(bad, t(lit))
    cons = [v(c) for c in aag["constraints"]]
    return g, nexts, [bad], cons, word_next


def _delta(n):
    out = bytearray()
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def write_aig(path, g, nexts, outputs, constraints):
    M = g.next_var - 1
    head = f"aig {M} {g.n_in} {g.n_lat} {len(outputs)} {len(g.ands)}"
    if constraints:
        head += f" 0 {len(constraints)}"
    with open(path, "wb") as f:
        f.write((head + "\n").encode())
        for nx in nexts:
            f.write(f"{nx}\n".encode())
        for o in outputs:
            f.write(f"{o}\n".encode())
        for c in constraints:
            f.write(f"{c}\n".encode())
        for lhs, r0, r1 in g.ands:      # binary: lhs - r0, r0 - r1 (r0 >= r1, lhs > r0)
            f.write(_delta(lhs - r0) + _delta(r0 - r1))


def taint_aig(aag_path, map_path, out_path, words=True, rule="precise"):
    """The taint model of a -zinit AIG as a binary AIGER file whose one output is `observed
    signal tainted` (words: one taint latch per register word, else per bit; rule: "precise" or
    "or", see instrument); returns (gates of the unit, gates of the model)."""
    aag = read_aag(aag_path)
    if aag["bad"]:
        raise ValueError(f"{aag_path}: the taint wrapper has no assertions (bad states)")
    ports = port_inputs(map_path)
    tainted = {k for k in range(len(aag["inputs"])) if k not in ports}
    word_of = latch_words(map_path, len(aag["latches"])) if words else None
    g, nexts, outs, cons = instrument(aag, tainted, word_of, rule, named_input(map_path, "rst_n"))
    write_aig(out_path, g, nexts, outs, cons)
    return len(aag["ands"]), len(g.ands)


if __name__ == "__main__":
    print(taint_aig(*sys.argv[1:4]))
