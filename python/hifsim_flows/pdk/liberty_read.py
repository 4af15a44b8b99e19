"""A small Liberty reader: groups, simple and complex attributes, for the flow's own files.

parse(path) -> Group(tree). Enough for what the flow needs (cells, pins, functions, tables,
capacitances); anything malformed raises FlowError naming the file, the line and the reason.
"""
import bisect
import re

from .flow_error import FlowError
from .pdk_files import read_text

_TOKEN = re.compile(r'\s*(?:(/\*.*?\*/)|("(?:[^"\\]|\\.)*")|([{}();:,])|(\\\n)|([^\s{}();:,"]+))', re.S)


class Group:
    def __init__(self, kind, args, line):
        self.kind, self.args, self.line = kind, args, line
        self.attrs, self.complex, self.groups = {}, {}, []

    def sub(self, kind, name=None):
        return [g for g in self.groups if g.kind == kind and (name is None or (g.args and g.args[0] == name))]


def _tokens(path, text):
    pos, line = 0, 1
    while True:
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            if text[pos:].strip():
                raise FlowError(path, f"line {line}: cannot parse near {text[pos:pos + 30]!r}")
            return
        line += text.count("\n", pos, m.end())
        pos = m.end()
        if m.group(1) or m.group(4):
            continue
        k = 2 if m.group(2) is not None else (3 if m.group(3) else 5)
        yield m.group(k), line, m.start(k), m.end(k)


def group_spans(path, text, kind):
    """[(name, start, end)] of the library-level groups `kind (name) { ... }` of a Liberty text:
    text[start:end] is the group from its keyword to its closing brace (strings and comments
    holding braces are the tokenizer's). A group left open raises FlowError with its line."""
    toks = list(_tokens(path, text))
    spans, depth, i = [], 0, 0
    while i < len(toks):
        t = toks[i][0]
        if depth == 1 and t == kind and i + 4 < len(toks) and toks[i + 1][0] == "(" and toks[i + 3][0] == ")" \
                and toks[i + 4][0] == "{":
            d, j = 1, i + 5
            while j < len(toks) and d:
                d += {"{": 1, "}": -1}.get(toks[j][0], 0)
                j += 1
            if d:
                raise FlowError(path, f"line {toks[i][1]}: {kind} group is not closed")
            spans.append((toks[i + 2][0].strip('"'), toks[i][2], toks[j - 1][3]))
            i = j
            continue
        depth += {"{": 1, "}": -1}.get(t, 0)
        i += 1
    return spans


def parse(path):
    text = read_text(path)
    toks = list(_tokens(path, text))
    i = 0

    def err(msg):
        ln = toks[min(i, len(toks) - 1)][1] if toks else 1
        raise FlowError(path, f"line {ln}: {msg}")

    def unq(t):
        return t[1:-1] if t.startswith('"') else t

    def group_body(g):
        nonlocal i
        while True:
            if i >= len(toks):
                err(f"group {g.kind} opened at line {g.line} is not closed")
            t, ln = toks[i][:2]
            if t == "}":
                i += 1
                return
            name = t
            i += 1
            if i >= len(toks):
                err(f"{name}: unexpected end of file")
            t2 = toks[i][0]
            if t2 == ":":
                i += 1
                vals = []
                while i < len(toks) and toks[i][0] != ";":
                    if toks[i][0] in "{}":
                        err(f"{name}: missing ';'")
                    vals.append(unq(toks[i][0]))
                    i += 1
                if i >= len(toks):
                    err(f"{name}: missing ';'")
                i += 1
                g.attrs[name] = " ".join(vals)
            elif t2 == "(":
                i += 1
                args = []
                while i < len(toks) and toks[i][0] != ")":
                    if toks[i][0] != ",":
                        args.append(unq(toks[i][0]))
                    i += 1
                i += 1
                if i < len(toks) and toks[i][0] == "{":
                    i += 1
                    sub = Group(name, args, ln)
                    group_body(sub)
                    g.groups.append(sub)
                elif i < len(toks) and toks[i][0] == ";":
                    i += 1
                    g.complex[name] = args
                else:
                    g.complex[name] = args  # ';' is optional after a complex attribute
            else:
                err(f"{name}: expected ':' or '(' , got {t2!r}")

    if len(toks) < 4 or toks[0][0] != "library" or toks[1][0] != "(":
        raise FlowError(path, "not a Liberty file (no 'library (' at the start)")
    i = 2
    args = []
    while i < len(toks) and toks[i][0] != ")":
        args.append(unq(toks[i][0]))
        i += 1
    i += 1
    if i >= len(toks) or toks[i][0] != "{":
        err("library: expected '{'")
    i += 1
    lib = Group("library", args, 1)
    group_body(lib)
    if i != len(toks):
        err("text after the end of the library group")
    return lib


