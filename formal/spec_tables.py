"""Exhaustive checks of the element decoders of rtl/hifsim_pkg.sv against tables computed here from
the format definitions (formal/prove.py method `sim`; docs/formal.md). Every code is simulated
(iverilog), so for these 4-, 8- and 16-bit decoders the comparison is a proof.

Each decoder's output is read through its documented interface (the comment above the function
in hifsim_pkg.sv) as (nan, inf, value) with value = +-sig * 2^t an exact Fraction with the sign of
a zero kept; the table gives the same triple from the format's own definition:
  E2M1    OCP MX v1.0 section 5.3.3: S.EE.M, bias 1, subnormal 0.M * 2^0, no Inf / NaN
  E4M3    OCP 8-bit FP (OFP8) E4M3: bias 7, subnormals, S.1111.111 NaN, no Inf
  E5M2    OFP8 E5M2 (IEEE-like): bias 15, subnormals, exponent 31: Inf (M = 0) / NaN
  BF16    the upper 16 bits of an IEEE binary32 (decoded by Python's struct)
  HiF8    the prefix-code layout of ../shared/reference/hif8.md section 1 (D = 4..0 and DML),
          0x00 zero, 0x80 NaN, 0x6F / 0xEF +-Inf; also compared entry by entry with that file's
          section 4 table when the file is there
"""
import os
import struct
import subprocess
from fractions import Fraction

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NAN = ("nan",)


def _signed(v, bits):
    return v - (1 << bits) if v >> (bits - 1) else v


def _val(sign, mag):
    return (False, False, sign, Fraction(mag))


def ref_e2m1(c):
    s, e, m = c >> 3, (c >> 1) & 3, c & 1
    mag = Fraction(m, 2) if e == 0 else Fraction(2) ** (e - 1) * (1 + Fraction(m, 2))
    return _val(s, mag)


def ref_e4m3(c):
    s, e, m = c >> 7, (c >> 3) & 15, c & 7
    if e == 15 and m == 7:
        return NAN
    mag = Fraction(m, 8) * Fraction(2) ** -6 if e == 0 else Fraction(2) ** (e - 7) * (1 + Fraction(m, 8))
    return _val(s, mag)


def ref_e5m2(c):
    s, e, m = c >> 7, (c >> 2) & 31, c & 3
    if e == 31:
        return NAN if m else (False, True, s, None)
    mag = Fraction(m, 4) * Fraction(2) ** -14 if e == 0 else Fraction(2) ** (e - 15) * (1 + Fraction(m, 4))
    return _val(s, mag)


def ref_bf16(c):
    f = struct.unpack("<f", struct.pack("<I", c << 16))[0]
    if f != f:
        return NAN
    if f in (float("inf"), float("-inf")):
        return (False, True, c >> 15, None)
    return _val(c >> 15, abs(Fraction(f)))


def ref_hif8(c):
    if c == 0x80:
        return NAN
    s, r = c >> 7, c & 0x7F
    if r == 0x6F:
        return (False, True, s, None)
    if r == 0:
        return _val(s, 0)
    for prefix, plen, d in (("11", 2, 4), ("10", 2, 3), ("01", 2, 2), ("001", 3, 1), ("0001", 4, 0)):
        if format(r, "07b").startswith(prefix):
            rest = format(r, "07b")[plen:]
            em, mant = rest[:d], rest[d:]
            e = 0
            if d:
                mag_e = (1 << (d - 1)) + (int(em[1:], 2) if d > 1 else 0)
                e = -mag_e if em[0] == "1" else mag_e
            mag = Fraction(2) ** e * (1 + Fraction(int(mant, 2), 1 << len(mant)))
            return _val(s, mag)
    return _val(s, Fraction(2) ** (r - 23))  # DML: 0000.MMM, 2^(M-23)


def hif8_table_from_reference():
    """{code: fp32 bits} of ../shared/reference/hif8.md section 4, or None when the file is absent."""
    path = os.path.join(ROOT, "..", "shared", "reference", "hif8.md")
    if not os.path.exists(path):
        return None
    out = {}
    for line in open(path):
        f = [x.strip() for x in line.split("|")]
        if len(f) > 7 and f[1].startswith("0x") and f[6].startswith("0x") and len(f[1]) == 4:
            out[int(f[1], 16)] = int(f[6], 16)
    return out if len(out) == 256 else None


