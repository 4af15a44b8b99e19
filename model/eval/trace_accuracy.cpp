#include "eval/trace_accuracy.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <mutex>

#include "gemm/arc.hpp"
#include "gemm/residual_gemm.hpp"
#include "train/attention_gemms.hpp"
#include "train/linear_gemms.hpp"
#include "util/error.hpp"
#include "util/parallel.hpp"

namespace hifsim::eval {

Correction Correction::parse(const std::string& s) {
  Correction c;
  if (s.rfind("arc:", 0) == 0) {
    const std::string v = s.substr(4);
    if (v == "auto") {
      c.arc = -1;
    } else {
      char* end = nullptr;
      const long S = std::strtol(v.c_str(), &end, 10);
      if (v.empty() || *end != '\0' || S < 0) throw Error("correction", s, "expected arc:<channels> or arc:auto");
      c.arc = S;
    }
    c.name = "arc-" + v;
    return c;
  }
  c.residual.kind = dp::ResidualSpec::parse_kind(s);
  c.name = c.residual.kind == dp::ResidualKind::none ? "none" : std::string("resq-") + dp::residual_name(c.residual.kind);
  return c;
}

double underflow_fraction(fmt::Format f, const std::vector<float>& x, size_t rows, size_t cols,
                          const fmt::QuantOptions& q) {
  std::vector<float> y(x.size());
  fmt::quantize_dequantize(f, x.data(), y.data(), rows, cols, q);
  uint64_t nz = 0, under = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    if (x[i] == 0.0f) continue;
    ++nz;
    under += y[i] == 0.0f;
  }
  return nz ? static_cast<double>(under) / static_cast<double>(nz) : 0.0;
}

