#include "cost/area.hpp"

#include <cmath>
#include <functional>

#include "cost/flow_csv.hpp"
#include "io/input_file.hpp"
#include "util/error.hpp"

namespace hifsim::cost {

namespace {

int ceil_log2(int n) {
  int l = 0;
  while ((1 << l) < n) ++l;
  return l;
}

[[noreturn]] void bad(Cls cls, int p1, int p2, const char* why) {
  throw Error("cost area", cls_name(cls),
              std::string(why) + " (p1 = " + std::to_string(p1) + ", p2 = " + std::to_string(p2) + ")");
}

}  // namespace

double component_ge(const AreaCoeffs& c, Cls cls, int p1, int p2) {
  switch (cls) {
    case Cls::mul:
      if (p1 < 1 || p2 < 1) bad(cls, p1, p2, "widths must be >= 1");
      if (p1 == 1 || p2 == 1) return 1.25 * p1 * p2;  // a row of AND gates (1.25 GE: AND2 = 6 transistors / 4)
      return c.mul_ab * p1 * p2 - c.mul_lin * (p1 + p2) + c.mul_c;
    case Cls::smul:
      if (p1 < 2) bad(cls, p1, p2, "magnitude width must be >= 2");
      return c.smul_sq * p1 * p1 - c.smul_c;
    case Cls::add:
      if (p1 < 2) bad(cls, p1, p2, "width must be >= 2");
      return c.add_w * p1 - c.add_c;
    case Cls::tree: {
      if (p1 < 2 || p2 < 1) bad(cls, p1, p2, "needs >= 2 terms of >= 1 bit");
      const int L = ceil_log2(p1);
      return c.tree_nw * (p1 - 2) * p2 + c.tree_nl * (p1 - 2) * L + c.tree_wo * (p2 + L);
    }
    case Cls::shift:
      if (p1 < 1 || p2 < 1 || p2 > 12) bad(cls, p1, p2, "needs w >= 1 and 1..12 levels");
      return c.shift_sw * p2 * p1 + c.shift_s2 * p2 * static_cast<double>(1 << p2);
    case Cls::norm:
      if (p1 < 2) bad(cls, p1, p2, "width must be >= 2");
      return c.norm_wl * p1 * std::log2(static_cast<double>(p1)) + c.norm_w2 * p1 * p1;
    case Cls::mux:
      if (p1 < 1 || p2 < 2) bad(cls, p1, p2, "needs w >= 1 and >= 2 inputs");
      return c.mux_w * p1 * (p2 - 1);
    case Cls::max:
      if (p1 < 2 || p2 < 1) bad(cls, p1, p2, "needs >= 2 values of >= 1 bit");
      return c.max_w * (p1 - 1) * p2;
    case Cls::reg:
      if (p1 < 0) bad(cls, p1, p2, "bits must be >= 0");
      return c.ff_ge * p1;
    case Cls::fpadd:
      if (p1 < 1 || p1 > 23 || p2 < 0 || p2 > 1) bad(cls, p1, p2, "needs 1..23 mantissa bits and rz 0/1");
      return c.acc_c + c.acc_m * p1 - c.acc_rz * p2;
    case Cls::dec:
      if (p1 == 0) return c.dec_e2m1;
      if (p1 == 1) return c.dec_hif8;
      bad(cls, p1, p2, "decoder kind must be 0 (E2M1) or 1 (HiF8)");
  }
  bad(cls, p1, p2, "unknown class");
}

// ---------------------------------------------------------------------------------------------

std::vector<SynthRow> read_synth_csv(const std::string& path) {
  if (const std::string why = io::not_regular_reason(path); !why.empty())
    throw Error(path, "", "cannot open the synthesis CSV (scripts/cost_synth.sh writes it): " + why);
  // A regular file of sane size (the committed one has ~100 rows): never a FIFO or a device.
  const FlowCsv c = read_flow_csv(
      path, {"module", "parameters", "cells", "transistors", "flip_flops", "transistors_exclude_ffs", "yosys_version", "seconds"},
      true, 16u << 20, "a synthesis table is never that large");
  std::vector<SynthRow> rows;
  for (const FlowCsvRow& x : c.rows) {
    SynthRow r;
    r.module = x.text("module");
    r.parameters = x.text("parameters");
    for (const auto& [name, value] : x.params("parameters")) r.params[name] = value;
    x.count("cells");    // not used, but a row whose cell count is not a number is not a Yosys row
    r.transistors = x.number("transistors", false);
    r.flip_flops = x.count("flip_flops");
    r.excl_ffs = x.yes_no("transistors_exclude_ffs");
    r.yosys = x.text("yosys_version");
    x.number("seconds", false);  // likewise
    rows.push_back(std::move(r));
  }
  return rows;
}

namespace {

using Feat = std::function<double(const std::map<std::string, int>&)>;

int P(const std::map<std::string, int>& m, const char* k) {
  auto it = m.find(k);
  if (it == m.end()) throw Error("cost fit", k, "probe row lacks this parameter");
  return it->second;
}

// Solves min sum w_i (X_i c - y_i)^2 by the normal equations (k <= 3 unknowns).
std::vector<double> lsq_weighted(const std::vector<std::vector<double>>& X, const std::vector<double>& y,
                                 const std::vector<double>& wt) {
  const size_t k = X.front().size();
  std::vector<std::vector<double>> A(k, std::vector<double>(k + 1, 0.0));
  for (size_t i = 0; i < X.size(); ++i) {
    const double w = wt[i];
    for (size_t a = 0; a < k; ++a) {
      for (size_t b = 0; b < k; ++b) A[a][b] += w * X[i][a] * X[i][b];
      A[a][k] += w * X[i][a] * y[i];
    }
  }
  for (size_t c = 0; c < k; ++c) {  // Gaussian elimination with partial pivoting
    size_t piv = c;
    for (size_t r = c + 1; r < k; ++r)
      if (std::fabs(A[r][c]) > std::fabs(A[piv][c])) piv = r;
    std::swap(A[c], A[piv]);
    if (std::fabs(A[c][c]) < 1e-300) throw Error("cost fit", "", "singular least-squares system (probe rows do not vary the parameters)");
    for (size_t r = 0; r < k; ++r) {
      if (r == c) continue;
      const double f = A[r][c] / A[c][c];
      for (size_t j = c; j <= k; ++j) A[r][j] -= f * A[c][j];
    }
  }
  std::vector<double> x(k);
  for (size_t c = 0; c < k; ++c) x[c] = A[c][k] / A[c][c];
  return x;
}

}  // namespace

FitResult fit_area(const std::vector<SynthRow>& rows, double transistors_per_ge, double ff_ge) {
  if (!(transistors_per_ge > 0)) throw Error("cost fit", "transistors_per_ge", "must be > 0");
  FitResult res;
  AreaCoeffs& c = res.coeffs;
  c.ff_ge = ff_ge;

  struct Family {
    const char* name;
    const char* module;
    std::vector<Feat> feats;
    std::function<void(const std::vector<double>&)> store;
    std::function<double(const std::map<std::string, int>&)> offset;  // known part (smul)
  };
  auto L = [](int n) { return static_cast<double>(ceil_log2(n)); };
  std::vector<Family> fams = {
      {"mul", "cost_probe_mul",
       {[](auto& p) { return double(P(p, "WA")) * P(p, "WB"); }, [](auto& p) { return double(P(p, "WA") + P(p, "WB")); },
        [](auto&) { return 1.0; }},
       [&](auto& x) { c.mul_ab = x[0], c.mul_lin = -x[1], c.mul_c = x[2]; }, nullptr},
      {"smul", "cost_probe_smmul", {[](auto& p) { return double(P(p, "W")) * P(p, "W"); }, [](auto&) { return 1.0; }},
       [&](auto& x) { c.smul_sq = x[0], c.smul_c = -x[1]; }, nullptr},
      {"add", "cost_probe_add", {[](auto& p) { return double(P(p, "W")); }, [](auto&) { return 1.0; }},
       [&](auto& x) { c.add_w = x[0], c.add_c = -x[1]; }, nullptr},
      {"tree", "cost_probe_tree",
       {[](auto& p) { return double(P(p, "N") - 2) * P(p, "W"); },
        [L](auto& p) { return double(P(p, "N") - 2) * L(P(p, "N")); },
        [L](auto& p) { return double(P(p, "W")) + L(P(p, "N")); }},
       [&](auto& x) { c.tree_nw = x[0], c.tree_nl = x[1], c.tree_wo = x[2]; }, nullptr},
      {"shift", "cost_probe_shift",
       {[](auto& p) { return double(P(p, "S")) * P(p, "W"); },
        [](auto& p) { return double(P(p, "S")) * static_cast<double>(1 << P(p, "S")); }},
       [&](auto& x) { c.shift_sw = x[0], c.shift_s2 = x[1]; }, nullptr},
      {"norm", "cost_probe_norm",
       {[](auto& p) { return P(p, "W") * std::log2(double(P(p, "W"))); }, [](auto& p) { return double(P(p, "W")) * P(p, "W"); }},
       [&](auto& x) { c.norm_wl = x[0], c.norm_w2 = x[1]; }, nullptr},
      {"mux", "cost_probe_mux", {[](auto& p) { return double(P(p, "W")) * (P(p, "N") - 1); }}, [&](auto& x) { c.mux_w = x[0]; },
       nullptr},
      {"max", "cost_probe_max", {[](auto& p) { return double(P(p, "N") - 1) * P(p, "W"); }}, [&](auto& x) { c.max_w = x[0]; },
       nullptr},
      {"dec_e2m1", "cost_probe_dec_e2m1", {[](auto&) { return 1.0; }}, [&](auto& x) { c.dec_e2m1 = x[0]; }, nullptr},
      {"dec_hif8", "cost_probe_dec_hif8", {[](auto&) { return 1.0; }}, [&](auto& x) { c.dec_hif8 = x[0]; }, nullptr},
      {"fpadd", "fp32_acc",
       {[](auto&) { return 1.0; }, [](auto& p) { return double(P(p, "MANT_BITS")); }, [](auto& p) { return double(P(p, "ROUND_RZ")); }},
       [&](auto& x) { c.acc_c = x[0], c.acc_m = x[1], c.acc_rz = -x[2]; }, nullptr},
  };
  double sum2 = 0;
  size_t n = 0;
  for (auto& f : fams) {
    std::vector<const SynthRow*> rs;
    for (const auto& r : rows)
      if (r.module == f.module) rs.push_back(&r);
    const size_t need = f.feats.size() == 1 && f.name[0] == 'd' ? 1 : f.feats.size() + 1;  // a decoder: one row
    if (rs.size() < need)
      throw Error("cost fit", f.module,
                  "needs at least " + std::to_string(need) + " synthesis rows, found " + std::to_string(rs.size()) +
                      " (run scripts/cost_synth.sh)");
    std::vector<std::vector<double>> X;
    std::vector<double> y, off;
    for (const SynthRow* r : rs) {
      std::vector<double> row;
      for (auto& ft : f.feats) row.push_back(ft(r->params));
      X.push_back(row);
      const double o = f.offset ? f.offset(r->params) : 0.0;
      off.push_back(o);
      y.push_back(r->transistors / transistors_per_ge - o);
    }
    // Minimise the error relative to the whole component (offset included).
    std::vector<double> ytot(y.size()), w(y.size());
    for (size_t i = 0; i < y.size(); ++i) {
      ytot[i] = y[i] + off[i];
      if (!(ytot[i] > 0)) throw Error("cost fit", f.module + std::string(" ") + rs[i]->parameters, "non-positive transistor count");
      w[i] = 1.0 / (ytot[i] * ytot[i]);
    }
    const std::vector<double> x = lsq_weighted(X, y, w);
    f.store(x);
    double fmax = 0;
    for (size_t i = 0; i < rs.size(); ++i) {
      FitPoint pt;
      pt.family = f.name;
      pt.module = rs[i]->module;
      pt.parameters = rs[i]->parameters;
      pt.measured_ge = ytot[i];
      double pred = off[i];
      for (size_t j = 0; j < x.size(); ++j) pred += x[j] * X[i][j];
      pt.predicted_ge = pred;
      fmax = std::max(fmax, std::fabs(pt.rel()));
      sum2 += pt.rel() * pt.rel();
      ++n;
      res.points.push_back(pt);
    }
    res.family_max_abs_rel[f.name] = fmax;
    res.max_abs_rel = std::max(res.max_abs_rel, fmax);
  }
  res.rms_rel = n ? std::sqrt(sum2 / static_cast<double>(n)) : 0.0;
  return res;
}

}  // namespace hifsim::cost
