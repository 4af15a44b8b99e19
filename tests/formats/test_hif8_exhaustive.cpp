// Exhaustive: HiF8 encode of all 2^32 FP32 bit patterns against the simple reference
// (reference.hpp), TA default and TA saturating. Label `exhaustive` (not in the default suite):
//   ctest --test-dir build -L exhaustive --output-on-failure
// Multithreaded (HIFSIM_TEST_THREADS, default all cores); a few minutes on 2 cores.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "formats/bits.hpp"
#include "formats/hif8.hpp"
#include "reference.hpp"

using namespace hifsim::fmt;

TEST(Hif8Exhaustive, AllFloat32PatternsTAAndSaturating) {
  unsigned threads = std::thread::hardware_concurrency();
  if (const char* t = std::getenv("HIFSIM_TEST_THREADS")) threads = static_cast<unsigned>(std::atoi(t));
  if (threads == 0) threads = 1;
  ref::hif8_grid();  // load the table before the threads start
  std::atomic<uint64_t> mismatches{0};
  std::atomic<uint32_t> first{0};
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<std::thread> pool;
  const uint64_t total = uint64_t{1} << 32;
  for (unsigned w = 0; w < threads; ++w) {
    pool.emplace_back([&, w] {
      Hif8Encode sat;
      sat.saturate = true;
      ref::Hif8Opts rsat;
      rsat.saturate = true;
      uint64_t bad = 0;
      for (uint64_t i = w; i < total; i += threads) {
        const uint32_t b = static_cast<uint32_t>(i);
        const float x = bits_f32(b);
        const uint8_t ta = hif8_encode(x);
        const uint8_t want = ref::hif8_encode(x);
        bool ok = ta == want;
        // Saturation only changes results that overflow or are Inf: check those against the
        // reference, and that everything else is unchanged.
        const uint8_t s = hif8_encode(x, sat);
        if ((want & 0x7F) == 0x6F) ok = ok && s == ref::hif8_encode(x, rsat);
        else ok = ok && s == ta;
        if (!ok && bad++ == 0) first = b;
      }
      mismatches += bad;
    });
  }
  for (auto& t : pool) t.join();
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("hif8 exhaustive: 2^32 patterns x {TA, saturating}, %u threads, %.1f s\n", threads, secs);
  EXPECT_EQ(mismatches.load(), 0u) << "first mismatch at FP32 pattern 0x" << std::hex << first.load();
}