namespace {

// A result row naming the op, before any figure.
OpAccuracy op_row(const io::TraceOp& op, std::string format, std::string correction) {
  OpAccuracy r;
  r.op_name = op.name;
  r.op = op.op;
  r.kind = op.kind;
  r.layer = op.layer;
  r.format = std::move(format);
  r.correction = std::move(correction);
  r.M = op.M;
  r.N = op.N;
  r.K = op.K;
  r.batch = op.batch;
  return r;
}

// Adds batch element bi's output C to r's error sums against the trace's c_ref (else the FP64
// GEMM of the unquantized operands).
void add_errors(OpAccuracy& r, const io::TraceOp& op, uint64_t bi, const std::vector<float>& C, const io::Operand& a,
                const io::Operand& b, unsigned threads, OperandCache& cache) {
  if (op.c_ref) {
    r.sums.add(C.data(), cache.get(op, "c_ref", bi).data.data(), C.size());
  } else {
    const std::vector<double> ref = dp::gemm_fp64(a.data.data(), a.rows, a.cols, b.data.data(), b.rows, threads);
    std::vector<float> rf(ref.begin(), ref.end());
    r.sums.add(C.data(), rf.data(), C.size());
  }
}

// One op in one format and correction (every batch element), operands from the cache.
OpAccuracy evaluate_job(const io::Trace& t, const io::TraceOp& op, fmt::Format f, const Correction& c,
                        const dp::GemmSpec& s, OperandCache& cache) {
  const auto t0 = std::chrono::steady_clock::now();
  OpAccuracy r = op_row(op, fmt::format_info(f).name, c.name);
  double ua = 0, ub = 0;
  for (uint64_t bi = 0; bi < op.batch; ++bi) {
    const io::Operand& a = cache.get(op, "a", bi);
    const io::Operand& b = cache.get(op, "b", bi);
    fmt::check_representable(f, a.data.data(), a.rows, a.cols, t.manifest + ": " + op.name + ".a");
    fmt::check_representable(f, b.data.data(), b.rows, b.cols, t.manifest + ": " + op.name + ".b");
    std::vector<float> C;
    if (c.arc != -2) {
      const dp::ArcPlan p = dp::arc_plan(a.data.data(), a.rows, a.cols, c.arc, f);
      r.arc_channels = p.S;
      C = dp::gemm_arc(a.data.data(), a.rows, a.cols, b.data.data(), b.rows, s, p);
    } else {
      C = dp::gemm_with_residual(a.data.data(), a.rows, a.cols, b.data.data(), b.rows, s, c.residual);
    }
    add_errors(r, op, bi, C, a, b, s.threads, cache);
    ua += underflow_fraction(f, a.data, a.rows, a.cols, s.quant);
    ub += underflow_fraction(f, b.data, b.rows, b.cols, s.quant);
  }
  r.underflow_a = ua / static_cast<double>(op.batch);
  r.underflow_b = ub / static_cast<double>(op.batch);
  r.err = r.sums.metrics();
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace

std::string train_layer_name(const io::TraceOp& op) {
  static const std::pair<const char*, const char*> names[] = {
      {"q_proj", "wq"},         {"k_proj", "wk"},     {"v_proj", "wv"},        {"o_proj", "wo"},
      {"gate_proj", "w_gate"}, {"up_proj", "w_up"}, {"down_proj", "w_down"}};
  if (op.op == "lm_head" || op.op == "classifier") return "classifier";
  for (const auto& [hf, ours] : names)
    if (op.op == hf) return "layers." + std::to_string(op.layer) + "." + ours;
  return "layers." + std::to_string(op.layer) + "." + op.op;
}

namespace {

// One op under a training recipe: the GEMM the trainer would run for this op's kind and layer.
OpAccuracy evaluate_recipe_job(const io::Trace& t, size_t op_index, const train::Recipe& recipe, uint64_t seed,
                               unsigned threads, OperandCache& cache) {
  const io::TraceOp& op = t.ops[op_index];
  const auto t0 = std::chrono::steady_clock::now();
  OpAccuracy r = op_row(op, "recipe:" + recipe.name, "none");
  const std::optional<train::AttentionGemm> attn = train::attention_gemm_from_op(op.op);
  std::optional<train::GemmKind> kind;
  for (train::GemmKind k : train::kGemmKinds)
    if (op.kind == train::gemm_kind_name(k)) kind = k;
  if (!attn && !kind)
    throw Error(t.manifest, op.name + ".kind", "'" + op.kind + "' has no rule in a training recipe");
  const std::string layer = train_layer_name(op);
  // The element format the op's operands are quantized in, for the underflow figure.
  std::optional<fmt::Format> f;
  if (attn) {
    f = train::attention_format(recipe, *attn);
  } else {
    f = recipe.keeps(layer) ? recipe.keep_format : recipe.kind(*kind).format;
  }
  double ua = 0, ub = 0;
  for (uint64_t bi = 0; bi < op.batch; ++bi) {
    const io::Operand& a = cache.get(op, "a", bi);
    const io::Operand& b = cache.get(op, "b", bi);
    std::vector<float> C(a.rows * b.rows);
    if (attn)
      train::attention_gemm(recipe, *attn, threads, a.data.data(), a.rows, b.data.data(), b.rows, a.cols, C.data());
    else
      train::recipe_gemm(recipe, *kind, layer, seed, 0, op_index, threads, a.data.data(), a.rows, b.data.data(),
                         b.rows, a.cols, C.data());
    add_errors(r, op, bi, C, a, b, threads, cache);
    if (f) {
      fmt::QuantOptions q;
      q.threads = threads;
      ua += underflow_fraction(*f, a.data, a.rows, a.cols, q);
      ub += underflow_fraction(*f, b.data, b.rows, b.cols, q);
    }
  }
  r.underflow_a = ua / static_cast<double>(op.batch);
  r.underflow_b = ub / static_cast<double>(op.batch);
  r.err = r.sums.metrics();
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace

std::vector<OpAccuracy> evaluate_trace(const io::Trace& t, const AccuracyOptions& o) {
  if (t.shape_only())
    throw Error(t.manifest, "kind", "shape-only trace: accuracy needs tensors (use a captured trace)");
  for (fmt::Format f : o.formats) {
    dp::GemmSpec s = o.base;
    s.format = f;
    dp::validate(s);
  }
  // Every (op, format, correction) is one job; jobs run side by side on all threads, op by op,
  // each GEMM on its own thread (small GEMMs do not split well; many of them do). Each op's
  // tensors are read once (OperandCache) and shared by its jobs. Results go to fixed slots,
  // so the output does not depend on the thread count.
  struct Job {
    size_t op, format, correction;
  };
  std::vector<Job> jobs;
  for (size_t i = 0; i < t.ops.size(); ++i) {
    for (size_t f = 0; f < o.formats.size(); ++f)
      for (size_t c = 0; c < o.corrections.size(); ++c) jobs.push_back({i, f, c});
    for (size_t rc = 0; rc < o.recipes.size(); ++rc)  // recipes: "format" slots after the formats, no correction
      jobs.push_back({i, o.formats.size() + rc, 0});
  }
  OperandCache local(t);
  OperandCache& cache = o.cache ? *o.cache : local;
  std::vector<std::atomic<size_t>> left(t.ops.size());
  for (const Job& j : jobs) ++left[j.op];
  const unsigned threads = resolve_threads(o.base.threads);
  const unsigned per_job = std::max<unsigned>(1, threads / static_cast<unsigned>(std::max<size_t>(1, jobs.size())));
  std::vector<OpAccuracy> out(jobs.size());
  std::atomic<size_t> next{0};
  std::atomic<bool> failed{false};
  std::mutex progress;
  parallel_for(threads, threads, [&](size_t, size_t) {
    try {
      while (!failed) {
        const size_t j = next++;
        if (j >= jobs.size()) break;
        const Job& job = jobs[j];
        const io::TraceOp& op = t.ops[job.op];
        if (job.format >= o.formats.size()) {
          out[j] = evaluate_recipe_job(t, job.op, o.recipes[job.format - o.formats.size()], o.recipe_seed, per_job,
                                       cache);
        } else {
          dp::GemmSpec s = o.base;
          s.format = o.formats[job.format];
          s.threads = per_job;
          s.quant.threads = per_job;
          out[j] = evaluate_job(t, op, s.format, o.corrections[job.correction], s, cache);
        }
        if (--left[job.op] == 0 && !o.cache) cache.release(op);  // nobody after us needs them
        if (o.progress) {
          const OpAccuracy& r = out[j];
          char buf[320];
          char v[32];
          std::snprintf(v, sizeof v, "SQNR %6.2f dB", r.err.sqnr_db);
          const std::string sqnr = r.err.valid() ? std::string(v) : "INVALID: " + r.err.invalid_reason();
          std::snprintf(buf, sizeof buf, "[%zu/%zu] %-18s %-10s %-12s %s  underflow %5.2f%%  (%.2f s)", job.op + 1,
                        t.ops.size(), op.name.c_str(), r.format.c_str(), r.correction.c_str(), sqnr.c_str(),
                        100 * r.underflow_a, r.seconds);
          std::lock_guard<std::mutex> lock(progress);
          o.progress(buf);
        }
      }
    } catch (...) {
      failed = true;
      throw;
    }
  });
  return out;
}

}  // namespace hifsim::eval
