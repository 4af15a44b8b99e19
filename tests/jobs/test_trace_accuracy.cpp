// The accuracy phase of `hifsim trace` and `hifsim compare` (model/eval/trace_accuracy,
// model/eval/operand_cache): the (op, format, correction) jobs run side by side, yet the rows come
// out in op, format, correction order with the same bits for any thread count, and each tensor
// file is read once however many formats, corrections and later phases use it (issue 13).
#include <gtest/gtest.h>

#include <cstring>
#include <string>

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

}  // namespace
