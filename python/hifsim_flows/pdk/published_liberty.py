"""Liberty text from SkyWater's published per-cell characterization (sky130_fd_sc_hd).

  python -m hifsim_flows.pdk.published_liberty --repo GITDIR --corner tt_025C_1v80 --out FILE
  python -m hifsim_flows.pdk.published_liberty --dir TREE   --corner tt_025C_1v80 --out FILE

The source is the repository google/skywater-pdk-libs-sky130_fd_sc_hd (--repo: its git
directory, read with `git show`, no work tree needed; --dir: a folder with the same layout,
used by the tests). It publishes one JSON file per cell and corner,
cells/<base>/sky130_fd_sc_hd__<cell>__<corner>.lib.json, and the library header in two parts,
timing/sky130_fd_sc_hd__common.lib.json (units, thresholds, table templates) and
timing/sky130_fd_sc_hd__<corner>.lib.json (operating conditions, voltage map).

The JSON is a structural image of Liberty, and this module writes it back as such:
  "kind,arg1,arg2": {...}    group  kind (arg1, arg2) { ... }
  "kind": {...}              group  kind () { ... }
  "kind": [{...}, {...}]     the group repeated (timing, internal_power, leakage_power)
  "comp_attribute,name": v   complex attribute  name (v...);
  "index_n"/"values": [...]  table rows as quoted, comma-separated numbers
  anything else              simple attribute  name : value;
Every table is checked against its index lengths and every number for finiteness, every
cell for an area and every pin for a direction; anything off stops with FlowError naming
the file, the field and the reason, and nothing is written (temporary file, renamed at the end).
A file name ending in .gz is written gzip-compressed (mtime 0, so reruns are byte-identical);
Yosys and OpenSTA both read .lib.gz directly.
"""
import argparse
import gzip
import hashlib
import json
import math
import os
import re
import subprocess
import sys

from .flow_error import FlowError

CONVERTER_VERSION = "1"
LIBRARY = "sky130_fd_sc_hd"
SOURCE_REPO = "github.com/google/skywater-pdk-libs-sky130_fd_sc_hd"
CORNERS = ("tt_025C_1v80", "ss_100C_1v60", "ff_n40C_1v95")

_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
# Attributes whose values are Boolean expressions or pin names: always quoted.
_EXPR = {"function", "when", "next_state", "clocked_on", "clocked_on_also", "clear", "preset",
         "enable", "data_in", "related_pin", "related_output_pin", "related_bias_pin",
         "power_down_function", "three_state", "state_function", "internal_node", "sdf_cond",
         "related_power_pin", "related_ground_pin", "cell_footprint"}
_DIRECTIONS = {"input", "output", "inout", "internal"}
_TABLE_KEYS = ("index_1", "index_2", "index_3", "values")


class Source:
    """The published files, from a git directory (--repo) or a plain folder (--dir)."""

    def __init__(self, repo=None, tree=None):
        self.repo, self.tree = repo, tree
        if repo:
            out = self._git("ls-tree", "-r", "HEAD", "--name-only")
            self.names = out.split("\n")
            self.commit = self._git("rev-parse", "HEAD").strip()
        else:
            if not os.path.isdir(tree):
                raise FlowError(tree, "no such folder")
            self.names = [os.path.relpath(os.path.join(d, f), tree).replace(os.sep, "/")
                          for d, _, fs in os.walk(tree) for f in fs]
            self.commit = None

    def _git(self, *args):
        r = subprocess.run(["git", "--git-dir", self.repo, *args], capture_output=True, text=True)
        if r.returncode != 0:
            raise FlowError(self.repo, f"git {' '.join(args[:2])} failed: {r.stderr.strip()}")
        return r.stdout

    def load(self, name):
        text = self._git("show", f"HEAD:{name}") if self.repo else open(
            os.path.join(self.tree, name), encoding="utf-8").read()
        try:
            return json.loads(text)
        except json.JSONDecodeError as e:
            raise FlowError(name, f"not JSON: {e}")

    def cell_files(self, tag):
        suffix = f"__{tag}.lib.json"
        return sorted(n for n in self.names if n.startswith("cells/") and n.endswith(suffix))

    def tag_of(self, corner):
        """the file-name tag of a corner: the corner itself, or <corner>_ccsnoise when SkyWater
        publishes that corner only with CCS noise data (ff_n40C_1v95)."""
        for tag in (corner, corner + "_ccsnoise"):
            if f"timing/{LIBRARY}__{tag}.lib.json" in self.names and self.cell_files(tag):
                return tag
        raise FlowError(f"timing/{LIBRARY}__{corner}.lib.json",
                        f"missing in the source (corner {corner!r}: is it one SkyWater publishes?)")


