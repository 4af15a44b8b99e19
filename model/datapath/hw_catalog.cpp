// The unit catalog (unit_catalog.hpp): every unit by name with its RTL module's parameters,
// defaults and ranges, its variants per purpose, and the RTL-parameter-to-config mapping; hw.hpp's
// unit_by_name builds a unit's description from it.
#include <initializer_list>
#include <map>

#include "datapath/hw.hpp"
#include "datapath/unit_catalog.hpp"
#include "util/error.hpp"

namespace hifsim::dp::hw {

namespace {


// A unit: its catalog record and how its RTL parameters become its description.
struct Entry {
  CatalogUnit unit;
  UnitDesc (*build)(const std::map<std::string, int>& v);
};

int at(const std::map<std::string, int>& v, const char* k) { return v.at(k); }

DotParams dot(fmt::Format f, int stages) { return default_dot_params(f, stages); }

UnitDesc hif8(const std::map<std::string, int>& v) {
  DotParams p = dot(fmt::Format::hif8, at(v, "STAGES"));
  p.lanes = at(v, "N");
  p.align_width = at(v, "W") == 0 ? kHif8ExactWidth : at(v, "W");
  p.policy = at(v, "STICKY") ? AlignPolicy::sticky : AlignPolicy::trunc;
  return describe_dot(p);
}
UnitDesc bf16(const std::map<std::string, int>& v) {
  DotParams p = dot(fmt::Format::bf16, at(v, "STAGES"));
  p.align_width = at(v, "W");
  p.policy = at(v, "STICKY") ? AlignPolicy::sticky : AlignPolicy::trunc;
  return describe_dot(p);
}
AccSpec acc(const std::map<std::string, int>& v) {
  AccSpec a;
  if (at(v, "MANT_BITS") != 23 || at(v, "ROUND_RZ")) {
    a.kind = AccSpec::fp32_reduced;
    a.mant_bits = at(v, "MANT_BITS");
    a.mode = at(v, "ROUND_RZ") ? RoundMode::rz : RoundMode::rne;
  }
  return a;
}
UnitDesc sparse(const std::map<std::string, int>& v) { return describe_sparse_residual_add(at(v, "STAGES"), acc(v)); }

// ---- Building the variant lists ----
using P = Purpose;
VariantSet set(P purpose, ParamList params, std::string name = "", std::string yosys = "") {
  return {purpose, std::move(name), std::move(params), std::move(yosys)};
}
// `fixed` + STAGES=s for s in lo..hi (STAGES last, as the flows write it), named <prefix><s>.
std::vector<VariantSet> stages(P purpose, int lo, int hi, const ParamList& fixed = {}, const std::string& prefix = "") {
  std::vector<VariantSet> v;
  for (int s = lo; s <= hi; ++s) {
    ParamList p = fixed;
    p.emplace_back("STAGES", s);
    v.push_back(set(purpose, p, prefix.empty() ? "" : prefix + std::to_string(s)));
  }
  return v;
}
// Lint of every STAGES value lo..hi ("stages<s>"), `synth_at` also through Yosys synth.
std::vector<VariantSet> lint_stages(int lo, int hi, int synth_at = -1) {
  std::vector<VariantSet> v = stages(P::lint, lo, hi, {}, "stages");
  for (VariantSet& s : v)
    if (s.params.back().second == synth_at) s.yosys = "SYNTH";
  return v;
}
std::vector<VariantSet> cat(std::initializer_list<std::vector<VariantSet>> parts) {
  std::vector<VariantSet> v;
  for (const auto& p : parts) v.insert(v.end(), p.begin(), p.end());
  return v;
}
// The FP4 dot units: STAGES only. `synth_at`: the depth also synthesised in the default suite;
// `main`: the cosim main model's depth (the sweep runs the others); `elab`: a Yosys elaboration
// of the defaults; `validation`: the combinational unit is a row of the area fit's check.
std::vector<VariantSet> fp4_sets(int max, int synth_at, int main, bool elab, bool validation) {
  std::vector<VariantSet> sweep;
  for (const VariantSet& x : stages(P::sweep, 0, max))
    if (x.params.back().second != main) sweep.push_back(x);
  return cat({lint_stages(0, max, synth_at),
              elab ? std::vector<VariantSet>{set(P::lint, {}, "default", "ELAB")} : std::vector<VariantSet>{},
              {set(P::drift, {})}, stages(P::drift, 0, max), {set(P::regression, {{"STAGES", main}})}, sweep,
              validation ? std::vector<VariantSet>{set(P::validation, {{"STAGES", 0}})} : std::vector<VariantSet>{},
              stages(P::synthesis, 0, max)});
}
ParamList acc_p(int mant, int rz) { return {{"MANT_BITS", mant}, {"ROUND_RZ", rz}}; }

// The FP4 dot units: STAGES only.
std::vector<Entry> fp4_entries() {
  std::vector<Entry> v;
  // hif4_dot64: every depth linted, the default synthesised in the default suite; the cosim
  // main model runs the RTL default 3 (not the deepest, 5), the sweep the others.
  v.push_back({{"hif4_dot64", {{"STAGES", 3, 0, 5}}, {}, 0, 288, fp4_sets(5, 3, 3, false, false)},
               [](auto& x) { return describe_dot(dot(fmt::Format::hif4, at(x, "STAGES"))); }});
  v.back().unit.sets.push_back(set(P::calibration, {{"STAGES", 3}}, "hif4"));
  v.push_back({{"nvfp4_dot64", {{"STAGES", 3, 0, 5}}, {}, 2, 288, fp4_sets(5, -1, 5, true, true)},
               [](auto& x) { return describe_dot(dot(fmt::Format::nvfp4, at(x, "STAGES"))); }});
  v.back().unit.sets.push_back(set(P::calibration, {{"STAGES", 3}}, "nvfp4"));
  v.push_back({{"mxfp4_dot64", {{"STAGES", 2, 0, 4}}, {}, 3, 272, fp4_sets(4, -1, 4, true, true)},
               [](auto& x) { return describe_dot(dot(fmt::Format::mxfp4, at(x, "STAGES"))); }});
  v.back().unit.sets.push_back(set(P::calibration, {{"STAGES", 2}}, "mxfp4"));
  return v;
}

Entry mxfp8_dot32_entry() {
  // mxfp8_dot32: the instances of a cosim group are E4M3, E5M2.
  std::vector<VariantSet> s = cat({stages(P::lint, 0, 3, {{"E5M2", 0}}, "e4m3_stages"),
                                   stages(P::lint, 0, 3, {{"E5M2", 1}}, "e5m2_stages"),
                                   {set(P::lint, {{"E5M2", 0}}, "e4m3", "ELAB"), set(P::lint, {{"E5M2", 1}}, "e5m2", "ELAB")},
                                   {set(P::drift, {})}, stages(P::drift, 0, 3),
                                   {set(P::drift, {{"E5M2", 1}, {"STAGES", 0}}), set(P::drift, {{"E5M2", 1}, {"STAGES", 3}})},
                                   {set(P::regression, {{"E5M2", 0}, {"STAGES", 3}}), set(P::regression, {{"E5M2", 1}, {"STAGES", 3}})}});
  for (int st = 0; st <= 2; ++st)
    for (int e5 = 0; e5 <= 1; ++e5) s.push_back(set(P::sweep, {{"E5M2", e5}, {"STAGES", st}}));
  for (const VariantSet& x : stages(P::synthesis, 0, 3, {{"E5M2", 0}})) s.push_back(x);
  s.push_back(set(P::synthesis, {{"E5M2", 1}, {"STAGES", 2}}));
  s.push_back(set(P::calibration, {{"E5M2", 0}, {"STAGES", 2}}, "mxfp8"));
  return Entry{{"mxfp8_dot32", {{"E5M2", 0, 0, 1}, {"STAGES", 2, 0, 3}}, {{"E5M2", 0, 1}}, 4, 264, s},
               [](auto& x) {
                 return describe_dot(dot(at(x, "E5M2") ? fmt::Format::mxfp8_e5m2 : fmt::Format::mxfp8_e4m3, at(x, "STAGES")));
               }};
}

Entry hif8_dot_entry() {
  // hif8_dot: the STAGES sweep of the drift test on 16 lanes (the 64-lane aligned datapath is
  // the slow one to elaborate); W=0 is the exact window.
  auto nws = [](int n, int w, int st) { return ParamList{{"N", n}, {"W", w}, {"STICKY", st}}; };
  auto nwss = [&](int n, int w, int st, int stages) {
    ParamList p = nws(n, w, st);
    p.emplace_back("STAGES", stages);
    return p;
  };
  auto lint_nws = [&](int n, int w, int st, const std::string& yosys = "") {
    return set(P::lint, nws(n, w, st),
               "n" + std::to_string(n) + "_w" + std::to_string(w) + "_sticky" + (yosys.empty() ? std::to_string(st) : ""), yosys);
  };
  std::vector<VariantSet> s = cat({lint_stages(0, 4),
                                   {lint_nws(16, 24, 0), lint_nws(32, 40, 1), lint_nws(64, 82, 0), lint_nws(16, 8, 1),
                                    lint_nws(32, 120, 1), lint_nws(16, 8, 1, "ELAB")},
                                   {set(P::drift, {})}, stages(P::drift, 0, 4, {{"N", 16}}),
                                   {set(P::drift, {{"N", 16}, {"W", 24}, {"STAGES", 3}}),
                                    set(P::drift, {{"N", 32}, {"W", 40}, {"STICKY", 1}, {"STAGES", 2}})},
                                   {set(P::regression, nwss(64, 0, 0, 4)), set(P::regression, nwss(32, 24, 0, 4)),
                                    set(P::regression, nwss(32, 40, 1, 4)), set(P::regression, nwss(16, 8, 1, 4))}});
  // The sweep: three sets at each STAGES value 0..3 (4 is the main model's).
  const int sweep[4][3][3] = {{{16, 24, 0}, {32, 82, 0}, {64, 40, 1}},
                              {{16, 40, 0}, {32, 120, 1}, {64, 24, 0}},
                              {{16, 82, 0}, {32, 40, 0}, {64, 82, 0}},
                              {{64, 40, 0}, {16, 120, 0}, {64, 0, 0}}};
  for (int st = 0; st < 4; ++st)
    for (const auto& x : sweep[st]) {
      s.push_back(set(P::sweep, nwss(x[0], x[1], x[2], st)));
    }
  // Synthesis: the window and lane sweep at the RTL default depth, then the exact 64-lane unit
  // at STAGES 1-4 (STAGES=0 did not finish in Yosys 0.23, docs/results/sky130-2026-12-02.md).
  for (int n : {16, 32, 64})
    for (int w : {24, 40, 82}) s.push_back(set(P::synthesis, {{"N", n}, {"W", w}}));
  s.push_back(set(P::synthesis, {{"N", 64}, {"W", 40}, {"STICKY", 1}}));
  for (const VariantSet& x : stages(P::synthesis, 1, 4, {{"N", 64}, {"W", 0}})) s.push_back(x);
  s.push_back(set(P::calibration, {{"N", 32}, {"W", 40}, {"STICKY", 1}, {"STAGES", 3}}, "hif8"));
  return Entry{{"hif8_dot",
                {{"N", 64, 16, 64}, {"W", 0, 0, 112}, {"STICKY", 0, 0, 1}, {"STAGES", 3, 0, 4}},
                {{"W", 0, 8}, {"N", 8, 7}, {"STICKY", 15, 1}},
                1,
                256,
                s},
               hif8};
}

Entry bf16_dot64_entry() {
  std::vector<VariantSet> s = cat({lint_stages(0, 4),
                                   {set(P::lint, {{"W", 16}, {"STICKY", 0}}, "w16_sticky0"),
                                    set(P::lint, {{"W", 32}, {"STICKY", 1}}, "w32_sticky1"),
                                    set(P::lint, {{"W", 120}, {"STICKY", 1}}, "w120_sticky1"), set(P::lint, {}, "default", "ELAB")},
                                   {set(P::drift, {}), set(P::drift, {{"W", 32}, {"STAGES", 1}}),
                                    set(P::drift, {{"W", 64}, {"STICKY", 0}, {"STAGES", 4}})},
                                   {set(P::regression, {{"W", 64}, {"STICKY", 1}, {"STAGES", 4}})},
                                   {set(P::sweep, {{"W", 16}, {"STICKY", 0}, {"STAGES", 0}}),
                                    set(P::sweep, {{"W", 32}, {"STICKY", 1}, {"STAGES", 1}}),
                                    set(P::sweep, {{"W", 120}, {"STICKY", 1}, {"STAGES", 2}}),
                                    set(P::sweep, {{"W", 64}, {"STICKY", 0}, {"STAGES", 3}})},
                                   {set(P::synthesis, {{"W", 32}, {"STICKY", 1}}), set(P::synthesis, {{"W", 64}, {"STICKY", 1}}),
                                    set(P::synthesis, {{"W", 64}, {"STICKY", 0}})},
                                   stages(P::synthesis, 1, 2, {{"W", 64}, {"STICKY", 1}}),
                                   stages(P::synthesis, 4, 4, {{"W", 64}, {"STICKY", 1}}),
                                   {set(P::calibration, {{"STAGES", 3}}, "bf16")}});
  return Entry{{"bf16_dot64", {{"W", 64, 16, 112}, {"STICKY", 1, 0, 1}, {"STAGES", 3, 0, 4}}, {{"W", 0, 8}, {"STICKY", 15, 1}}, 5, 1024, s},
               bf16};
}

Entry fp32_acc_entry() {
  std::vector<VariantSet> s = {set(P::lint, acc_p(23, 0), "m23_rne", "SYNTH"), set(P::lint, acc_p(10, 1), "m10_rz", "SYNTH"),
                               set(P::lint, acc_p(1, 0), "m1_rne"), set(P::lint, acc_p(13, 1), "m13_rz"),
                               set(P::drift, {}), set(P::drift, acc_p(10, 1))};
  for (int m : {23, 13, 10, 7})
    for (int rz : {0, 1}) s.push_back(set(P::synthesis, acc_p(m, rz)));
  return Entry{{"fp32_acc", {{"MANT_BITS", 23, 1, 23}, {"ROUND_RZ", 0, 0, 1}}, {}, -1, 0, s},
               [](auto& x) { return describe_acc(acc(x)); }};
}

Entry sparse_residual_add_entry() {
  std::vector<VariantSet> s = cat({lint_stages(0, 5),
                                   {set(P::lint, acc_p(10, 1), "m10_rz"), set(P::lint, {}, "default", "ELAB")},
                                   {set(P::drift, {})}, stages(P::drift, 0, 5),
                                   {set(P::drift, {{"MANT_BITS", 10}, {"ROUND_RZ", 1}, {"STAGES", 5}})},
                                   {set(P::regression, {{"MANT_BITS", 23}, {"ROUND_RZ", 0}, {"STAGES", 5}})}});
  const ParamList sweep[5] = {acc_p(10, 1), acc_p(23, 1), acc_p(13, 0), acc_p(23, 0), acc_p(7, 1)};
  for (int st = 0; st < 5; ++st) {
    ParamList p = sweep[st];
    p.emplace_back("STAGES", st);
    s.push_back(set(P::sweep, p));
  }
  for (const VariantSet& x : stages(P::synthesis, 0, 5)) s.push_back(x);
  s.push_back(set(P::calibration, {{"STAGES", 3}}, "hif4-sparse"));
  return Entry{{"sparse_residual_add",
                {{"STAGES", 3, 0, 5}, {"MANT_BITS", 23, 1, 23}, {"ROUND_RZ", 0, 0, 1}},
                {{"MANT_BITS", 0, 7}, {"ROUND_RZ", 7, 1}},
                6,
                288,
                s},
               sparse};
}

Entry hif4_quantizer_entry() {
  // hif4_quantizer: the options {ELEM_RNE, CMP_BF16, INF_TO_NAN} (docs/cosim.md): the reference
  // defaults and every option flipped ("A6 golden" compares with RNE elements and Inf -> NaN);
  // ASCEND_A6: the PTO-ISA A6 golden's whole convention (docs/formats.md 3.1), a third instance of
  // the cosim main group, linted and elaborated at STAGES=2 and in the drift test.
  auto opt = [](int rne, int bf, int nan, int stages = -1) {
    ParamList p{{"ELEM_RNE", rne}, {"CMP_BF16", bf}, {"INF_TO_NAN", nan}};
    if (stages >= 0) p.emplace_back("STAGES", stages);
    return p;
  };
  std::vector<VariantSet> s = cat({lint_stages(0, 4), {set(P::lint, opt(1, 1, 1), "a6"), set(P::lint, {}, "default", "ELAB")},
                                   {set(P::lint, {{"ASCEND_A6", 1}, {"STAGES", 2}}, "ascend_a6", "ELAB")},
                                   {set(P::drift, {})}, stages(P::drift, 0, 4),
                                   {set(P::drift, {{"ASCEND_A6", 1}, {"STAGES", 2}})},
                                   {set(P::regression, opt(0, 0, 0, 4)), set(P::regression, opt(1, 1, 1, 4)),
                                    set(P::regression, {{"ASCEND_A6", 1}, {"STAGES", 4}})}});
  const ParamList sweep[4] = {opt(1, 0, 0), opt(0, 1, 0), opt(0, 0, 1), opt(1, 1, 0)};
  for (int st = 0; st < 4; ++st) {
    ParamList p = sweep[st];
    p.emplace_back("STAGES", st);
    s.push_back(set(P::sweep, p));
  }
  for (const VariantSet& x : stages(P::synthesis, 0, 4)) s.push_back(x);
  s.push_back(set(P::synthesis, {{"STAGES", 3}, {"ELEM_RNE", 1}, {"CMP_BF16", 1}}));
  return Entry{{"hif4_quantizer",
                {{"STAGES", 3, 0, 4}, {"ELEM_RNE", 0, 0, 1}, {"CMP_BF16", 0, 0, 1}, {"INF_TO_NAN", 0, 0, 1},
                 {"ASCEND_A6", 0, 0, 1}},
                {{"ELEM_RNE", 0, 1}, {"CMP_BF16", 1, 1}, {"INF_TO_NAN", 2, 1}, {"ASCEND_A6", 3, 1}},
                -1,
                0,
                s},
               [](auto& x) {
                 UnitDesc d = describe_quantizer(fmt::Format::hif4, 64, at(x, "ASCEND_A6") != 0);
                 d.stages = at(x, "STAGES");
                 // The options change no width or rank; ASCEND_A6 adds its parts (quantizer_hw.cpp).
                 d.rtl_params = {{"STAGES", d.stages}, {"ASCEND_A6", at(x, "ASCEND_A6")}};
                 return d;
               }};
}

Entry hadamard16_entry() {
  // hadamard16: STAGES only; the cosim main model runs the deepest pipeline, the sweep the others.
  std::vector<VariantSet> s = fp4_sets(5, -1, 5, true, false);
  return Entry{{"hadamard16", {{"STAGES", 2, 0, 5}}, {}, -1, 0, s},
               [](auto& x) { return describe_hadamard16(at(x, "STAGES")); }};
}

Entry sr_quantizer_entry() {
  // sr_quantizer: FMT 0 (NVFP4 E2M1) / 1 (HiF4 S1P2) / 2 (MXFP4 E2M1) elements, SR_BITS = B random
  // bits each (docs/training.md). The regression group runs the three formats at B = 8 (the
  // default), E2M1 at B = 5 (L = 12: groups straddle an operation) and S1P2 at B = 32 (two lanes
  // per word, 9 cores); the sweep one set per other STAGES value (MXFP4 at STAGES 2); synthesis
  // every STAGES at the default and B = 4, 16, S1P2 and MXFP4 (E2M1 with the gates zeroing Inf/NaN
  // lanes; docs/cost.md "sky130 rows of the training blocks").
  auto fb = [](int fmt, int bits, int stages = -1) {
    ParamList p{{"SR_BITS", bits}, {"FMT", fmt}};
    if (stages >= 0) p.emplace_back("STAGES", stages);
    return p;
  };
  std::vector<VariantSet> s = cat({lint_stages(0, 6), {set(P::lint, fb(1, 32), "hif4_b32"), set(P::lint, fb(0, 1), "b1"),
                                                       set(P::lint, fb(2, 5), "mxfp4_b5"),
                                                       set(P::lint, {}, "default", "ELAB")},
                                   {set(P::drift, {})}, stages(P::drift, 0, 6),
                                   {set(P::drift, fb(1, 5, 2)), set(P::drift, fb(2, 8, 3))},
                                   {set(P::regression, fb(0, 8, 6)), set(P::regression, fb(1, 8, 6)),
                                    set(P::regression, fb(0, 5, 6)), set(P::regression, fb(1, 32, 6)),
                                    set(P::regression, fb(2, 8, 6))}});
  const ParamList sweep[6] = {fb(0, 8), fb(1, 3), fb(2, 16), fb(1, 8), fb(0, 1), fb(1, 13)};
  for (int st = 0; st < 6; ++st) {
    ParamList p = sweep[st];
    p.emplace_back("STAGES", st);
    s.push_back(set(P::sweep, p));
  }
  for (const VariantSet& x : stages(P::synthesis, 0, 6)) s.push_back(x);
  for (int b : {4, 16}) s.push_back(set(P::synthesis, {{"STAGES", 4}, {"SR_BITS", b}}));
  for (int f : {1, 2}) s.push_back(set(P::synthesis, {{"STAGES", 4}, {"FMT", f}}));
  return Entry{{"sr_quantizer",
                {{"STAGES", 4, 0, 6}, {"SR_BITS", 8, 1, 32}, {"FMT", 0, 0, 2}},
                {{"SR_BITS", 0, 6}, {"FMT", 6, 2}},
                -1,
                0,
                s},
               [](auto& x) {
                 return describe_sr_quantizer(static_cast<SrElem>(at(x, "FMT")),
                                              static_cast<unsigned>(at(x, "SR_BITS")), at(x, "STAGES"));
               }};
}

Entry transpose_buffer_entry() {
  // transpose_buffer: T x T tiles of W-bit elements, STAGES 0 / 1 (the output rank). The cosim's
  // main model runs the default (T = 16 FP32, STAGES 1), the sweep T = 8 x 16 bits combinational (a
  // beat of at least 65 bits: the harness drives wide ports);
  // lint the range's ends and the synthesis sets; synthesis both STAGES at the default, T = 8 and
  // W = 16 (BF16 elements), each a few minutes of Yosys (the storage is 2 T^2 W flip-flops).
  auto tw = [](int t, int w, int stages = -1) {
    ParamList p{{"T", t}, {"W", w}};
    if (stages >= 0) p.emplace_back("STAGES", stages);
    return p;
  };
  std::vector<VariantSet> s = cat({lint_stages(0, 1),
                                   {set(P::lint, tw(2, 1), "t2_w1"), set(P::lint, tw(4, 16, 0), "t4_w16"),
                                    set(P::lint, tw(8, 32), "t8_w32"), set(P::lint, tw(64, 32), "t64_w32"),
                                    set(P::lint, tw(8, 16), "t8_w16", "SYNTH"), set(P::lint, {}, "default", "ELAB")},
                                   {set(P::drift, {})}, stages(P::drift, 0, 1),
                                   {set(P::drift, tw(4, 16, 0)), set(P::drift, tw(2, 8, 1))},
                                   {set(P::regression, tw(16, 32, 1))}, {set(P::sweep, tw(8, 16, 0))},
                                   stages(P::synthesis, 0, 1),
                                   {set(P::synthesis, tw(8, 32)), set(P::synthesis, tw(16, 16))}});
  return Entry{{"transpose_buffer", {{"T", 16, 2, 64}, {"W", 32, 1, 32}, {"STAGES", 1, 0, 1}}, {{"T", 0, 7}, {"W", 7, 6}}, -1, 0, s},
               [](auto& x) { return describe_transpose_buffer(at(x, "T"), at(x, "W"), at(x, "STAGES")); }};
}

const std::vector<Entry>& entries() {
  static const std::vector<Entry> e = [] {
    std::vector<Entry> v = fp4_entries();
    for (Entry (*f)() : {mxfp8_dot32_entry, hif8_dot_entry, bf16_dot64_entry, fp32_acc_entry, sparse_residual_add_entry,
                         hif4_quantizer_entry, hadamard16_entry, sr_quantizer_entry, transpose_buffer_entry})
      v.push_back(f());
    return v;
  }();
  return e;
}

std::string names() {
  std::string s;
  for (const Entry& e : entries()) s += (s.empty() ? "" : ", ") + e.unit.name;
  return s;
}

}  // namespace

const char* purpose_name(Purpose p) {
  switch (p) {
    case Purpose::lint: return "lint";
    case Purpose::drift: return "drift";
    case Purpose::regression: return "regression";
    case Purpose::sweep: return "sweep";
    case Purpose::synthesis: return "synthesis";
    case Purpose::validation: return "validation";
    case Purpose::calibration: return "calibration";
  }
  return "?";
}

const std::vector<Purpose>& all_purposes() {
  static const std::vector<Purpose> v = {Purpose::lint,      Purpose::drift,      Purpose::regression, Purpose::sweep,
                                         Purpose::synthesis, Purpose::validation, Purpose::calibration};
  return v;
}

std::vector<VariantSet> CatalogUnit::of(Purpose p) const {
  std::vector<VariantSet> v;
  for (const VariantSet& s : sets)
    if (s.purpose == p) v.push_back(s);
  return v;
}

const ParamRange* CatalogUnit::param(const std::string& n) const {
  for (const ParamRange& p : params)
    if (p.name == n) return &p;
  return nullptr;
}

const std::vector<CatalogUnit>& unit_catalog() {
  static const std::vector<CatalogUnit> v = [] {
    std::vector<CatalogUnit> u;
    for (const Entry& e : entries()) u.push_back(e.unit);
    return u;
  }();
  return v;
}

const CatalogUnit& catalog_unit(const std::string& name) {
  for (const CatalogUnit& u : unit_catalog())
    if (u.name == name) return u;
  throw Error("unit", name, "unknown unit (one of " + names() + ")");
}

// The committed tables (configs/cost/synth.csv, configs/cost/sky130/*.csv) keep their rows in this
// order: fp32_acc was the second unit synthesised.
const std::vector<std::string>& synthesis_order() {
  static const std::vector<std::string> v = {"hif4_dot64", "fp32_acc",   "nvfp4_dot64",         "mxfp4_dot64",   "mxfp8_dot32",
                                             "hif8_dot",   "bf16_dot64", "sparse_residual_add", "hif4_quantizer",
                                             "hadamard16", "sr_quantizer", "transpose_buffer"};
  return v;
}

std::string param_text(const ParamList& p) {
  std::string s;
  for (const auto& [k, v] : p) s += (s.empty() ? "" : ";") + k + "=" + std::to_string(v);
  return s.empty() ? "-" : s;
}

ParamList parse_param_text(const std::string& text, const std::string& where) {
  ParamList p;
  if (text.empty() || text == "-") return p;
  size_t at = 0;
  while (at <= text.size()) {
    const size_t end = std::min(text.find(';', at), text.size());
    const std::string kv = text.substr(at, end - at);
    const size_t eq = kv.find('=');
    if (eq == 0 || eq == std::string::npos || eq + 1 == kv.size() ||
        kv.find_first_not_of("-0123456789", eq + 1) != std::string::npos)
      throw Error(where, text, "'" + kv + "' is not NAME=INTEGER");
    p.emplace_back(kv.substr(0, eq), std::stoi(kv.substr(eq + 1)));
    at = end + 1;
  }
  return p;
}

int param_value(const CatalogUnit& u, const ParamList& p, const std::string& name) {
  for (const auto& [k, v] : p)
    if (k == name) return v;
  const ParamRange* r = u.param(name);
  if (!r) throw Error(u.name, name, "no such parameter");
  return r->dflt;
}

std::optional<ProxyConfig> proxy_config(const std::string& unit, const ParamList& params) {
  const CatalogUnit& u = catalog_unit(unit);
  auto v = [&](const char* n) { return param_value(u, params, n); };
  const std::string units = "configs/units/";
  auto depth = [&] { return "pe.pipeline_depth=" + std::to_string(v("STAGES") + 1); };
  if (unit == "hif4_dot64" || unit == "nvfp4_dot64" || unit == "mxfp4_dot64")
    return ProxyConfig{units + unit.substr(0, unit.find('_')) + "-32x32.yaml", {depth()}, "dot"};
  if (unit == "mxfp8_dot32")
    return ProxyConfig{units + "hif4-32x32.yaml", {std::string("pe.format=") + (v("E5M2") ? "mxfp8-e5m2" : "mxfp8-e4m3"), depth()},
                       "dot"};
  if (unit == "hif8_dot" || unit == "bf16_dot64") {
    // hif8_dot W=0 (and W=82, the exact width: a window that never drops a bit) is the exact unit.
    const bool exact = unit == "hif8_dot" && (v("W") == 0 || v("W") == kHif8ExactWidth);
    std::vector<std::string> sets = {
        exact ? "pe.align_width=0" : "pe.align_width=" + std::to_string(v("W")),
        exact ? "pe.align_policy=default" : std::string("pe.align_policy=") + (v("STICKY") ? "sticky" : "trunc"), depth()};
    if (unit == "hif8_dot") sets.push_back("pe.hif8_lanes=" + std::to_string(v("N")));
    return ProxyConfig{units + unit.substr(0, unit.find('_')) + "-32x32.yaml", sets, "dot"};
  }
  if (unit == "fp32_acc") {
    const int m = v("MANT_BITS"), rz = v("ROUND_RZ");
    const std::string acc = m == 23 && !rz ? "fp32" : "fp32-m" + std::to_string(m) + (rz ? "-rz" : "-rne");
    return ProxyConfig{units + "hif4-32x32.yaml", {"pe.accumulator=" + acc}, "acc_add"};
  }
  return std::nullopt;
}

UnitDesc unit_by_name(const std::string& name, const ParamList& params) {
  for (const Entry& e : entries()) {
    if (e.unit.name != name) continue;
    std::map<std::string, int> v;
    for (const ParamRange& p : e.unit.params) v[p.name] = p.dflt;
    for (const auto& [k, x] : params) {
      const ParamRange* spec = e.unit.param(k);
      if (!spec) {
        std::string known;
        for (const ParamRange& p : e.unit.params) known += (known.empty() ? "" : ", ") + p.name;
        throw Error(name, k, "unknown parameter (this unit has " + known + ")");
      }
      if (x < spec->lo || x > spec->hi)
        throw Error(name, k, "must be in " + std::to_string(spec->lo) + ".." + std::to_string(spec->hi) + ", got " + std::to_string(x));
      v[k] = x;
    }
    return e.build(v);
  }
  throw Error("--unit", name, "unknown unit (one of " + names() + ")");
}

std::vector<RtlParam> rtl_defaults(const std::string& name) {
  std::vector<RtlParam> v;
  for (const Entry& e : entries())
    if (e.unit.name == name)
      for (const ParamRange& p : e.unit.params) v.push_back({p.name, p.dflt});
  return v;
}

std::vector<NamedUnit> all_units() {
  std::vector<NamedUnit> v;
  for (const Entry& e : entries()) v.push_back({e.unit.name, unit_by_name(e.unit.name, {})});
  return v;
}

}  // namespace hifsim::dp::hw
