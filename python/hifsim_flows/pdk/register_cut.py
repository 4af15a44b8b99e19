"""Register correspondence by name for gate-level equivalence (gate_equiv.py).

Two designs written as BLIF by Yosys (every flip-flop a `.latch D Q re clk 2`, every connected
wire a buffer `.names A B / 1 1`): a flip-flop of one design and one of the other correspond when
their Q nets share a public name (a name Yosys kept: not `$...`, not `_NNNN_...`). The synthesis
flow keeps the register names of the RTL through `synth -flatten`, `dfflibmap` and ABC (ABC only
maps the logic between the flops), so a pipelined unit's registers match one to one.

Each matched pair is cut: its Q becomes a primary input `ffqN` and its D a primary output `ffdN` in
both designs, so the sequential check becomes a combinational one, stage by stage (each stage's
next-state logic and the outputs, for every value of the registers: stronger than equivalence from
reset). A flip-flop without a partner stays a latch that starts at 0 on both sides (Yosys's
`-zinit`, as the flow's earlier miter); ABC's `dprove` handles those by induction. A wrong match
cannot make a proof pass: it adds two outputs that must be equal.
"""
import collections


def _parse(path):
    lines = open(path).read().replace("\\\n", " ").splitlines()
    latches, buffers = [], collections.defaultdict(set)
    for i, line in enumerate(lines):
        t = line.split()
        if not t:
            continue
        if t[0] == ".latch":
            latches.append((i, t))
        elif t[0] == ".names" and len(t) == 3 and i + 1 < len(lines) and lines[i + 1].split() == ["1", "1"]:
            buffers[t[1]].add(t[2])
            buffers[t[2]].add(t[1])
    return lines, latches, buffers


def _public_aliases(buffers, net):
    """Every public name of net: the names joined to it by buffers."""
    seen, todo = {net}, [net]
    while todo:
        for other in buffers[todo.pop()]:
            if other not in seen:
                seen.add(other)
                todo.append(other)
    return {n for n in seen if not n.startswith(("$", "_"))}


def _write_cut(parsed, cut, out):
    """parsed's BLIF with the latches of cut {line index: N} made ffqN / ffdN, the others at init 0."""
    lines, latches, _ = parsed
    lines, ins, outs, extra = list(lines), [], [], []
    for i, t in latches:
        if i in cut:
            n = cut[i]
            ins.append(f"ffq{n}")
            outs.append(f"ffd{n}")
            lines[i] = ""
            extra += [f".names ffq{n} {t[2]}", "1 1", f".names {t[1]} ffd{n}", "1 1"]
        else:
            lines[i] = " ".join(t[:5 if len(t) >= 5 else 3] + ["0"])  # the edge and clock kept, init 0
    body = []
    for line in lines:
        if line.startswith(".inputs") and ins:
            line, ins = line + " " + " ".join(ins), []
        elif line.startswith(".outputs") and outs:
            line, outs = line + " " + " ".join(outs), []
        elif line.strip() == ".end":
            body += extra
            extra = []
        body.append(line)
    if ins or outs or extra:
        raise ValueError(f"{out}: the BLIF has no .inputs/.outputs/.end line to extend")
    with open(out, "w") as f:
        f.write("\n".join(body) + "\n")


def cut_matched(gold_blif, gate_blif, gold_out, gate_out, pair_rest=False):
    """Write both BLIFs with every name-matched register pair cut; (pairs cut, of them paired by
    order, gold flops, gate flops).
    pair_rest: the registers left without a name partner are paired in their order in the files
    (when both sides have as many) and cut too. Any pairing is sound -- a proof of the cut designs
    is a register correspondence that holds in every state, and every register starts at 0 on
    both sides -- but a wrong one fails the proof, so the caller tries again without it."""
    gold, gate = _parse(gold_blif), _parse(gate_blif)
    owner = collections.defaultdict(set)  # public name -> gold latch line indices
    for i, t in gold[1]:
        for name in _public_aliases(gold[2], t[2]):
            owner[name].add(i)
    gold_cut, gate_cut = {}, {}
    for j, t in gate[1]:
        names = _public_aliases(gate[2], t[2])
        hits = set().union(*(owner[n] for n in names)) if names else set()
        if len(hits) == 1:
            (i,) = hits
            if i not in gold_cut:  # one partner each; a second gate flop on the same register stays a latch
                gold_cut[i] = gate_cut[j] = len(gold_cut)
    rest_gold = [i for i, _ in gold[1] if i not in gold_cut]
    rest_gate = [j for j, _ in gate[1] if j not in gate_cut]
    by_order = len(rest_gold) if pair_rest and len(rest_gold) == len(rest_gate) else 0
    for i, j in zip(rest_gold[:by_order], rest_gate[:by_order]):
        gold_cut[i] = gate_cut[j] = len(gold_cut)
    _write_cut(gold, gold_cut, gold_out)
    _write_cut(gate, gate_cut, gate_out)
    return len(gold_cut), by_order, len(gold[1]), len(gate[1])