def _drop_ccsn(o):
    """the object without its CCS noise groups and templates (kinds ccsn_*, templates ccsn_*)."""
    if isinstance(o, list):
        return [_drop_ccsn(e) for e in o]
    if not isinstance(o, dict):
        return o
    return {k: _drop_ccsn(v) for k, v in o.items()
            if not k.startswith("ccsn_") and not k.startswith("lu_table_template,ccsn_")}


def _num(v, where):
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise FlowError(where[0], f"{where[1]}: expected a number, got {v!r}")
    if not math.isfinite(v):
        raise FlowError(where[0], f"{where[1]}: not a finite number ({v!r})")
    return repr(v) if isinstance(v, float) else str(v)


def _value(key, v, where):
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return _num(v, where)
    if not isinstance(v, str):
        raise FlowError(where[0], f"{where[1]}: unexpected value {v!r}")
    if key not in _EXPR and (_IDENT.match(v)):
        return v
    return '"' + v.replace('"', '\\"') + '"'


def _arg(a):
    return a if _IDENT.match(a) else f'"{a}"'


class Writer:
    def __init__(self, templates):
        self.templates = templates  # name -> number of index dimensions (None: any)
        self.out = []

    def emit(self, ind, text):
        self.out.append("  " * ind + text + "\n")

    def table(self, where, kind, template, body, ind):
        """a table group: kind (template) { index_n (...); values (...); }"""
        if template not in self.templates:
            raise FlowError(where[0], f"{where[1]}: table template {template!r} is not defined")
        idx = []
        for n in (1, 2, 3):
            v = body.get(f"index_{n}")
            if v is None:
                break
            if not v or not isinstance(v, list):
                raise FlowError(where[0], f"{where[1]}/index_{n}: empty or not a list")
            idx.append([_num(x, (where[0], f"{where[1]}/index_{n}")) for x in v])
        vals = body.get("values")
        if vals is None:
            raise FlowError(where[0], f"{where[1]}: table without values")
        self.emit(ind, f"{kind} ({template}) {{")
        for k, v in body.items():  # e.g. driver_waveform_name of a normalized_driver_waveform
            if k not in _TABLE_KEYS:
                self.emit(ind + 1, f"{k} : {_value(k, v, (where[0], f'{where[1]}/{k}'))};")
        for n, v in enumerate(idx, 1):
            self.emit(ind + 1, f'index_{n} ("{", ".join(v)}");')
        w = (where[0], f"{where[1]}/values")
        if len(idx) == 2:
            if len(vals) != len(idx[0]) or any(not isinstance(r, list) or len(r) != len(idx[1]) for r in vals):
                raise FlowError(w[0], f"{w[1]}: expected {len(idx[0])} rows of {len(idx[1])} values "
                                      f"(index_1 x index_2)")
            rows = [", ".join(_num(x, w) for x in r) for r in vals]
        elif len(idx) == 1:
            if len(vals) != len(idx[0]) or any(isinstance(x, list) for x in vals):
                raise FlowError(w[0], f"{w[1]}: expected {len(idx[0])} values (index_1)")
            rows = [", ".join(_num(x, w) for x in vals)]
        elif len(idx) == 0:
            if len(vals) != 1:
                raise FlowError(w[0], f"{w[1]}: a scalar table has one value, got {len(vals)}")
            rows = [_num(vals[0], w)]
        else:
            raise FlowError(w[0], f"{w[1]}: three-dimensional tables are not used by this library")
        if len(rows) == 1:
            self.emit(ind + 1, f'values ("{rows[0]}");')
        else:
            self.emit(ind + 1, "values ( \\")
            for i, r in enumerate(rows):
                self.emit(ind + 2, f'"{r}"' + (", \\" if i + 1 < len(rows) else " \\"))
            self.emit(ind + 1, ");")
        self.emit(ind, "}")

    def group(self, where, body, ind):
        """the contents of one group: simple attributes, then complex ones, then subgroups."""
        if not isinstance(body, dict):
            raise FlowError(where[0], f"{where[1]}: expected an object, got {type(body).__name__}")
        simple, groups = [], []
        for k, v in body.items():
            (groups if isinstance(v, (dict, list)) or "," in k else simple).append((k, v))
        for k, v in simple:
            self.emit(ind, f"{k} : {_value(k, v, (where[0], f'{where[1]}/{k}'))};")
        for k, v in groups:
            w = (where[0], f"{where[1]}/{k}")
            kind, _, rest = k.partition(",")
            if kind == "comp_attribute":
                self.complex(w, rest, v, ind)
            elif kind == "table" and isinstance(v, list):  # statetable rows
                self.emit(ind, 'table : "' + ", \\\n".join(v) + '";')
            elif isinstance(v, dict) and "values" in v:
                self.table(w, kind, rest or "scalar", v, ind)
            elif isinstance(v, list) and v and all(isinstance(x, (int, float)) for x in v):
                self.emit(ind, f'{kind} ("{", ".join(_num(x, w) for x in v)}");')  # template index
            elif isinstance(v, list):
                if not all(isinstance(e, dict) for e in v):
                    raise FlowError(w[0], f"{w[1]}: a list of groups holds a non-object")
                for i, e in enumerate(v):
                    self.subgroup((w[0], f"{w[1]}[{i}]"), kind, rest, e, ind)
            else:
                self.subgroup(w, kind, rest, v, ind)

    def subgroup(self, where, kind, rest, body, ind):
        args = ", ".join(_arg(a) for a in rest.split(",")) if rest else ""
        self.emit(ind, f"{kind} ({args}) {{")
        if kind == "pin":
            d = body.get("direction")
            if d not in _DIRECTIONS:
                raise FlowError(where[0], f"{where[1]}/direction: {d!r} is not one of {sorted(_DIRECTIONS)}")
            for c in ("capacitance", "rise_capacitance", "fall_capacitance"):
                if c in body and (_num(body[c], (where[0], f"{where[1]}/{c}")) and body[c] < 0):
                    raise FlowError(where[0], f"{where[1]}/{c}: negative capacitance {body[c]!r}")
        self.group(where, body, ind + 1)
        self.emit(ind, "}")

    def complex(self, where, name, v, ind):
        if isinstance(v, dict):  # {"VGND": 0.0, ...}: one line per entry
            v = [[k, x] for k, x in v.items()]
        if v and all(isinstance(e, list) for e in v):
            for e in v:
                self.complex(where, name, e, ind)
            return
        parts = [_num(x, where) if isinstance(x, (int, float)) else _arg(str(x)) for x in v] \
            if isinstance(v, list) else [_value(name, v, where)]
        self.emit(ind, f"{name} ({', '.join(parts)});")


