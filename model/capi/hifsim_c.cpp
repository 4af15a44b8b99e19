#include "capi/hifsim_c.h"

#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include "datapath/gemm.hpp"
#include "datapath/residual.hpp"
#include "formats/tensor.hpp"
#include "util/error.hpp"

namespace {
using namespace hifsim;

int fail(char* err, size_t n, const std::string& msg) {
  if (err && n) std::snprintf(err, n, "%s", msg.c_str());
  return 1;
}

fmt::Format tensor_format(const char* name) {
  const auto f = fmt::parse_format(name ? name : "");
  if (!f || !fmt::format_info(*f).tensor)
    throw Error("format", name ? name : "(null)", "unknown tensor format; choose one of " + fmt::tensor_format_names());
  return *f;
}

template <class F>
int guarded(char* err, size_t n, F&& f) {
  try {
    f();
    return 0;
  } catch (const std::exception& e) {
    return fail(err, n, e.what());
  }
}
}  // namespace

extern "C" int hifsim_qdq(const char* format, const float* x, float* y, size_t rows, size_t cols, const char* rounding,
                          unsigned threads, char* err, size_t errlen) {
  return guarded(err, errlen, [&] {
    const fmt::Format f = tensor_format(format);
    fmt::QuantOptions o;
    o.threads = threads;
    if (rounding && *rounding) {
      const auto r = fmt::parse_rounding(rounding);
      if (!r) throw Error("rounding", rounding, "is not one of rne, away, rz, stochastic, hybrid");
      o.rounding = *r;
    }
    fmt::check_representable(f, x, rows, cols, "input");
    fmt::quantize_dequantize(f, x, y, rows, cols, o);
  });
}

extern "C" int hifsim_qdq_residual(const char* format, const char* residual, const float* x, float* y, size_t rows,
                                   size_t cols, unsigned threads, char* err, size_t errlen) {
  return guarded(err, errlen, [&] {
    dp::GemmSpec s;
    s.format = tensor_format(format);
    s.quant.threads = threads;
    s.threads = threads;
    dp::ResidualSpec rs;
    rs.kind = dp::ResidualSpec::parse_kind(residual ? residual : "none");
    fmt::check_representable(s.format, x, rows, cols, "input");
    if (rs.kind == dp::ResidualKind::none) {
      fmt::quantize_dequantize(s.format, x, y, rows, cols, s.quant);
      return;
    }
    const dp::ResidualOperands ops = dp::make_residual_operands(x, rows, cols, s, rs);
    const std::vector<float> a = fmt::dequantize(ops.main), b = fmt::dequantize(ops.residual);
    const size_t kp = ops.main.cols;
    for (size_t r = 0; r < rows; ++r)
      for (size_t c = 0; c < cols; ++c) y[r * cols + c] = a[r * kp + c] + b[r * kp + c];
  });
}

extern "C" int hifsim_gemm(const char* format, const float* a, size_t M, size_t K, const float* b, size_t N, float* c,
                           const char* acc, unsigned threads, char* err, size_t errlen) {
  return guarded(err, errlen, [&] {
    dp::GemmSpec s;
    s.format = tensor_format(format);
    s.acc = dp::AccSpec::parse(acc && *acc ? acc : "fp32");
    s.threads = threads;
    s.quant.threads = threads;
    fmt::check_representable(s.format, a, M, K, "a");
    fmt::check_representable(s.format, b, N, K, "b");
    const std::vector<float> out = dp::gemm(a, M, K, b, N, s);
    std::memcpy(c, out.data(), out.size() * sizeof(float));
  });
}
