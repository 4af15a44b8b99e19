"""The Liberty the flow maps to: a plain-text copy of a library holding only the cells the
synthesis may use (cells.mapping_allowed; why each other cell is left out is written there).

  mapping_copy(lib, out_dir) -> path of out_dir/<name>.map.lib

Yosys's dfflibmap and ABC read every cell of the file they are given (Yosys 0.23 has no
dont_use list), and Debian's OpenSTA reads only plain text, so the flow writes one filtered,
decompressed copy per library and gives every tool that copy: the netlist can hold only its
cells, and STA, gate-level equivalence and gate-level energy read the same cells' data. The
copy is a pure function of the source file: rewritten only when its content differs.
"""
import os
import re

from .cells import mapping_allowed
from .flow_error import FlowError
from .pdk_files import read_text

_CELL = re.compile(r"^[ \t]*cell[ \t]*\([ \t]*\"?([A-Za-z0-9_]+)\"?[ \t]*\)[ \t]*\{", re.M)


def _group_end(text, start, path):
    """index just past the '}' closing the group whose '{' is at text[start - 1]; quoted strings
    and comments may hold braces."""
    depth, i, n = 1, start, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            j = text.find('"', i + 1)
            while j > 0 and text[j - 1] == "\\":
                j = text.find('"', j + 1)
            if j < 0:
                break
            i = j + 1
            continue
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            if j < 0:
                break
            i = j + 2
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    line = text.count("\n", 0, start) + 1
    raise FlowError(path, f"line {line}: cell group is not closed")


def filtered_text(path):
    """(Liberty text with only the mapping cells, kept names, dropped names)."""
    text = read_text(path)
    out, pos, kept, dropped = [], 0, [], []
    for m in _CELL.finditer(text):
        if m.start() < pos:
            continue  # inside a dropped cell (a cell group has no nested cell)
        end = _group_end(text, m.end(), path)
        if mapping_allowed(m.group(1)):
            kept.append(m.group(1))
        else:
            # drop the group and the whitespace up to the next line
            out.append(text[pos:m.start()])
            dropped.append(m.group(1))
            pos = end
            while pos < len(text) and text[pos] in " \t":
                pos += 1
            if pos < len(text) and text[pos] == "\n":
                pos += 1
    out.append(text[pos:])
    if not kept:
        raise FlowError(path, "no cell the flow may map to (cells.mapping_allowed)")
    return "".join(out), kept, dropped


def mapping_copy(path, out_dir):
    """out_dir/<file name without .gz and .lib>.map.lib, the filtered plain-text copy."""
    base = os.path.basename(path)
    for ext in (".gz", ".lib"):
        if base.endswith(ext):
            base = base[:-len(ext)]
    out = os.path.join(out_dir, base + ".map.lib")
    text, _, _ = filtered_text(path)
    data = text.encode("utf-8")
    if os.path.isfile(out):
        with open(out, "rb") as f:
            if f.read() == data:
                return out
    os.makedirs(out_dir, exist_ok=True)
    tmp = f"{out}.tmp{os.getpid()}"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, out)
    return out
