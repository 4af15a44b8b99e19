#include <algorithm>
#include <cstring>

#include "datapath/gemm_kernels.hpp"
#include "datapath/element.hpp"
#include "formats/bits.hpp"
#include "formats/scales.hpp"
#include "util/parallel.hpp"

namespace hifsim::dp {

using fmt::Format;

Hif4Packed pack_hif4(const fmt::QTensor& t) {
  Hif4Packed p;
  p.rows = t.rows;
  p.nblk = t.blocks_per_row();
  p.q.resize(p.rows * p.nblk * 64);
  p.scale.resize(p.rows * p.nblk);
  p.e6m2.resize(p.rows * p.nblk);
  for (size_t r = 0; r < p.rows; ++r) {
    for (size_t b = 0; b < p.nblk; ++b) {
      const size_t bi = r * p.nblk + b;
      const uint16_t* c = t.codes.data() + r * t.padded_cols + b * 64;
      int8_t* q = p.q.data() + bi * 64;
      for (int k = 0; k < 64; ++k) {
        const int sh = ((t.l2[bi] >> (k >> 3)) & 1) + ((t.l3[bi] >> (k >> 2)) & 1);
        const int m = (c[k] & 7) << sh;
        q[k] = static_cast<int8_t>((c[k] & 8) ? -m : m);
      }
      const uint8_t e = t.scales[bi];
      p.e6m2[bi] = e;
      p.scale[bi] = e == fmt::kE6M2NaN ? fmt::f32_nan()
                                       : static_cast<float>(fmt::e6m2_sig(e)) * fmt::pow2f(fmt::e6m2_exp(e) - 2);
    }
  }
  return p;
}

namespace {

// Half-unit E2M1 integers (|v| <= 12) for NVFP4 and MXFP4.
std::vector<int8_t> pack_e2m1(const fmt::QTensor& t) {
  std::vector<int8_t> q(t.rows * t.padded_cols);
  for (size_t i = 0; i < q.size(); ++i) {
    const Elem e = decode_e2m1(static_cast<uint8_t>(t.codes[i]));
    q[i] = static_cast<int8_t>(e.neg ? -static_cast<int>(e.sig) : static_cast<int>(e.sig));
  }
  return q;
}

inline int dot_i8(const int8_t* a, const int8_t* b, int n) {
  int s = 0;
  for (int k = 0; k < n; ++k) s += a[k] * b[k];
  return s;
}

// Feeds one block result into either the inline FP32 register or the general Accumulator.
struct Acc {
  bool fast;
  float f = 0.0f;
  Accumulator general;
  explicit Acc(const AccSpec& s) : fast(s.kind == AccSpec::fp32), general(s) {}
  void reset() {
    f = 0.0f;
    if (!fast) general.reset(0.0f);
  }
  float result() const { return fast ? f : general.result(); }
};

void gemm_hif4(const fmt::QTensor& A, const fmt::QTensor& B, const GemmSpec& s, bool avx2, float* C) {
  const Hif4Packed pa = pack_hif4(A), pb = pack_hif4(B);
  const size_t M = A.rows, N = B.rows, nb = pa.nblk;
#if HIFSIM_HAVE_AVX2_KERNELS
  if (avx2 && s.acc.kind == AccSpec::fp32) {
    const size_t panels = N / 8;
    parallel_for(panels, s.threads, [&](size_t p0, size_t p1) {
      std::vector<float> sb8(nb * 8);
      for (size_t p = p0; p < p1; ++p) {
        const size_t n0 = p * 8;
        const int8_t* qb[8];
        for (int j = 0; j < 8; ++j) qb[j] = pb.q.data() + (n0 + j) * nb * 64;
        for (size_t b = 0; b < nb; ++b)
          for (int j = 0; j < 8; ++j) sb8[b * 8 + j] = pb.scale[(n0 + j) * nb + b];
        for (size_t m = 0; m < M; ++m) {
          float out[8];
          hif4_avx2_row_x8(pa.q.data() + m * nb * 64, pa.scale.data() + m * nb, qb, sb8.data(), nb, out);
          for (int j = 0; j < 8; ++j) C[m * N + n0 + j] = epilogue(out[j], A, B);
        }
      }
    });
    // Remaining columns (N % 8) through the portable kernel below.
    if (panels * 8 == N) return;
  }
  const size_t n_begin = (avx2 && s.acc.kind == AccSpec::fp32) ? (N / 8) * 8 : 0;
#else
  (void)avx2;
  const size_t n_begin = 0;
#endif
  const size_t ncols = N - n_begin;
  parallel_for(M * ncols, s.threads, [&](size_t b0, size_t b1) {
    Acc acc(s.acc);
    for (size_t i = b0; i < b1; ++i) {
      const size_t m = i / ncols, n = n_begin + i % ncols;
      acc.reset();
      const int8_t* qa = pa.q.data() + m * nb * 64;
      const int8_t* qb = pb.q.data() + n * nb * 64;
      for (size_t b = 0; b < nb; ++b) {
        const int I = dot_i8(qa + b * 64, qb + b * 64, 64);
        const float fa = pa.scale[m * nb + b], fb = pb.scale[n * nb + b];
        if (acc.fast) {
          acc.f += static_cast<float>(I) * (fa * fb);  // each product exact (docs/datapath.md)
        } else {
          DotResult d;
          const uint8_t ea = pa.e6m2[m * nb + b], eb = pb.e6m2[n * nb + b];
          if (ea == fmt::kE6M2NaN || eb == fmt::kE6M2NaN) {
            d.exact = ExactValue::make_nan();
          } else {
            d.exact = ExactValue::from_int(static_cast<i128>(I) * fmt::e6m2_sig(ea) * fmt::e6m2_sig(eb),
                                           (ea >> 2) + (eb >> 2) - 104);
          }
          d.value = round_to_float(d.exact);
          acc.general.add(d);
        }
      }
      C[m * N + n] = epilogue(acc.result(), A, B);
    }
  }, 16);
}

void gemm_nvfp4(const fmt::QTensor& A, const fmt::QTensor& B, const GemmSpec& s, float* C) {
  const std::vector<int8_t> qa = pack_e2m1(A), qb = pack_e2m1(B);
  const size_t M = A.rows, N = B.rows, K = A.padded_cols, nsub = K / 16, nb = K / 64;
  // Scale significands (signed) and exponents per 16-block; NaN flags.
  auto scales = [](const fmt::QTensor& t, std::vector<int8_t>& sig, std::vector<int8_t>& ex, std::vector<uint8_t>& nan) {
    sig.resize(t.scales.size());
    ex.resize(t.scales.size());
    nan.resize(t.scales.size());
    for (size_t i = 0; i < t.scales.size(); ++i) {
      const Elem e = decode_e4m3(t.scales[i]);
      nan[i] = e.kind == Elem::nan;
      sig[i] = static_cast<int8_t>(e.neg ? -static_cast<int>(e.sig) : static_cast<int>(e.sig));
      ex[i] = static_cast<int8_t>(e.exp);
    }
  };
  std::vector<int8_t> sa, ea, sbv, eb;
  std::vector<uint8_t> na, nbn;
  scales(A, sa, ea, na);
  scales(B, sbv, eb, nbn);
  parallel_for(M * N, s.threads, [&](size_t b0, size_t b1) {
    Acc acc(s.acc);
    for (size_t i = b0; i < b1; ++i) {
      const size_t m = i / N, n = i % N;
      acc.reset();
      for (size_t b = 0; b < nb; ++b) {
        int64_t total = 0;
        bool nan = false;
        for (int j = 0; j < 4; ++j) {
          const size_t ia = m * nsub + b * 4 + j, ib = n * nsub + b * 4 + j;
          const int S = dot_i8(qa.data() + m * K + b * 64 + j * 16, qb.data() + n * K + b * 64 + j * 16, 16);
          nan |= na[ia] || nbn[ib];
          total += static_cast<int64_t>(S) * sa[ia] * sbv[ib] * (int64_t{1} << (ea[ia] + eb[ib] + 18));
        }
        if (acc.fast) {
          // (float)total rounds once (RNE); the scaling by 2^-20 is exact (|value| >= 2^-20).
          acc.f += nan ? fmt::f32_nan() : static_cast<float>(total) * 0x1p-20f;
        } else {
          DotResult d;
          d.exact = nan ? ExactValue::make_nan() : ExactValue::from_int(total, -20);
          d.value = round_to_float(d.exact);
          acc.general.add(d);
        }
      }
      C[i] = epilogue(acc.result(), A, B);
    }
  }, 16);
}

void gemm_mxfp4(const fmt::QTensor& A, const fmt::QTensor& B, const GemmSpec& s, float* C) {
  const std::vector<int8_t> qa = pack_e2m1(A), qb = pack_e2m1(B);
  const size_t M = A.rows, N = B.rows, K = A.padded_cols, n32 = K / 32, nb = K / 64;
  parallel_for(M * N, s.threads, [&](size_t b0, size_t b1) {
    Acc acc(s.acc);
    for (size_t i = b0; i < b1; ++i) {
      const size_t m = i / N, n = i % N;
      acc.reset();
      for (size_t b = 0; b < nb; ++b) {
        int S[2], X[2];
        bool nan = false;
        for (int j = 0; j < 2; ++j) {
          const size_t ia = m * n32 + b * 2 + j, ib = n * n32 + b * 2 + j;
          S[j] = dot_i8(qa.data() + m * K + b * 64 + j * 32, qb.data() + n * K + b * 64 + j * 32, 32);
          nan |= A.scales[ia] == fmt::kE8M0NaN || B.scales[ib] == fmt::kE8M0NaN;
          X[j] = (A.scales[ia] - 127) + (B.scales[ib] - 127) - 2;
        }
        DotResult d;
        if (nan) {
          d.exact = ExactValue::make_nan();
        } else {
          // Exact two-term sum: S[j] < 2^13, so an exponent gap <= 100 fits 128 bits.
          const int lo = std::min(X[0], X[1]), gap = std::abs(X[0] - X[1]);
          if (gap <= 100) {
            d.exact = ExactValue::from_int(static_cast<i128>(S[0]) * (static_cast<i128>(1) << (X[0] - lo)) +
                                               static_cast<i128>(S[1]) * (static_cast<i128>(1) << (X[1] - lo)),
                                           lo);
          } else {
            ExactSum es;
            es.add(ExactValue::from_int(S[0], X[0]));
            es.add(ExactValue::from_int(S[1], X[1]));
            d.exact = es.value();
          }
        }
        d.value = round_to_float(d.exact);
        if (acc.fast) acc.f += d.value;
        else acc.general.add(d);
      }
      C[i] = epilogue(acc.result(), A, B);
    }
  }, 16);
}

}  // namespace

bool packed_kernel_supports(const GemmSpec& s) { return fmt::format_info(s.format).tensor; }

bool avx2_kernel_supports(const GemmSpec& s) { return s.format == Format::hif4 && s.acc.kind == AccSpec::fp32; }

void gemm_packed(const fmt::QTensor& A, const fmt::QTensor& B, const GemmSpec& s, bool avx2, float* C) {
  switch (s.format) {
    case Format::hif4: gemm_hif4(A, B, s, avx2, C); break;
    case Format::nvfp4: gemm_nvfp4(A, B, s, C); break;
    case Format::mxfp4: gemm_mxfp4(A, B, s, C); break;
    default: gemm_float_elems(A, B, s, C); break;
  }
}

}  // namespace hifsim::dp