def _fp32_triple(bits):
    f = struct.unpack("<f", struct.pack("<I", bits))[0]
    if f != f:
        return NAN
    if f in (float("inf"), float("-inf")):
        return (False, True, bits >> 31, None)
    return _val(bits >> 31, abs(Fraction(f)))


# decoder: (pkg function, code bits, output bits, reference, reader of the output word)
def _read(nan_bit, inf_bit, sign_bit, sig_lo, sig_w, t_lo, t_w, t_off, t_signed):
    def rd(w):
        if nan_bit is not None and (w >> nan_bit) & 1:
            return NAN
        s = (w >> sign_bit) & 1
        if inf_bit is not None and (w >> inf_bit) & 1:
            return (False, True, s, None)
        sig = (w >> sig_lo) & ((1 << sig_w) - 1)
        t = (w >> t_lo) & ((1 << t_w) - 1)
        t = (_signed(t, t_w) if t_signed else t) - t_off
        return _val(s, Fraction(sig) * Fraction(2) ** t)
    return rd


DECODERS = {
    "e2m1": ("e2m1_half", 4, 5, ref_e2m1, lambda w: _val(w >> 4, Fraction(w & 15, 2))),
    "e4m3": ("e4m3_dec", 8, 10, ref_e4m3, _read(9, None, 8, 4, 4, 0, 4, 9, False)),
    "e5m2": ("e5m2_dec", 8, 11, ref_e5m2, _read(10, 9, 8, 5, 3, 0, 5, 16, False)),
    "hif8": ("hif8_dec", 8, 13, ref_hif8, _read(12, 11, 10, 6, 4, 0, 6, 0, True)),
    "bf16": ("bf16_dec", 16, 20, ref_bf16, _read(19, 18, 17, 9, 8, 0, 9, 0, True)),
}


def _same(a, b):
    if a == NAN or b == NAN:
        return a == b
    return a[:3] == b[:3] and a[3] == b[3]


def check(job, rtl_dir, tmp):
    """Simulate every code of the job's decoder; (verdict, log)."""
    func, cb, ob, ref, read = DECODERS[job["decoder"]]
    tb = os.path.join(tmp, "tb.sv")
    open(tb, "w").write(f"""module tb;
  initial begin
    for (int c = 0; c < {1 << cb}; c++) $display("%0d %0d", c, hifsim_pkg::{func}({cb}'(c)));
    $finish;
  end
endmodule
""")
    exe = os.path.join(tmp, "tb.vvp")
    r = subprocess.run(["iverilog", "-g2012", "-o", exe, os.path.join(rtl_dir, "hifsim_pkg.sv"), tb],
                       capture_output=True, text=True)
    if r.returncode:
        return "UNKNOWN", "iverilog: " + r.stderr
    r = subprocess.run(["vvp", "-n", exe], capture_output=True, text=True)
    got = {}
    for line in r.stdout.splitlines():
        p = line.split()
        if len(p) == 2 and p[0].isdigit():
            got[int(p[0])] = int(p[1])
    if len(got) != 1 << cb:
        return "UNKNOWN", f"simulation printed {len(got)} of {1 << cb} codes\n" + r.stdout[-500:] + r.stderr
    bad = [c for c in range(1 << cb) if not _same(read(got[c]), ref(c))]
    log = ""
    if job["decoder"] == "hif8":
        table = hif8_table_from_reference()
        if table is not None:
            tbad = [c for c in range(256) if not _same(_fp32_triple(table[c]), ref_hif8(c))]
            if tbad:
                return "UNKNOWN", f"the HiF8 reference of this file disagrees with hif8.md section 4 at {tbad[:5]}"
            log += "hif8.md section 4 table agrees with the definition at all 256 codes\n"
    if bad:
        c = bad[0]
        return "REFUTED", log + f"{len(bad)} codes differ; first 0x{c:x}: RTL {read(got[c])} spec {ref(c)}"
    return "proven", log + f"all {1 << cb} codes equal"
