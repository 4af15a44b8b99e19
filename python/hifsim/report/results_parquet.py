#!/usr/bin/env python3
"""Write a sweep's merged results.csv also as Parquet (results.parquet next to it) when pyarrow
is installed; pyarrow is optional (not a project dependency), so without it this prints one line
and exits 0. The id column is a string; other columns whose every non-empty value parses as a number become float64 (int64 when
all are integers); empty cells become nulls; the rest stay strings.

    results_parquet.py DIR/results.csv      (writes DIR/results.parquet)
"""
import csv
import os
import sys


def column(values):
    """(kind, converted values) for one CSV column: int64, float64 or string, empty -> None."""
    present = [v for v in values if v != ""]
    for kind, conv in (("int64", int), ("float64", float)):
        try:
            for v in present:
                conv(v)
        except ValueError:
            continue
        return kind, [conv(v) if v != "" else None for v in values]
    return "string", [v if v != "" else None for v in values]


def main(argv):
    if len(argv) != 1:
        sys.exit("usage: results_parquet.py DIR/results.csv")
    src = argv[0]
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        print(f"[sweep] pyarrow is not installed: {src} only (pip install pyarrow for results.parquet)")
        return 0
    with open(src, newline="") as f:
        reader = csv.reader(f)
        header = next(reader, None)
        if header is None:
            sys.exit(f"{src}: empty file, no header")
        rows = list(reader)
    for i, r in enumerate(rows, start=2):
        if len(r) != len(header):
            sys.exit(f"{src}: line {i}: {len(r)} fields, header has {len(header)}")
    arrays, fields = [], []
    for j, name in enumerate(header):
        # Point ids are hex hashes: always strings, even when all their digits happen to be 0-9.
        kind, vals = ("string", [r[j] for r in rows]) if name == "id" else column([r[j] for r in rows])
        arrays.append(pa.array(vals, type=getattr(pa, kind)()))
        fields.append(name)
    dst = os.path.splitext(src)[0] + ".parquet"
    pq.write_table(pa.Table.from_arrays(arrays, names=fields), dst)
    print(f"[sweep] {dst}: {len(rows)} rows, {len(header)} columns")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
