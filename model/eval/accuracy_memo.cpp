#include "eval/accuracy_memo.hpp"

#include "eval/trace_accuracy.hpp"
#include "eval/workload.hpp"
#include "util/error.hpp"

namespace hifsim::eval {
namespace {

// The correction a unit config's residual path applies (none without one).
Correction unit_correction(const cfg::UnitConfig& u) {
  Correction c = Correction::parse("none");
  if (u.residual) {
    c = Correction::parse(dp::residual_name(u.residual_spec.kind));
    c.residual.mode = u.residual_spec.mode;
  }
  return c;
}

}  // namespace

AccuracyMemo::AccuracyMemo(const std::string& trace, const std::vector<std::string>& ops, const std::string& where)
    : trace_(io::read_trace(trace)) {
  if (trace_.shape_only()) throw Error(where, "accuracy.trace", "'" + trace + "' is shape-only: accuracy needs tensors");
  if (!ops.empty() && keep_ops_of_kind(trace_, ops) == 0)
    throw Error(where, "accuracy.ops", "no op of the accuracy trace matches");
}

std::string AccuracyMemo::arithmetic_key(const cfg::UnitConfig& u) {
  const dp::GemmSpec gs = u.gemm_spec(1);
  const Correction c = unit_correction(u);
  const dp::AlignSpec a = dp::effective_align(gs);
  return u.format_name() + "|" + gs.acc.name() + "|" + std::to_string(a.width) + "|" +
         std::to_string(static_cast<int>(a.policy)) + "|" + std::to_string(gs.hif8_lanes) + "|" + c.name + "|" +
         std::to_string(static_cast<int>(c.residual.mode));
}

AccuracyFigures AccuracyMemo::compute(const cfg::UnitConfig& u) const {
  AccuracyOptions o;
  o.formats = {u.format};
  o.corrections = {unit_correction(u)};
  o.base = u.gemm_spec(1);
  ErrorSums sums;
  double under = 0;
  const auto rows = evaluate_trace(trace_, o);
  for (const auto& r : rows) {
    sums.add(r.sums);
    under += r.underflow_a;
  }
  const auto e = sums.metrics();
  return {e.sqnr_db, e.cosine, e.rel_frobenius, rows.empty() ? 0 : under / rows.size(), e.valid(), e.nonfinite,
          e.nonfinite_reference};
}

AccuracyFigures AccuracyMemo::get(const cfg::UnitConfig& u) {
  const std::string key = arithmetic_key(u);
  std::shared_future<AccuracyFigures> f;
  std::optional<std::promise<AccuracyFigures>> mine;
  {
    std::lock_guard<std::mutex> lk(mu_);
    auto it = memo_.find(key);
    if (it == memo_.end()) {
      mine.emplace();
      f = mine->get_future().share();
      memo_[key] = f;
    } else {
      f = it->second;
    }
  }
  if (mine) {
    try {
      mine->set_value(compute(u));
    } catch (...) {
      mine->set_exception(std::current_exception());
    }
  }
  return f.get();
}

}  // namespace hifsim::eval
