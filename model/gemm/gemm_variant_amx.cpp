// The GEMM tile kernels of the amx variant: the avx512 variant's kernels, except HiF4, whose
// 64-element block dot products run on the AMX-INT8 tile unit (see gemm_cpu.hpp; compiled with
// the avx512 flags plus AMX-TILE/AMX-INT8 only, model/gemm/CMakeLists.txt).
//
// One `tdpbsud` multiplies a 16 x 64 tile of A's signed bytes by a 64 x 16 tile of B's unsigned
// bytes (VNNI layout: 16 rows of 4 k per column) and adds the int32 dot products to a 16 x 16 C
// tile. The int8 packing of every variant already has that form: A rows of K bytes, B's panel
// [block][16 groups of 4 k][NR][4] with the bias that makes its codes unsigned, and A's
// per-block correction -bias * sum(codes), added here as in hif4_tile. So per 64-block the tile
// unit gives each output's exact integer I, and the epilogue is hif4_tile's: value = I * (fA * fB),
// exact in FP32, added to the FP32 accumulator in K order (or emitted), the same bits.
#define HIFSIM_VARIANT_NS v_amx
#define HIFSIM_VARIANT_AVX512 1
#include <immintrin.h>

#include "gemm/gemm_kernels_int8.hpp"

namespace hifsim::dp::v_amx {
namespace {

// The tile configuration (palette 1): two sets of (C, A, B) tiles, 0-2 and 3-5, each 16 rows x
// 64 bytes, so that the tile unit computes block blk + 1 while the vector units scale block blk.
struct alignas(64) TileConfig {
  uint8_t palette = 1, start_row = 0;
  uint8_t reserved[14] = {};
  uint16_t colsb[16] = {};
  uint8_t rows[16] = {};
};

// One 16 x 16 output tile: its FP32 accumulators stay in 16 zmm registers.
constexpr int MR = 16, NR = Isa::L;

// The tile configuration is per-thread state: loaded at a thread's first call and kept for the
// GEMM (loading it and releasing the tiles at every call took 14 % of a 4096x4096x512 GEMM in a
// profile: its calls run 8 blocks each). Worker threads end with their GEMM; the
// calling thread releases the tiles at its end (end_of_gemm), so a program that called the engine
// does not carry 8 KB of tile state in every context switch and signal frame afterwards.
thread_local bool configured = false;

void configure_tiles() {
  if (configured) return;
  TileConfig cfg;
  for (int i = 0; i < 6; ++i) {
    cfg.rows[i] = 16;
    cfg.colsb[i] = 64;
  }
  _tile_loadconfig(&cfg);
  configured = true;
}

void release_tiles() {
  if (!configured) return;
  _tile_release();
  configured = false;
}

// Block blk's 16 x 16 integer dot products (bias included) into I, on tile set 0 (tiles 0-2) or
// 1 (3-5). The intrinsics paste their tile numbers into the instruction text, so they must be
// literals: one function per set. GCC's AMX intrinsics are asm statements that do not tell the
// compiler they write memory: the empty asm with a memory clobber after the store keeps it from
// reading I before the tile store or from assuming I unchanged.
#define HIFSIM_AMX_BLOCK_PRODUCTS(NAME, C, A, B)                                                   \
  HIFSIM_INLINE void NAME(const tile::Call& t, const tile::Int8A& a, const tile::Int8B& b, size_t blk, \
                          int32_t(&I)[MR][NR]) {                                                   \
    _tile_zero(C);                                                                               \
    _tile_loadd(A, a.q + blk * 64, t.K);            /* 16 rows of 64 signed codes */             \
    _tile_loadd(B, b.q + blk * 16 * NR * 4, NR * 4); /* 16 groups of 4 k x 16 columns, unsigned */ \
    _tile_dpbsud(C, A, B);                                                                       \
    _tile_stored(C, &I[0][0], NR * 4);                                                           \
    __asm__ volatile("" ::: "memory");                                                           \
  }
HIFSIM_AMX_BLOCK_PRODUCTS(block_products_set0, 0, 1, 2)
HIFSIM_AMX_BLOCK_PRODUCTS(block_products_set1, 3, 4, 5)
#undef HIFSIM_AMX_BLOCK_PRODUCTS

void hif4_tile_amx(const tile::Call& t, const tile::Int8A& a, const tile::Int8B& b) {
  configure_tiles();
  const size_t nblk = t.nblk;
  Isa::VF acc[MR];
  for (int r = 0; r < MR; ++r) acc[r] = Isa::zero_f();
  alignas(64) int32_t I[2][MR][NR];
  if (nblk > 0) block_products_set0(t, a, b, 0, I[0]);
  for (size_t blk = 0; blk < nblk; ++blk) {
    if (blk + 1 < nblk) {
      if ((blk + 1) & 1) block_products_set1(t, a, b, blk + 1, I[1]);
      else block_products_set0(t, a, b, blk + 1, I[0]);
    }
    const int32_t(&Ib)[MR][NR] = I[blk & 1];
    const Isa::VF sb = Isa::load_f(b.fscale + blk * NR);
    const int32_t* corr = a.corr + blk;
    const float* fa = a.fscale + blk;
    if (!t.emit) {
      // Unrolled, so that the 16 accumulators stay in registers.
#pragma GCC unroll 16
      for (int r = 0; r < MR; ++r) {
        const Isa::VF s = Isa::cvt_f(Isa::add_i(Isa::load_i(Ib[r]), Isa::set1_i(corr[r * nblk])));
        acc[r] = Isa::fma_exact_f(s, Isa::mul_f(Isa::set1_f(fa[r * nblk]), sb), acc[r]);  // exact product
      }
    } else {
      for (int r = 0; r < MR; ++r) {
        const Isa::VF s = Isa::cvt_f(Isa::add_i(Isa::load_i(Ib[r]), Isa::set1_i(corr[r * nblk])));
        alignas(64) float val[NR];
        Isa::store_f(val, Isa::mul_f(s, Isa::mul_f(Isa::set1_f(fa[r * nblk]), sb)));
        emit_exact<MR, NR>(t, blk, r, 0, val, NR);
      }
    }
  }
  if (t.emit) return;
  alignas(64) float out[MR * NR];
  for (int r = 0; r < MR; ++r) Isa::store_f(out + r * NR, acc[r]);
  write_c<MR, NR>(t, out);
}

}  // namespace
}  // namespace hifsim::dp::v_amx

namespace hifsim::dp::tile {

const VariantKernels& kernels_amx() {
  // The avx512 table (its kernels are instances of that variant's unit: an AMX CPU runs them),
  // with HiF4 on the tile unit in 16 x 16 output tiles.
  static const VariantKernels k = [] {
    VariantKernels v = kernels_avx512();
    v.name = "amx";
    v.int8_mr = v_amx::MR;
    v.int8_nr = v_amx::NR;
    v.hif4 = &v_amx::hif4_tile_amx;
    v.end_of_gemm = &v_amx::release_tiles;
    return v;
  }();
  return k;
}

}  // namespace hifsim::dp::tile
