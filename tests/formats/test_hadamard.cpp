// The random Hadamard transform (formats/hadamard.hpp, docs/training.md): the vectorised transform
// bit-identical to the definition written out (every N, both instruction-set paths, in place and
// not, row counts that are not a multiple of the 8-row tile); the sign vector from the stream; the
// matrix is orthogonal (applying the unsigned transform twice gives the input back exactly on
// small integers); a K that is not a multiple of N is refused.
// Mutations shown failing: butterfly (a - b) -> (b - a) in the vectorised kernel only; the 1/sqrt(32)
// constant 0x3E3504F3 -> 0x3E3504F4; in the transposing kernel, the sign of element j taken from
// bit j + 1 and the store of a column one element along (t0 + jb + 1).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "formats/bits.hpp"
#include "formats/hadamard.hpp"
#include "formats/qdq_fast.hpp"
#include "formats/stochastic.hpp"
#include "reference.hpp"
#include "util/error.hpp"

using namespace hifsim::fmt;

namespace {

TEST(Hadamard, TransposingTransformMatchesDefinitionBitForBit) {
  // rht_transpose_fast (wgrad's operands): t = the definition applied to the rows of x's transpose,
  // for every N, signs on and off, 1 and 3 threads, column counts of one and several 8-strips;
  // declined (nothing written) where it does not apply.
  ref::Gen g(ref::test_seed() + 410);
  const size_t rows = 192;
  for (size_t cols : {size_t{8}, size_t{40}}) {
    std::vector<float> x(rows * cols), xt(rows * cols);
    for (auto& v : x) v = bits_f32((g.u32() & 0x807FFFFFu) | ((100 + static_cast<uint32_t>(g.next() % 50)) << 23));
    for (size_t r = 0; r < rows; ++r)
      for (size_t c = 0; c < cols; ++c) xt[c * rows + r] = x[r * cols + c];
    for (unsigned n : {16u, 32u, 64u})
      for (RhtSigns sg : {RhtSigns::random, RhtSigns::none}) {
        const RhtSpec s{n, 5, sg};
        std::vector<float> want(x.size()), got(x.size());
        rht_rows_reference(s, xt.data(), want.data(), cols, rows);
        qdq_fast_set_isa(QdqIsa::portable);
        EXPECT_FALSE(rht_transpose_fast(s, x.data(), got.data(), rows, cols, 1)) << "portable: the caller's two passes";
        qdq_fast_set_isa(QdqIsa::automatic);
        if (!qdq_fast_cpu_has_avx2()) continue;
        for (unsigned threads : {1u, 3u}) {
          std::fill(got.begin(), got.end(), 0.0f);
          ASSERT_TRUE(rht_transpose_fast(s, x.data(), got.data(), rows, cols, threads));
          EXPECT_EQ(0, std::memcmp(want.data(), got.data(), x.size() * 4)) << "N " << n << " cols " << cols;
        }
      }
  }
  std::vector<float> x(64 * 12), t(64 * 12);
  EXPECT_FALSE(rht_transpose_fast(RhtSpec{16, 5, RhtSigns::random}, x.data(), t.data(), 64, 12));  // 12 columns
  EXPECT_FALSE(rht_transpose_fast(RhtSpec{}, x.data(), t.data(), 64, 12));                         // off
  EXPECT_THROW(rht_transpose_fast(RhtSpec{16, 5, RhtSigns::random}, x.data(), t.data(), 40, 8), hifsim::Error);
}

TEST(Hadamard, VectorisedMatchesDefinitionBitForBit) {
  ref::Gen g(ref::test_seed() + 400);
  const size_t rows = 21, cols = 192;
  std::vector<float> x(rows * cols);
  for (auto& v : x) v = bits_f32((g.u32() & 0x807FFFFFu) | ((100 + static_cast<uint32_t>(g.next() % 50)) << 23));
  for (unsigned n : {16u, 32u, 64u})
    for (RhtSigns sg : {RhtSigns::random, RhtSigns::none})
      for (QdqIsa isa : {QdqIsa::portable, QdqIsa::avx2}) {
        if (isa == QdqIsa::avx2 && !qdq_fast_cpu_has_avx2()) continue;
        qdq_fast_set_isa(isa);
        const RhtSpec s{n, 5, sg};
        std::vector<float> want(x.size()), got(x.size()), inplace = x;
        rht_rows_reference(s, x.data(), want.data(), rows, cols);
        for (unsigned threads : {1u, 3u}) {
          rht_rows(s, x.data(), got.data(), rows, cols, threads);
          EXPECT_EQ(0, std::memcmp(want.data(), got.data(), x.size() * 4)) << "N " << n << " " << qdq_isa_name(isa);
        }
        rht_rows(s, inplace.data(), inplace.data(), rows, cols, 2);
        EXPECT_EQ(0, std::memcmp(want.data(), inplace.data(), x.size() * 4)) << "in place, N " << n;
      }
  qdq_fast_set_isa(QdqIsa::automatic);
}

TEST(Hadamard, SignsComeFromTheStream) {
  const RhtSpec s{16, 77, RhtSigns::random};
  EXPECT_EQ(rht_sign_bits(s), threefry2x32_20(77, 0, kRhtStream) & 0xFFFF);
  EXPECT_EQ(rht_sign_bits(RhtSpec{64, 77, RhtSigns::random}), threefry2x32_20(77, 0, kRhtStream));
  EXPECT_EQ(rht_sign_bits(RhtSpec{64, 77, RhtSigns::none}), 0u);
  // A unit vector e_j becomes sign_j * column j of H / 4: every entry +-1/4.
  std::vector<float> e(16, 0.0f), y(16);
  e[5] = 1.0f;
  rht_rows_reference(s, e.data(), y.data(), 1, 16);
  const float s5 = ((rht_sign_bits(s) >> 5) & 1) ? -1.0f : 1.0f;
  for (int i = 0; i < 16; ++i) EXPECT_EQ(y[i], s5 * (__builtin_popcount(i & 5) & 1 ? -0.25f : 0.25f)) << i;
}

TEST(Hadamard, UnsignedTransformIsItsOwnInverse) {
  ref::Gen g(ref::test_seed() + 401);
  for (unsigned n : {16u, 64u}) {  // c_N exact: integers stay exact through both passes
    std::vector<float> x(3 * n), y(3 * n), z(3 * n);
    for (auto& v : x) v = static_cast<float>(static_cast<int>(g.next() % 200) - 100);
    const RhtSpec s{n, 0, RhtSigns::none};
    rht_rows(s, x.data(), y.data(), 3, n);
    rht_rows(s, y.data(), z.data(), 3, n);
    EXPECT_EQ(x, z) << n;
  }
  // N = 32 rounds c_32 = RNE(1/sqrt(32)) = 0x3E3504F3.
  EXPECT_EQ(f32_bits(rht_scale(32)), 0x3E3504F3u);
}

TEST(Hadamard, BadSizeOrKIsRefused) {
  std::vector<float> x(48);
  EXPECT_THROW(rht_rows(RhtSpec{16, 0}, x.data(), x.data(), 1, 40), hifsim::Error);
  EXPECT_THROW(rht_rows(RhtSpec{8, 0}, x.data(), x.data(), 1, 48), hifsim::Error);
  try {
    validate_rht(RhtSpec{32, 0}, 48, "a.npy");
    FAIL();
  } catch (const hifsim::Error& e) {
    EXPECT_NE(std::string(e.what()).find("K = 48 is not a multiple of the Hadamard size 32"), std::string::npos) << e.what();
  }
}

}  // namespace
