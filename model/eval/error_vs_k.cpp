#include "eval/error_vs_k.hpp"

#include <algorithm>
#include <sstream>

#include "gemm/gemm.hpp"
#include "util/error.hpp"
#include "util/parallel.hpp"
#include "util/text.hpp"

namespace hifsim::eval {

namespace {

// `rows` rows spread evenly over a row-major matrix (tokens from the whole sequence, not only
// the first ones, whose activations are often outliers), first `K` columns.
std::vector<float> cut(const io::Operand& x, size_t rows, size_t K) {
  std::vector<float> y(rows * K);
  for (size_t r = 0; r < rows; ++r) std::copy_n(x.data.data() + (r * x.rows / rows) * x.cols, K, y.data() + r * K);
  return y;
}

std::vector<uint64_t> k_values(uint64_t kmax) {
  std::vector<uint64_t> ks;
  for (uint64_t k = 64; k < kmax; k *= 2) ks.push_back(k);
  ks.push_back(kmax);
  return ks;
}

}  // namespace

std::vector<ErrorVsKPoint> error_vs_k(const io::Trace& t, const ErrorVsKOptions& o, OperandCache& cache) {
  if (t.shape_only()) throw Error(t.manifest, "kind", "shape-only trace: error versus K needs tensors");
  uint64_t kmax = 0;
  for (const auto& op : t.ops) kmax = std::max(kmax, op.K);
  std::vector<const io::TraceOp*> ops;
  for (const auto& op : t.ops)
    if (op.K == kmax) ops.push_back(&op);
  if (ops.size() > o.max_ops) {  // evenly spread over the trace (first and last included)
    std::vector<const io::TraceOp*> pick;
    for (size_t i = 0; i < o.max_ops; ++i) pick.push_back(ops[i * (ops.size() - 1) / std::max<size_t>(1, o.max_ops - 1)]);
    ops = pick;
  }
  // One job per (format, K), side by side on the threads (each GEMM on one thread); every job
  // adds its ops in trace order into its own slots, so the figures do not depend on the
  // thread count.
  const std::vector<uint64_t> ks = k_values(kmax);
  const size_t nacc = o.accumulators.size();
  std::vector<ErrorVsKPoint> points(o.formats.size() * ks.size() * nacc);
  parallel_for(o.formats.size() * ks.size(), o.threads, [&](size_t begin, size_t end) {
    for (size_t job = begin; job < end; ++job) {
      const fmt::Format f = o.formats[job / ks.size()];
      const uint64_t K = ks[job % ks.size()];
      std::vector<dp::ErrorSums> vs64(nacc), vsk(nacc);
      uint64_t outputs = 0;
      for (const io::TraceOp* op : ops) {
        for (uint64_t bi = 0; bi < op->batch; ++bi) {
          const io::Operand& a = cache.get(*op, "a", bi);
          const io::Operand& b = cache.get(*op, "b", bi);
          const size_t M = std::min<size_t>(a.rows, o.max_rows), N = b.rows;
          const std::vector<float> ak = cut(a, M, K), bk = cut(b, N, K);  // all of B's rows: N = b.rows
          fmt::check_representable(f, ak.data(), M, K, t.manifest + ": " + op->name + ".a");
          fmt::check_representable(f, bk.data(), N, K, t.manifest + ": " + op->name + ".b");
          const std::vector<double> ref = dp::gemm_fp64(ak.data(), M, K, bk.data(), N, 1);
          dp::GemmSpec s;
          s.format = f;
          s.threads = 1;
          s.quant.threads = 1;
          const fmt::QTensor qa = dp::quantize_operand(ak.data(), M, K, s), qb = dp::quantize_operand(bk.data(), N, K, s);
          s.acc = dp::AccSpec::parse("kulisch");
          const std::vector<float> kulisch = dp::gemm_quantized(qa, qb, s);
          for (size_t i = 0; i < nacc; ++i) {
            s.acc = dp::AccSpec::parse(o.accumulators[i]);
            const std::vector<float> c = s.acc.kind == dp::AccSpec::kulisch ? kulisch : dp::gemm_quantized(qa, qb, s);
            vs64[i].add(c.data(), ref.data(), c.size());
            vsk[i].add(c.data(), kulisch.data(), c.size());
          }
          outputs += M * N;
        }
      }
      for (size_t i = 0; i < nacc; ++i) {
        ErrorVsKPoint& p = points[job * nacc + i];
        p.format = fmt::format_info(f).name;
        p.accumulator = o.accumulators[i];
        p.K = K;
        p.outputs = outputs;
        p.vs_fp64 = vs64[i].metrics();
        p.vs_kulisch = vsk[i].metrics();
      }
    }
  });
  return points;
}

std::string error_vs_k_csv(const std::vector<ErrorVsKPoint>& points) {
  std::ostringstream o;
  o << "format,accumulator,K,outputs,sqnr_db,rel_frobenius,valid,sqnr_vs_kulisch_db,rel_vs_kulisch\n";
  for (const auto& p : points) {
    o << p.format << "," << p.accumulator << "," << p.K << "," << p.outputs << ","
      << dp::metric_text(p.vs_fp64.sqnr_db, p.vs_fp64, 6) << "," << dp::metric_text(p.vs_fp64.rel_frobenius, p.vs_fp64, 6)
      << "," << (p.vs_fp64.valid() ? "true" : "false") << ","
      << dp::metric_text(p.vs_kulisch.sqnr_db, p.vs_kulisch, 6) << ","
      << dp::metric_text(p.vs_kulisch.rel_frobenius, p.vs_kulisch, 6) << "\n";
  }
  return o.str();
}

}  // namespace hifsim::eval