def _templates(common, corner_hdr):
    t = {"scalar": None}
    for hdr in (common, corner_hdr):
        for k in hdr:
            kind, _, name = k.partition(",")
            if kind in ("lu_table_template", "power_lut_template"):
                t[name] = None
    return t


def convert(src, corner, cells=None):
    """Liberty text of the library at one corner; cells: an optional list of cell names."""
    common_name = f"timing/{LIBRARY}__common.lib.json"
    if common_name not in src.names:
        raise FlowError(common_name, "missing in the source")
    tag = src.tag_of(corner)
    corner_name = f"timing/{LIBRARY}__{tag}.lib.json"
    common, hdr = src.load(common_name), _drop_ccsn(src.load(corner_name))
    files = src.cell_files(tag)
    if cells:
        want = {f"{LIBRARY}__{c}" for c in cells}
        files = [f for f in files if os.path.basename(f).split(f"__{tag}")[0] in want]
        got = {os.path.basename(f).split(f"__{tag}")[0] for f in files}
        if want - got:
            raise FlowError(corner, f"cells not published at this corner: {sorted(want - got)}")
    if not files:
        raise FlowError(corner, "no cell files for this corner")

    w = Writer(_templates(common, hdr))
    lib = f"{LIBRARY}__{corner}"
    note = "" if tag == corner else (f"\n   The corner is published only as {tag}: its NLDM tables are kept, its CCS noise\n"
                                     f"   groups (ccsn_*) dropped.")
    w.out.append(f"/* {lib}: SkyWater's published characterization of {LIBRARY} at {corner},\n"
                 f"   converted from the per-cell lib.json files of {SOURCE_REPO}\n"
                 f"   (commit {src.commit or 'local folder'}; Apache-2.0) by hifsim_flows.pdk.published_liberty\n"
                 f"   version {CONVERTER_VERSION}. {len(files)} cells.{note}\n   Do not edit: regenerate. */\n")
    w.emit(0, f"library ({lib}) {{")
    merged = dict(common)
    merged.update(hdr)  # the corner's voltage map and conditions win over the common part
    defines = merged.pop("define", [])
    for d in defines:
        w.emit(1, f"define ({d['attribute_name']}, {d['group_name']}, {d['attribute_type']});")
    default_oc = merged.pop("default_operating_conditions", None)
    w.group((corner_name, "library"), merged, 1)
    if default_oc:  # after its operating_conditions group: OpenSTA resolves the name on reading
        w.emit(1, f"default_operating_conditions : {_value('', default_oc, (corner_name, 'library'))};")
    names = []
    for f in files:
        body = _drop_ccsn(src.load(f))
        cell = os.path.basename(f).split(f"__{tag}")[0]
        if "area" not in body:
            raise FlowError(f, "area: missing")
        if _num(body["area"], (f, "area")) and body["area"] <= 0:
            raise FlowError(f, f"area: not positive ({body['area']!r})")
        w.emit(1, f"cell ({cell}) {{")
        w.group((f, cell), body, 2)
        w.emit(1, "}")
        names.append(cell)
    w.emit(0, "}")
    return "".join(w.out), names


