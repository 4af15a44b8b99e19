"""hifsim_flows.pdk.moved on hand-made table pairs: a changed row shows before -> after and its
ratio, a new and a gone row are named, the geometric means and the HiF4/NVFP4 ratio are those of
the rows; a NaN, an Inf, a word, a missing column, a missing file and a broken YAML each stop the
tool with the file, the line and the column, and no ratio is printed from them."""
import os
import shutil
import tempfile

from pdk_test_common import check, finish, run, step

UNITS = ("module,parameters,area_um2,cells,flip_flops,min_period_ns,fmax_mhz,startpoint,endpoint{ss}\n"
         "hif4_dot64,STAGES=0,{ha},1,0,10,100,a,b{hss}\n"
         "nvfp4_dot64,STAGES=0,200,1,0,20,50,a,b{nss}\n"
         "{extra}")
ENERGY = ("module,parameters,trace_op,ops,unit_pj\n"
          "hif4_dot64,STAGES=0,smollm2-135m/layer15.q_proj,512,{hp}\n"
          "nvfp4_dot64,STAGES=0,smollm2-135m/layer15.q_proj,512,{np}\n")
CAL = "module,parameters,gate_pj\ne_mul,factor,{f}\n"
YAML = "schema: hifsim-cost-energy/1\nnode: sky130\ne_mul: {{value: {v}, unit: fJ}}\n"


def tables(d, ha="100", hss="", nss="", ss="", extra="", hp="7", np_="10", f="5", v="3"):
    os.makedirs(os.path.join(d, "sky130"), exist_ok=True)
    open(os.path.join(d, "sky130", "units.csv"), "w").write(UNITS.format(ss=ss, ha=ha, hss=hss, nss=nss, extra=extra))
    open(os.path.join(d, "sky130", "energy.csv"), "w").write(ENERGY.format(hp=hp, np=np_))
    open(os.path.join(d, "sky130", "calibration.csv"), "w").write(CAL.format(f=f))
    open(os.path.join(d, "energy-sky130.yaml"), "w").write(YAML.format(v=v))


with tempfile.TemporaryDirectory() as t:
    b, a = os.path.join(t, "before"), os.path.join(t, "after")
    tables(b, extra="mxfp4_dot64,STAGES=0,50,1,0,10,100,a,b\n")
    tables(a, ha="110", ss=",min_period_ss_ns,fmax_ss_mhz", hss=",20,50", nss=",40,25", hp="14", np_="20", f="10", v="6")
    rc, out, err = run([*step("moved"), "--before", b, "--after", a])
    check(rc == 0, f"exit {rc}: {err}")
    check("| hif4_dot64 | STAGES=0 | 100 → 110 (1.10×) | 100.0 → 100.0 (1.00×) | 50.0 | 7.000 → 14.000 (2.00×) |" in out,
          f"a changed row, before -> after with the ratio, ss from the after table: {out}")
    check("| mxfp4_dot64 | STAGES=0 | 100 → gone |" not in out and "50 → gone" in out, "a gone row is named")
    check("| e_mul (factor) | 5 | 10 (2.00×) |" in out, f"calibration factor: {out}")
    check("| e_mul (fJ) | 3 | 6 (2.00×) |" in out, f"node table coefficient: {out}")
    check("pJ per op 2.000× (2 rows)" in out and "fmax ss / tt 0.500 (2 rows)" in out, f"geometric means: {out}")
    check("STAGES=0 0.700 → 0.700" in out, f"HiF4 / NVFP4 ratio: {out}")
    # Bad input: one line naming the file (and line and column), exit non-zero, no table.
    bad = os.path.join(t, "bad")
    for what, kw, want in (("NaN energy", {"hp": "nan"}, "energy.csv: line 2 unit_pj: 'nan' is not a finite number"),
                           ("Inf area", {"ha": "inf"}, "units.csv: line 2 area_um2: 'inf' is not a finite number"),
                           ("a word", {"ha": "big"}, "units.csv: line 2 area_um2: 'big' is not a number"),
                           ("Inf coefficient", {"v": ".inf"}, "energy-sky130.yaml (after) e_mul: inf is not a finite number")):
        shutil.rmtree(bad, ignore_errors=True)
        tables(bad, **kw)
        rc, out, err = run([*step("moved"), "--before", b, "--after", bad])
        check(rc != 0 and want in err and "|" not in out, f"{what}: rc {rc}, {err.strip()}")
    shutil.rmtree(bad)
    tables(bad)
    open(os.path.join(bad, "sky130", "energy.csv"), "w").write("module,parameters,ops\nx,y,1\n")
    rc, out, err = run([*step("moved"), "--before", b, "--after", bad])
    check(rc != 0 and "energy.csv: no column trace_op, unit_pj" in err, f"missing columns: {err.strip()}")
    os.remove(os.path.join(bad, "sky130", "energy.csv"))
    rc, out, err = run([*step("moved"), "--before", b, "--after", bad])
    check(rc != 0 and "energy.csv: no such file" in err, f"missing file: {err.strip()}")
    tables(bad)
    open(os.path.join(bad, "energy-sky130.yaml"), "w").write("e_mul: {value: [\n")
    rc, out, err = run([*step("moved"), "--before", b, "--after", bad])
    check(rc != 0 and "energy-sky130.yaml: not YAML" in err, f"broken YAML: {err.strip()}")
finish()
