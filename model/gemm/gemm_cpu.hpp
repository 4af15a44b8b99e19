// Run-time choice of the GEMM kernel variant (docs/performance.md, "Kernel variants").
//
// Each variant is a translation unit compiled with its own target flags (gemm_variant_*.cpp);
// which one runs is decided here, at run time, from CPUID and XGETBV -- never from the flags
// this library was compiled with -- so one binary runs on an AVX2-only EPYC and uses AVX-512
// VNNI on a Xeon. Every variant gives the same bits (tests/datapath/test_gemm_kernels.cpp).
//
//   portable  plain C++ (any CPU)
//   avx2      AVX2 + FMA: int8 dots with vpmaddubsw/vpmaddwd, 4-wide double
//   avxvnni   AVX2 + FMA + AVX-VNNI: the avx2 kernels with ymm vpdpbusd/vpdpwssd (Alder Lake
//             and later, Zen 5; also Xeons that have AVX-512, where avx512 is the default)
//   avx512    AVX-512 F/BW/DQ/VL + VNNI: int8 dots with vpdpbusd, 8-wide double
//   amx       avx512 + AMX-TILE/AMX-INT8 (Sapphire Rapids and later): HiF4's block dot products
//             on the tile unit (tdpbsud), everything else as avx512
//
// HIFSIM_KERNEL=portable|avx2|avxvnni|avx512|amx forces a variant for the whole process (tests and
// benchmarks use it); asking for one this CPU cannot run is an error, never a silent fallback.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace hifsim::dp {

enum class CpuVariant { portable, avx2, avxvnni, avx512, amx };

// Every variant, slowest first: the order of tests, benchmarks and the automatic choice (the
// last runnable one).
constexpr CpuVariant kAllVariants[] = {CpuVariant::portable, CpuVariant::avx2, CpuVariant::avxvnni,
                                       CpuVariant::avx512, CpuVariant::amx};

const char* variant_name(CpuVariant v);
std::optional<CpuVariant> parse_variant(const std::string& name);
// Built into this binary (x86-64 builds have all of them; other targets only portable).
bool variant_compiled(CpuVariant v);
// Built in and runnable on this CPU (CPUID feature bits and OS-enabled register state).
bool variant_runnable(CpuVariant v);
// Why a variant cannot run here ("" when it can), for skip messages.
std::string variant_unavailable_reason(CpuVariant v);
// Every runnable variant, portable first.
std::vector<CpuVariant> runnable_variants();
// The variant `automatic` uses: HIFSIM_KERNEL when set (validated; throws hifsim::Error
// naming the variable when it is unknown or not runnable), else the fastest runnable one.
CpuVariant automatic_variant();
// One line naming the CPU and the features found, e.g. for benchmark headers.
std::string cpu_description();

}  // namespace hifsim::dp