def write(path, text):
    tmp = path + ".tmp"
    data = text.encode("utf-8")
    with open(tmp, "wb") as f:
        if path.endswith(".gz"):
            with gzip.GzipFile(filename="", mode="wb", fileobj=f, mtime=0, compresslevel=9) as g:
                g.write(data)
        else:
            f.write(data)
    os.replace(tmp, path)


def update_manifest(path, src, corner, out, text, names):
    """one entry per corner in a JSON manifest: source, commit, converter, cells, digests."""
    m = {}
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            m = json.load(f)
    m.update({"source_repository": SOURCE_REPO, "source_commit": src.commit,
              "source_license": "Apache-2.0", "converter": "hifsim_flows.pdk.published_liberty",
              "converter_version": CONVERTER_VERSION})
    with open(out, "rb") as f:
        packed = f.read()
    m.setdefault("corners", {})[corner] = {
        "file": os.path.basename(out), "source_files": f"cells/*/{LIBRARY}__<cell>__{src.tag_of(corner)}.lib.json",
        "bytes": len(packed), "sha256": hashlib.sha256(packed).hexdigest(),
        "liberty_bytes": len(text.encode("utf-8")),
        "liberty_sha256": hashlib.sha256(text.encode("utf-8")).hexdigest(),
        "cell_count": len(names), "cells": names}
    m["corners"] = dict(sorted(m["corners"].items()))
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(m, f, indent=1)
        f.write("\n")
    os.replace(tmp, path)


def plain_copy(path, out_dir):
    """an uncompressed copy of a .lib.gz for tools that read only plain text (Debian's OpenSTA);
    a .lib is returned as it is. The copy is rewritten only when the archive is newer."""
    if not path.endswith(".gz"):
        return path
    out = os.path.join(out_dir, os.path.basename(path)[:-3])
    if not os.path.exists(out) or os.path.getmtime(out) < os.path.getmtime(path):
        os.makedirs(out_dir, exist_ok=True)
        try:
            with gzip.open(path, "rb") as f:
                data = f.read()
        except (OSError, EOFError) as e:
            raise FlowError(path, f"cannot decompress: {e}")
        with open(out + ".tmp", "wb") as f:
            f.write(data)
        os.replace(out + ".tmp", out)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--repo", help="git directory of google/skywater-pdk-libs-sky130_fd_sc_hd")
    g.add_argument("--dir", help="a folder with the repository's layout (cells/, timing/)")
    ap.add_argument("--corner", required=True, help="e.g. tt_025C_1v80, ss_100C_1v60, ff_n40C_1v95")
    ap.add_argument("--out", required=True, help="Liberty file to write (.lib, or .lib.gz compressed)")
    ap.add_argument("--cells", help="comma-separated cell names (default: every published cell)")
    ap.add_argument("--manifest", help="JSON manifest to add this corner's entry to")
    a = ap.parse_args(argv)
    try:
        src = Source(repo=a.repo, tree=a.dir)
        text, names = convert(src, a.corner, a.cells.split(",") if a.cells else None)
        write(a.out, text)
        if a.manifest:
            update_manifest(a.manifest, src, a.corner, a.out, text, names)
    except FlowError as e:
        print(f"published_liberty: {e}", file=sys.stderr)
        return 1
    print(f"published_liberty: {a.out}: {len(names)} cells at {a.corner}"
          f" (source commit {src.commit or a.dir})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
