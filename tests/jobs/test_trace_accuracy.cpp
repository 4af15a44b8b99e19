// The accuracy phase of `hifsim trace` and `hifsim compare` (model/eval/trace_accuracy,
// model/eval/operand_cache, model/eval/error_vs_k): the (op, format, correction) jobs run side by side, yet the rows come
// out in op, format, correction order with the same bits for any thread count, and each tensor
// file is read once however many formats, corrections and later phases use it (issue 13).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "eval/error_vs_k.hpp"
#include "eval/operand_cache.hpp"
#include "eval/trace_accuracy.hpp"
#include "eval/workload.hpp"
#include "util/error.hpp"
#include "util/parallel.hpp"

namespace {
using namespace hifsim;

const std::string kCaptured = std::string(HIFSIM_SOURCE_DIR) + "/traces/stories260k";

// The stories260k trace with its tensors, or a skip when they were not produced yet.
bool captured_trace(io::Trace& t) {
  try {
    t = io::read_trace(kCaptured);
    (void)io::load_operand(t, t.ops.front(), "a", 0);
    return true;
  } catch (const Error&) {
    return false;
  }
}

eval::AccuracyOptions options(unsigned threads) {
  eval::AccuracyOptions o;
  o.formats = {fmt::Format::hif4, fmt::Format::nvfp4, fmt::Format::hif8};
  o.corrections = {eval::Correction::parse("none"), eval::Correction::parse("2:4")};
  o.base.threads = threads;
  o.base.quant.threads = threads;
  return o;
}

// Bit-for-bit equality of two error sums (a tolerance would hide an order-dependent sum).
void expect_same_bits(const dp::ErrorSums& x, const dp::ErrorSums& y, const std::string& what) {
  const double xs[] = {x.sig, x.noise, x.dot, x.cc, x.abs_err, x.abs_ref, x.max_ref, x.max_abs_err};
  const double ys[] = {y.sig, y.noise, y.dot, y.cc, y.abs_err, y.abs_ref, y.max_ref, y.max_abs_err};
  EXPECT_EQ(std::memcmp(xs, ys, sizeof xs), 0) << what;
  EXPECT_EQ(x.n, y.n) << what;
  EXPECT_EQ(x.nonfinite, y.nonfinite) << what;
  EXPECT_EQ(x.nonfinite_ref, y.nonfinite_ref) << what;
}

uint64_t tensor_files(const io::Trace& t) {
  uint64_t n = 0;
  for (const io::TraceOp& op : t.ops) n += op.batch * (uint64_t{op.a.has_value()} + op.b.has_value() + op.c_ref.has_value());
  return n;
}

TEST(TraceAccuracy, RowsInOrderAndSameBitsForAnyThreadCount) {
  io::Trace t;
  if (!captured_trace(t)) GTEST_SKIP() << "stories260k tensors missing (scripts/capture/ensure_traces.sh --only stories260k)";
  const auto serial = eval::evaluate_trace(t, options(1));
  const auto& o = options(1);
  ASSERT_EQ(serial.size(), t.ops.size() * o.formats.size() * o.corrections.size());
  size_t i = 0;
  for (const io::TraceOp& op : t.ops)
    for (fmt::Format f : o.formats)
      for (const eval::Correction& c : o.corrections) {
        EXPECT_EQ(serial[i].op_name, op.name);
        EXPECT_EQ(serial[i].format, fmt::format_info(f).name);
        EXPECT_EQ(serial[i].correction, c.name);
        EXPECT_GT(serial[i].sums.n, 0u);
        ++i;
      }
  for (unsigned threads : {2u, 3u}) {
    const auto par = eval::evaluate_trace(t, options(threads));
    ASSERT_EQ(par.size(), serial.size());
    for (size_t k = 0; k < par.size(); ++k) {
      const std::string what = serial[k].op_name + " " + serial[k].format + " " + serial[k].correction + ", " +
                               std::to_string(threads) + " threads";
      EXPECT_EQ(par[k].op_name + par[k].format + par[k].correction,
                serial[k].op_name + serial[k].format + serial[k].correction) << what;
      expect_same_bits(par[k].sums, serial[k].sums, what);
      EXPECT_EQ(par[k].underflow_a, serial[k].underflow_a) << what;
      EXPECT_EQ(par[k].underflow_b, serial[k].underflow_b) << what;
    }
  }
}

TEST(TraceAccuracy, EachTensorReadOncePerRun) {
  io::Trace t;
  if (!captured_trace(t)) GTEST_SKIP() << "stories260k tensors missing (scripts/capture/ensure_traces.sh --only stories260k)";
  eval::OperandCache cache(t);
  eval::AccuracyOptions o = options(3);
  o.cache = &cache;
  (void)eval::evaluate_trace(t, o);
  // 3 formats x 2 corrections use every tensor, yet each file was read once.
  const uint64_t files = tensor_files(t);
  EXPECT_EQ(cache.reads(), files);
  // The later phases of `hifsim compare` (every unit's activity samples, the dot-unit
  // comparison) take the same tensors from the cache: no file is read again.
  eval::Workload w;
  w.trace = t;
  const auto jobs = eval::timing_jobs(w);
  for (int unit = 0; unit < 4; ++unit) {
    eval::OperandStore keep;
    const auto sets = eval::activity_sets(jobs, &t, {6, true, 1}, keep, &cache);
    EXPECT_FALSE(eval::seeded_sets(sets));
    EXPECT_TRUE(keep.empty()) << "the sets must point into the cache, not into fresh copies";
  }
  EXPECT_EQ(cache.reads(), files);
}

// A tensor requested from many threads at once is read once; the others wait for it.
TEST(TraceAccuracy, ConcurrentRequestsShareOneRead) {
  io::Trace t;
  if (!captured_trace(t)) GTEST_SKIP() << "stories260k tensors missing (scripts/capture/ensure_traces.sh --only stories260k)";
  eval::OperandCache cache(t);
  const io::TraceOp& op = t.ops.front();
  std::vector<const io::Operand*> got(8);
  parallel_for(got.size(), 8, [&](size_t b, size_t e) {
    for (size_t i = b; i < e; ++i) got[i] = &cache.get(op, "a", 0);
  });
  EXPECT_EQ(cache.reads(), 1u);
  for (const io::Operand* p : got) EXPECT_EQ(p, got.front());
  cache.release(op);
  (void)cache.get(op, "a", 0);
  EXPECT_EQ(cache.reads(), 2u) << "a released tensor is read again when asked for";
}

// GEMM error versus K: Kulisch is the exact reference of each format, fewer accumulator
// mantissa bits cost accuracy, and the figures do not depend on the thread count.
TEST(ErrorVsK, AccumulatorsAgainstKulisch) {
  io::Trace t;
  if (!captured_trace(t)) GTEST_SKIP() << "stories260k tensors missing (scripts/capture/ensure_traces.sh --only stories260k)";
  eval::OperandCache cache(t);
  eval::ErrorVsKOptions o;
  o.formats = {fmt::Format::hif4, fmt::Format::hif8};
  o.threads = 1;
  const auto serial = eval::error_vs_k(t, o, cache);
  uint64_t kmax = 0;
  for (const io::TraceOp& op : t.ops) kmax = std::max(kmax, op.K);
  std::vector<uint64_t> ks;
  for (uint64_t k = 64; k < kmax; k *= 2) ks.push_back(k);
  ks.push_back(kmax);
  ASSERT_EQ(serial.size(), o.formats.size() * ks.size() * o.accumulators.size());
  auto at = [&](const std::vector<eval::ErrorVsKPoint>& v, size_t f, size_t k, const std::string& acc) {
    for (size_t i = 0; i < o.accumulators.size(); ++i)
      if (o.accumulators[i] == acc) return v[(f * ks.size() + k) * o.accumulators.size() + i];
    ADD_FAILURE() << "no accumulator " << acc;
    return v.front();
  };
  for (size_t f = 0; f < o.formats.size(); ++f)
    for (size_t k = 0; k < ks.size(); ++k) {
      const auto& p = at(serial, f, k, "kulisch");
      EXPECT_EQ(p.K, ks[k]);
      EXPECT_EQ(p.format, fmt::format_info(o.formats[f]).name);
      EXPECT_GT(p.outputs, 0u);
      EXPECT_EQ(p.vs_kulisch.rel_frobenius, 0.0) << "Kulisch against itself";
      EXPECT_TRUE(p.vs_fp64.valid());
    }
  // HiF4, one 64-block: the block's value is exact in FP32 and adding it to +0 is exact, so the
  // FP32 accumulator equals Kulisch bit for bit; at the longest K it rounds.
  EXPECT_EQ(at(serial, 0, 0, "fp32").vs_kulisch.rel_frobenius, 0.0);
  const size_t last = ks.size() - 1;
  for (size_t f = 0; f < o.formats.size(); ++f) {
    const double m23 = at(serial, f, last, "fp32").vs_kulisch.rel_frobenius;
    const double m13 = at(serial, f, last, "fp32-m13-rne").vs_kulisch.rel_frobenius;
    const double m10rne = at(serial, f, last, "fp32-m10-rne").vs_kulisch.rel_frobenius;
    const double m10rz = at(serial, f, last, "fp32-m10-rz").vs_kulisch.rel_frobenius;
    EXPECT_GT(m13, m23);
    EXPECT_GT(m10rne, m13);
    EXPECT_GT(m10rz, m10rne) << "truncation accumulates a bias that rounding to nearest does not";
  }
  o.threads = 3;
  const auto par = eval::error_vs_k(t, o, cache);
  ASSERT_EQ(par.size(), serial.size());
  for (size_t i = 0; i < par.size(); ++i) {
    EXPECT_EQ(par[i].accumulator, serial[i].accumulator);
    EXPECT_EQ(par[i].vs_fp64.rel_frobenius, serial[i].vs_fp64.rel_frobenius) << i;
    EXPECT_EQ(par[i].vs_kulisch.rel_frobenius, serial[i].vs_kulisch.rel_frobenius) << i;
  }
  const std::string csv = eval::error_vs_k_csv(serial);
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "format,accumulator,K,outputs,sqnr_db,rel_frobenius,valid,sqnr_vs_kulisch_db,rel_vs_kulisch");
  EXPECT_EQ(static_cast<size_t>(std::count(csv.begin(), csv.end(), '\n')), serial.size() + 1);
}

}  // namespace
