#include "eval/accuracy_report.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>
#include <tuple>

#include "io/trace.hpp"
#include "util/json.hpp"
#include "util/text.hpp"

namespace hifsim::eval {
namespace {
}  // namespace

AccuracyFiles accuracy_tables(const std::vector<OpAccuracy>& rows, const std::string& title) {
  struct Agg {
    ErrorSums sums;
    double under = 0;
    int n = 0;
  };
  std::map<std::tuple<std::string, std::string, int64_t>, Agg> layers;
  std::map<std::pair<std::string, std::string>, Agg> totals;
  std::map<std::tuple<std::string, std::string, std::string>, Agg> kinds;  // (format, correction, kind)
  std::vector<std::pair<std::string, std::string>> order;
  for (const auto& r : rows) {
    auto& l = layers[{r.format, r.correction, r.layer}];
    l.sums.add(r.sums);
    l.under += r.underflow_a;
    ++l.n;
    const auto key = std::make_pair(r.format, r.correction);
    if (!totals.count(key)) order.push_back(key);
    auto& k = kinds[{r.format, r.correction, r.kind}];
    k.sums.add(r.sums);
    k.under += r.underflow_a;
    ++k.n;
    auto& t = totals[key];
    t.sums.add(r.sums);
    t.under += r.underflow_a;
    ++t.n;
  }
  AccuracyFiles f;
  std::ostringstream ops, lay, sum, md;
  // Figures over NaN/Inf outputs are "invalid" in every table (never a number), with the counts.
  auto fig = [](double v, const dp::GemmError& e, int prec) { return dp::metric_text(v, e, prec); };
  ops << "format,correction,layer,op_name,op,M,N,K,batch,sqnr_db,rel_frobenius,cosine,max_abs_err,max_rel_err,"
         "mean_rel_err,underflow_a,underflow_b,arc_channels,seconds,valid,nonfinite_outputs\n";
  for (const auto& r : rows) {
    const dp::GemmError& e = r.err;
    ops << r.format << "," << r.correction << "," << r.layer << "," << r.op_name << "," << r.op << "," << r.M << ","
        << r.N << "," << r.K << "," << r.batch << "," << fig(e.sqnr_db, e, 6) << "," << fig(e.rel_frobenius, e, 6) << ","
        << fig(e.cosine, e, 9) << "," << fig(e.max_abs_err, e, 6) << "," << fig(e.max_rel_err, e, 6) << ","
        << fig(e.mean_rel_err, e, 6) << "," << fmt_g(r.underflow_a, 6) << "," << fmt_g(r.underflow_b, 6) << "," << r.arc_channels
        << "," << fmt_g(r.seconds, 4) << "," << (e.valid() ? "true" : "false") << "," << e.nonfinite_either << "\n";
  }
  lay << "format,correction,layer,sqnr_db,rel_frobenius,cosine,max_abs_err,mean_underflow_a,valid,nonfinite_outputs\n";
  for (const auto& [k, a] : layers) {
    const auto e = a.sums.metrics();
    lay << std::get<0>(k) << "," << std::get<1>(k) << "," << std::get<2>(k) << "," << fig(e.sqnr_db, e, 6) << ","
        << fig(e.rel_frobenius, e, 6) << "," << fig(e.cosine, e, 9) << "," << fig(e.max_abs_err, e, 6) << ","
        << fmt_g(a.under / a.n, 6) << "," << (e.valid() ? "true" : "false") << "," << e.nonfinite_either << "\n";
  }
  sum << "format,correction,sqnr_db,rel_frobenius,cosine,max_abs_err,mean_underflow_a,ops,valid,nonfinite_outputs\n";
  md << title << "\n\n| format | correction | SQNR (dB) | rel. Frobenius | cosine | underflow |\n|---|---|---|---|---|---|\n";
  for (const auto& k : order) {
    const auto& a = totals[k];
    const auto e = a.sums.metrics();
    sum << k.first << "," << k.second << "," << fig(e.sqnr_db, e, 6) << "," << fig(e.rel_frobenius, e, 6) << ","
        << fig(e.cosine, e, 9) << "," << fig(e.max_abs_err, e, 6) << "," << fmt_g(a.under / a.n, 6) << "," << a.n << ","
        << (e.valid() ? "true" : "false") << "," << e.nonfinite_either << "\n";
    char line[512];
    if (e.valid())
      std::snprintf(line, sizeof line, "| %s | %s | %.2f | %.4g | %.6f | %.2f%% |\n", k.first.c_str(), k.second.c_str(),
                    e.sqnr_db, e.rel_frobenius, e.cosine, 100 * a.under / a.n);
    else
      std::snprintf(line, sizeof line, "| %s | %s | invalid: %s | invalid | invalid | %.2f%% |\n", k.first.c_str(),
                    k.second.c_str(), e.invalid_reason().c_str(), 100 * a.under / a.n);
    md << line;
  }
  JsonWriter w;
  w.begin_object().kv("title", title);
  w.key("ops").begin_array();
  for (const auto& r : rows) {
    w.begin_object()
        .kv("format", r.format)
        .kv("correction", r.correction)
        .kv("layer", static_cast<int64_t>(r.layer))
        .kv("op_name", r.op_name)
        .kv("op", r.op)
        .kv("M", r.M)
        .kv("N", r.N)
        .kv("K", r.K)
        .kv("batch", r.batch)
        .kv("sqnr_db", r.err.sqnr_db)
        .kv("rel_frobenius", r.err.rel_frobenius)
        .kv("cosine_similarity", r.err.cosine)
        .kv("max_abs_err", r.err.max_abs_err)
        .kv("max_rel_err", r.err.max_rel_err)
        .kv("mean_rel_err", r.err.mean_rel_err)
        .kv("valid", r.err.valid())
        .kv("nonfinite_outputs", static_cast<uint64_t>(r.err.nonfinite))
        .kv("nonfinite_reference", r.err.nonfinite_reference)
        .kv("underflow_a", r.underflow_a)
        .kv("underflow_b", r.underflow_b)
        .kv("arc_channels", r.arc_channels)
        .end_object();
  }
  w.end_array().end_object();
  // Per op kind, in the kinds' report order (io::trace_op_kinds), formats and corrections as run.
  std::ostringstream kcsv, kmd;
  kcsv << "format,correction,kind,sqnr_db,rel_frobenius,cosine,max_abs_err,mean_underflow_a,ops,valid,nonfinite_outputs\n";
  std::vector<std::string> present;
  for (const std::string& kind : io::trace_op_kinds())
    for (const auto& [key, a] : kinds)
      if (std::get<2>(key) == kind && std::find(present.begin(), present.end(), kind) == present.end()) present.push_back(kind);
  kmd << "SQNR (dB) per op kind:\n\n| format | correction |";
  for (const std::string& kind : present) kmd << " " << kind << " |";
  kmd << "\n|---|---|";
  for (size_t i = 0; i < present.size(); ++i) kmd << "---|";
  kmd << "\n";
  for (const auto& k : order) {
    kmd << "| " << k.first << " | " << k.second << " |";
    for (const std::string& kind : present) {
      const auto it = kinds.find({k.first, k.second, kind});
      if (it == kinds.end()) {
        kmd << " - |";
        continue;
      }
      const Agg& a = it->second;
      const auto e = a.sums.metrics();
      kcsv << k.first << "," << k.second << "," << kind << "," << fig(e.sqnr_db, e, 6) << "," << fig(e.rel_frobenius, e, 6)
           << "," << fig(e.cosine, e, 9) << "," << fig(e.max_abs_err, e, 6) << "," << fmt_g(a.under / a.n, 6) << "," << a.n
           << "," << (e.valid() ? "true" : "false") << "," << e.nonfinite + e.nonfinite_reference << "\n";
      char cell[64];
      std::snprintf(cell, sizeof cell, " %.2f |", e.sqnr_db);
      kmd << (e.valid() ? std::string(cell) : std::string(" invalid |"));
    }
    kmd << "\n";
  }
  f.kinds_csv = kcsv.str();
  const bool training = std::any_of(present.begin(), present.end(), [](const std::string& k) {
    return k != "fprop" && k != "attn_fwd";
  });
  if (training) f.kinds_markdown = kmd.str();
  f.ops_csv = ops.str();
  f.layers_csv = lay.str();
  f.summary_csv = sum.str();
  f.json = w.str() + "\n";
  f.markdown = md.str() + (f.kinds_markdown.empty() ? "" : "\n" + f.kinds_markdown);
  return f;
}

std::vector<std::pair<std::string, std::string>> accuracy_outputs(const AccuracyFiles& f, const std::string& dir,
                                                                  const std::string& prefix) {
  return {{dir + "/" + prefix + "ops.csv", f.ops_csv},
          {dir + "/" + prefix + "layers.csv", f.layers_csv},
          {dir + "/" + prefix + "summary.csv", f.summary_csv},
          {dir + "/" + (prefix.empty() ? "accuracy.json" : prefix + "results.json"), f.json},
          {dir + "/" + prefix + "summary.md", f.markdown}};
}

}  // namespace hifsim::eval
