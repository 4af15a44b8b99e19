#include "gemm/gemm_driver.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <vector>

#include "gemm/gemm_cpu_path.hpp"
#include "gemm/gemm_formats.hpp"
#include "gemm/gemm_fpi_exact.hpp"
#include "gemm/gemm_pack.hpp"
#include "gemm/gemm_tile.hpp"
#include "util/error.hpp"
#include "util/parallel.hpp"

namespace hifsim::dp {

using fmt::Format;

namespace {

const tile::VariantKernels& kernels_of(CpuVariant v) {
#if HIFSIM_HAVE_SIMD_KERNELS
  if (v == CpuVariant::avx2) return tile::kernels_avx2();
  if (v == CpuVariant::avxvnni) return tile::kernels_avxvnni();
  if (v == CpuVariant::avx512) return tile::kernels_avx512();
  if (v == CpuVariant::amx) return tile::kernels_amx();
#endif
  if (v != CpuVariant::portable) throw Error("gemm", variant_name(v), "kernels are not built into this binary");
  return tile::kernels_portable();
}

struct FixupCtx {
  const fmt::QTensor* A;
  const fmt::QTensor* B;
  const GemmSpec* s;
};

float fixup_unit(const void* ctx, size_t m, size_t n, size_t blk) {
  const FixupCtx& c = *static_cast<const FixupCtx*>(ctx);
  return unit_dot(*c.A, m, *c.B, n, blk, *c.s).value;
}

ExactValue exact_from_double(double d) {
  if (std::isnan(d)) return ExactValue::make_nan();
  if (std::isinf(d)) return ExactValue::make_inf(d < 0);
  if (d == 0) return ExactValue::zero();
  int e;
  const double m = std::frexp(std::fabs(d), &e);  // d = m * 2^e, m in [0.5, 1)
  ExactValue v;
  v.neg = d < 0;
  v.mag = static_cast<u128>(std::ldexp(m, 53));
  v.exp = e - 53;
  return v;
}

int ceil_log2(int w) {
  int l = 0;
  while ((1 << l) < w) ++l;
  return l;
}

// The Kulisch accumulator needs a block's exact value where the fp kernel only proved its FP32
// rounding (the double sum may have rounded: wide product spans). When the unit's value is the
// exact sum of the block's products (no window, or a window too wide to drop a bit: span + P
// <= W) and they span at most 120 bits, that sum is formed here in 128 bits from the packed
// elements -- the same value the unit's exact path forms (aligned_dot.cpp). Else false: the
// unit recomputes the block.
struct FpExactSum {
  const PackedFpA* pa;
  const PackedFpB* pb;
  size_t mr, nr, K, nblk;
  int w, window, pbits;
  bool operator()(size_t m, size_t n, size_t blk, ExactValue& out) const {
    const size_t p = n / nr, j = n % nr, ia = m * nblk + blk, ib = (p * nblk + blk) * nr + j;
    if (window > 0 && std::ilogb(pa->spanf[ia]) + std::ilogb(pb->spanf[ib]) + pbits > window) return false;
    const double* a = pa->x.data() + ((m / mr) * K + blk * w) * mr + m % mr;
    const double* b = pb->x.data() + (p * K + blk * w) * nr + j;
    uint64_t mag[64];
    int ex[64];
    bool neg[64];
    int lo = INT_MAX, hi = INT_MIN, n_terms = 0;
    for (int k = 0; k < w; ++k) {
      const double prod = a[k * mr] * b[k * nr];  // exact: <= 16 significant bits
      if (!std::isfinite(prod)) return false;
      if (prod == 0) continue;
      int e;
      uint64_t M = static_cast<uint64_t>(std::ldexp(std::frexp(std::fabs(prod), &e), 53));
      e -= 53;
      const int tz = __builtin_ctzll(M);
      M >>= tz;
      e += tz;
      mag[n_terms] = M;
      ex[n_terms] = e;
      neg[n_terms] = prod < 0;
      ++n_terms;
      lo = std::min(lo, e);
      hi = std::max(hi, e + 64 - __builtin_clzll(M));
    }
    if (n_terms && hi - lo > 120) return false;
    i128 S = 0;
    for (int t = 0; t < n_terms; ++t) {
      const i128 v = static_cast<i128>(mag[t]) << (ex[t] - lo);
      S += neg[t] ? -v : v;
    }
    const double scale = pa->scale[ia] * pb->scale[ib];  // powers of two (MX), 1, or NaN
    if (std::isnan(scale)) {
      out = ExactValue::make_nan();
      return true;
    }
    out = ExactValue::from_int(S, n_terms ? lo + std::ilogb(scale) : 0);
    return true;
  }
};

// Emit mode: every output of the tile from its per-block values through the accumulator.
// `fp_exact` (fp family) supplies exact values the kernel could not.
uint64_t accumulate_emitted(const fmt::QTensor& A, const fmt::QTensor& B, const GemmSpec& s, const tile::Call& c,
                            size_t mr, size_t nr, const FpExactSum* fp_exact, float* C) {
  uint64_t fix = 0;
  const bool kulisch = s.acc.kind == AccSpec::kulisch;
  Accumulator acc(s.acc);
  for (size_t r = 0; r < c.rows; ++r) {
    for (size_t j = 0; j < c.cols; ++j) {
      const size_t m = c.m0 + r, n = c.n0 + j;
      acc.reset(0.0f);
      for (size_t blk = 0; blk < c.nblk; ++blk) {
        const size_t i = (blk * mr + r) * nr + j;
        const uint8_t ok = c.emit_ok[i];
        DotResult d;
        if (ok == tile::kExact || (ok == tile::kRounds && !kulisch)) {
          d.value = static_cast<float>(c.emit_val[i]);
          if (kulisch) d.exact = exact_from_double(c.emit_val[i]);
        } else if (ok == tile::kRounds && fp_exact && (*fp_exact)(m, n, blk, d.exact)) {
          d.value = static_cast<float>(c.emit_val[i]);
        } else {
          d = unit_dot(A, m, B, n, blk, s);
          ++fix;
        }
        acc.add(d);
      }
      C[m * B.rows + n] = epilogue(acc.result(), A, B);
    }
  }
  return fix;
}

// The (row tile x panel) loop shared by both families. `run(call, tile_row, panel)` runs one
// tile; `a_row_bytes` is the packed size of one A row, which sets the row block below.
template <class Run>
uint64_t for_each_tile(const fmt::QTensor& A, const fmt::QTensor& B, const GemmSpec& s, size_t mr, size_t nr,
                       size_t nblk, size_t a_row_bytes, const FpExactSum* fp_exact, float* C, CpuPath* path,
                       std::atomic<uint64_t>& slow_lanes, Run&& run) {
  const size_t M = A.rows, N = B.rows, mt = (M + mr - 1) / mr, panels = (N + nr - 1) / nr;
  // Rows in blocks of about 512 KiB of packed A (it stays in L2 while every B panel streams
  // past it once); within a block, panel by panel (the panel stays in L1/L2 while the
  // block's row tiles use it).
  const size_t bt = std::max<size_t>(1, std::min(mt, (size_t{512} << 10) / std::max<size_t>(1, a_row_bytes * mr)));
  const bool emit = s.acc.kind != AccSpec::fp32;
  const FixupCtx ctx{&A, &B, &s};
  std::atomic<uint64_t> fixups{0};
  // Work items are handed out in order from a shared counter, a few at a time, instead of one
  // fixed half per thread: a thread the OS descheduled (other jobs) or that hit slow blocks
  // (exact fallbacks) does not hold the others up. Every item writes only its own outputs, so
  // the result is the same for any assignment of items to threads.
  const size_t items = panels * mt, threads = std::min<size_t>(resolve_threads(s.threads), items);
  const size_t grab = std::max<size_t>(1, std::min<size_t>(16, items / (threads * 32)));
  std::atomic<size_t> next{0};
  auto body = [&](size_t, size_t) {
    std::vector<double> val(emit ? nblk * mr * nr : 0);
    std::vector<uint8_t> ok(emit ? nblk * mr * nr : 0);
    uint64_t fix = 0, slow = 0;
    for (size_t i0; (i0 = next.fetch_add(grab)) < items;)
      for (size_t i = i0; i < std::min(items, i0 + grab); ++i) {
        // Item i: row block i / (bt * panels) (the last one may be shorter), then panel, then tile.
        const size_t blk0 = i / (bt * panels) * bt, rows_here = std::min(bt, mt - blk0);
        const size_t rest = i - blk0 * panels, p = rest / rows_here, t = blk0 + rest % rows_here;
        tile::Call c;
        c.K = A.padded_cols;
        c.nblk = nblk;
        c.m0 = t * mr;
        c.n0 = p * nr;
        c.rows = std::min(mr, M - c.m0);
        c.cols = std::min(nr, N - c.n0);
        c.emit = emit;
        c.C = C;
        c.ldc = N;
        c.alpha = fmt::format_traits(s.format).tensor_scale ? A.tensor_scale * B.tensor_scale : 1.0f;
        c.emit_val = val.data();
        c.emit_ok = ok.data();
        c.fixup = &fixup_unit;
        c.fixup_ctx = &ctx;
        c.fixups = &fix;
        c.slow_lanes = &slow;
        run(c, t, p);
        if (emit) fix += accumulate_emitted(A, B, s, c, mr, nr, fp_exact, C);
      }
    fixups += fix;
    slow_lanes += slow;
  };
  CpuRegion region(path);
  parallel_for(threads, static_cast<unsigned>(threads), region.wrap(body));
  return fixups.load();
}

// Marks the end of the packing phase; the rest of a tiled GEMM is the tiles phase.
struct PhaseClock {
  using clock = std::chrono::steady_clock;
  clock::time_point start = clock::now(), packed_at = start;
  CpuPath path;
  std::atomic<uint64_t> slow_lanes{0};  // GemmRunInfo::slow_scale_blocks
  uint64_t wide_blocks = 0;              // GemmRunInfo::fpi_wide_blocks
  bool fp_integer = false;               // GemmRunInfo::fp_integer
  void packed() { packed_at = clock::now(); }
};

// tile::kFpiMaxWideShare, or HIFSIM_FPI_WIDE_SHARE when set (tests force the int16 kernel with 2, the double one with -1).
double fpi_max_wide_share() {
  const char* e = std::getenv("HIFSIM_FPI_WIDE_SHARE");
  return e && *e ? std::atof(e) : tile::kFpiMaxWideShare;
}

// The fp family on integers (gemm_kernels_fpi.hpp), operands packed: blocks the kernel cannot
// prove are summed exactly in scalar code (gemm_fpi_exact.hpp: counted as slow blocks) or by the unit.
uint64_t fpi_tiles(const fmt::QTensor& A, const fmt::QTensor& B, const GemmSpec& s, const GemmFormatRecord& rec,
                   const FpPackParams& pp, const tile::VariantKernels& vk, const PackedFpiA& pa, const PackedFpiB& pb,
                   float* C, PhaseClock& clk) {
  const size_t K = A.padded_cols, nblk = K / static_cast<size_t>(pp.width);
  const size_t mr = static_cast<size_t>(vk.fpi_mr), nr = static_cast<size_t>(vk.fpi_nr);
  clk.packed();
  clk.fp_integer = true;
  std::atomic<uint64_t> unit_calls{0};
  const FpiExact exact{&A, &B, &s, pp.width, rec.pbits, pp.window, pp.mx_scaled, &unit_calls};
  clk.slow_lanes += for_each_tile(A, B, s, mr, nr, nblk, K * sizeof(int16_t), nullptr, C, &clk.path, clk.slow_lanes,
                                  [&](tile::Call c, size_t t, size_t p) {
                                    c.width = pp.width;
                                    c.fixup = &fpi_exact_block;
                                    c.fixup_ctx = &exact;
                                    vk.fpi(c, pa.at(t * mr, K, nblk), pb.panel(p, nr, K, nblk));
                                  });
  return unit_calls.load();
}

uint64_t tiled(const fmt::QTensor& A, const fmt::QTensor& B, const GemmSpec& s, CpuVariant v, float* C,
               PhaseClock& clk) {
  const GemmFormatRecord& rec = gemm_format_record(s.format);
  const tile::VariantKernels& vk = kernels_of(v);
  const size_t K = A.padded_cols, w = static_cast<size_t>(dot_width(s)), nblk = K / w;
  if (rec.family != KernelFamily::fp) {
    const bool hif4 = rec.family == KernelFamily::hif4;
    const size_t mr = static_cast<size_t>(hif4 ? vk.int8_mr : vk.nvfp_mr);
    const size_t nr = static_cast<size_t>(hif4 ? vk.int8_nr : vk.nvfp_nr);
    const size_t nsub = K / (rec.family == KernelFamily::nvfp4 ? 16 : rec.family == KernelFamily::mxfp4 ? 32 : 64);
    const PackedInt8A pa = pack_int8_a(A, rec.family, vk, mr, s.threads, &clk.path);
    const PackedInt8B pb = pack_int8_b(B, rec.family, vk, nr, s.threads, &clk.path);
    clk.packed();
    const tile::Int8Kernel kernel = hif4 ? vk.hif4 : rec.family == KernelFamily::nvfp4 ? vk.nvfp4 : vk.mxfp4;
    const uint64_t fixups = for_each_tile(A, B, s, mr, nr, nblk, K, nullptr, C, &clk.path, clk.slow_lanes,
                                          [&](const tile::Call& c, size_t t, size_t p) {
                                            kernel(c, pa.at(t * mr, K, nblk, nsub), pb.panel(p, nr, K, nblk, nsub));
                                          });
    if (vk.end_of_gemm) vk.end_of_gemm();
    return fixups;
  }
  FpPackParams pp;
  pp.element = rec.traits->element;
  pp.mx_scaled = rec.mx_scaled;
  pp.width = static_cast<int>(w);
  pp.pbits = rec.pbits;
  const AlignSpec align = effective_align(s);
  pp.window = rec.windowed ? align.width : 0;
  const bool narrow = pp.window > 0 && pp.window <= tile::max_double_window(pp.width);
  // The int16 kernel keeps every product of two int16 forms whole only when the window spans
  // 2 kFpiMaxD binades beyond the products' own bits (gemm_kernels_fpi.hpp); every window that is
  // not narrow does (W >= 47, P <= 16), so this holds by construction and is checked, not assumed.
  const bool fpi_window_ok = pp.window == 0 || pp.window - rec.pbits >= 2 * tile::kFpiMaxD;
  // The int16 kernel unless a sample of the operands says too many outputs would leave it
  // (tile::kFpiMaxWideShare): then the double kernel below (the same bits, faster there).
  if (!narrow && fpi_window_ok && s.acc.kind == AccSpec::fp32 && vk.fpi && rec.integer_kernel &&
      fpi_wide_share(A, pp) + fpi_wide_share(B, pp) <= fpi_max_wide_share()) {
    const size_t mr = static_cast<size_t>(vk.fpi_mr), nr = static_cast<size_t>(vk.fpi_nr);
    const PackedFpiA pa = pack_fpi_a(A, pp, mr, s.threads, &clk.path);
    const PackedFpiB pb = pack_fpi_b(B, pp, nr, s.threads, &clk.path);
    clk.wide_blocks = pa.wide_blocks + pb.wide_blocks;
    return fpi_tiles(A, B, s, rec, pp, vk, pa, pb, C, clk);
  }
  if (narrow) {
    // Narrow window: the windowed sum itself, exactly (the check below would fail on most blocks).
    pp.exponents = true;
    const size_t mr = static_cast<size_t>(vk.fpw_mr), nr = static_cast<size_t>(vk.fpw_nr);
    const PackedFpA pa = pack_fp_a(A, pp, mr, s.threads, &clk.path);
    const PackedFpB pb = pack_fp_b(B, pp, nr, s.threads, &clk.path);
    clk.packed();
    const bool sticky = align.policy == AlignPolicy::sticky;
    const tile::FpKernel kernel = sticky ? vk.fp_window_sticky : vk.fp_window_trunc;
    return for_each_tile(A, B, s, mr, nr, nblk, 2 * K * sizeof(double), nullptr, C, &clk.path, clk.slow_lanes, [&](tile::Call c, size_t t, size_t p) {
      c.width = pp.width;
      c.window_width = pp.window;
      c.pbits = rec.pbits;
      kernel(c, pa.at(t * mr, K, nblk), pb.panel(p, nr, K, nblk));
    });
  }
  const size_t mr = static_cast<size_t>(vk.fp_mr), nr = static_cast<size_t>(vk.fp_nr);
  const PackedFpA pa = pack_fp_a(A, pp, mr, s.threads, &clk.path);
  const PackedFpB pb = pack_fp_b(B, pp, nr, s.threads, &clk.path);
  clk.packed();
  // Exact double sum: products (< 2^pbits each, w of them) spanning at most
  // 53 - pbits - log2(w) bits of exponent; with a window W, nothing dropped: span + pbits <= W.
  int max_span = 53 - rec.pbits - ceil_log2(pp.width);
  if (pp.window > 0) max_span = std::min(max_span, pp.window - rec.pbits);
  const double exact_limit = max_span < 0 ? 0.5 : std::ldexp(1.0, max_span);
  const tile::FpKernel kernel = rec.exact_double_sum ? vk.fp_exact : vk.fp_checked;
  const FpExactSum fp_exact{&pa, &pb, mr, nr, K, nblk, pp.width, pp.window, rec.pbits};
  return for_each_tile(A, B, s, mr, nr, nblk, K * sizeof(double), &fp_exact, C, &clk.path, clk.slow_lanes, [&](tile::Call c, size_t t, size_t p) {
    c.width = pp.width;
    c.check = !rec.exact_double_sum;
    c.window = pp.window > 0;
    c.exact_limit = exact_limit;
    kernel(c, pa.at(t * mr, K, nblk), pb.panel(p, nr, K, nblk));
  });
}

}  // namespace

uint64_t gemm_tiled(const fmt::QTensor& A, const fmt::QTensor& B, const GemmSpec& s, CpuVariant v, float* C,
                    GemmRunInfo* ri) {
  PhaseClock clk;
  const uint64_t fixups = tiled(A, B, s, v, C, clk);
  const auto end = PhaseClock::clock::now();
  if (ri) {
    ri->pack_seconds = std::chrono::duration<double>(clk.packed_at - clk.start).count();
    ri->tiles_seconds = std::chrono::duration<double>(end - clk.packed_at).count();
    ri->worker_cpu_seconds = clk.path.workers;
    ri->slow_scale_blocks = clk.slow_lanes.load();
    ri->fpi_wide_blocks = clk.wide_blocks;
    ri->fp_integer = clk.fp_integer;
  }
  return fixups;
}

}  // namespace hifsim::dp