def table(g):
    """values of a table group as a list of rows of floats."""
    vals = g.complex.get("values")
    if not vals:
        raise FlowError(g.kind, f"table at line {g.line} has no values")
    return [[float(x) for x in row.replace("\\", "").split(",")] for row in vals]


def cells(lib):
    """{cell name: {'area', 'pins': {name: {'direction','capacitance','function',...}}, 'group'}}"""
    out = {}
    for c in lib.sub("cell"):
        pins = {}
        for p in c.sub("pin"):
            d = dict(p.attrs)
            d["group"] = p
            pins[p.args[0]] = d
        if "area" not in c.attrs:
            raise FlowError(c.args[0], f"cell at line {c.line} has no area")
        out[c.args[0]] = {"area": float(c.attrs["area"]), "pins": pins, "group": c,
                          "ff": c.sub("ff")[0] if c.sub("ff") else None}
    return out


def templates(lib):
    """{template name: [index_1, index_2]} of the library's lu_table and power_lut templates."""
    t = {}
    for kind in ("lu_table_template", "power_lut_template"):
        for g in lib.sub(kind):
            t[g.args[0]] = [g.complex.get(f"index_{n}") for n in (1, 2)]
    return t


def table_index(g, n, tmpl):
    """index_n of a table group: its own (the published files carry it) or its template's."""
    v = g.complex.get(f"index_{n}") or (tmpl.get(g.args[0] if g.args else "", [None, None])[n - 1])
    return [float(x) for x in v[0].split(",")] if v else None


def _interp1(xs, ys, x):
    if len(xs) == 1:
        return ys[0]
    i = min(max(bisect.bisect_left(xs, x) - 1, 0), len(xs) - 2)
    f = (x - xs[i]) / (xs[i + 1] - xs[i])
    return ys[i] + f * (ys[i + 1] - ys[i])


def at(g, tmpl, x, y=None):
    """the table group's value at (x[, y]) in its own index units (delay/power tables: input
    slew, output load; constraints: the two pins' slews): bilinear inside the grid, linear
    extrapolation outside it, as an STA tool reads a table."""
    rows = table(g)
    i1, i2 = table_index(g, 1, tmpl), table_index(g, 2, tmpl)
    if i1 is None:
        return rows[0][0]
    if i2 is None:
        return _interp1(i1, rows[0], x)
    col = [_interp1(i2, r, y) for r in rows]
    return _interp1(i1, col, x)


def internal_energies(pin, tmpl, slew, load, own):
    """rise_power + fall_power of each internal_power group of a pin group at (slew, load): the
    pin's own groups (no related_pin: an input's or a clock's) when `own`, else its arcs' (an
    output's, one per related pin and when-state). Each group must have both tables."""
    out = []
    for ip in pin.sub("internal_power"):
        if bool(ip.attrs.get("related_pin")) == own:
            continue
        vals = [at(g, tmpl, slew, load) for k in ("rise_power", "fall_power") for g in ip.sub(k)]
        if len(vals) != 2:
            raise FlowError(ip.kind, f"internal_power at line {ip.line}: a rise_power and a fall_power table expected")
        out.append(sum(vals))
    return out
