#include "gemm/gemm_cpu.hpp"

#include <cstdlib>
#include <iterator>
#include <cstring>

#if defined(__linux__)
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "util/error.hpp"

#if defined(__x86_64__) || defined(_M_X64)
#include <cpuid.h>
#define HIFSIM_X86 1
#else
#define HIFSIM_X86 0
#endif

namespace hifsim::dp {

namespace {

struct Features {
  bool avx2 = false, fma = false, avx512f = false, avx512bw = false, avx512dq = false, avx512vl = false,
       avx512vnni = false, avxvnni = false, amx_tile = false, amx_int8 = false, os_ymm = false, os_zmm = false,
       os_tile = false;
  std::string brand;
};

#if HIFSIM_X86
// XGETBV without -mxsave: the OS saves the register state a variant needs (XCR0 bits
// 1-2 for YMM, 5-7 for the AVX-512 opmask and ZMM state, 17-18 for the AMX tile state).
unsigned long long xgetbv0() {
  unsigned eax, edx;
  __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
  return (static_cast<unsigned long long>(edx) << 32) | eax;
}
#endif

Features detect() {
  Features f;
#if HIFSIM_X86
  unsigned a, b, c, d;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return f;
  const bool osxsave = (c >> 27) & 1;
  f.fma = (c >> 12) & 1;
  if (osxsave) {
    const unsigned long long xcr0 = xgetbv0();
    f.os_ymm = (xcr0 & 0x6) == 0x6;
    f.os_zmm = f.os_ymm && (xcr0 & 0xE0) == 0xE0;
    f.os_tile = f.os_zmm && ((xcr0 >> 17) & 3) == 3;
  }
  if (__get_cpuid_count(7, 0, &a, &b, &c, &d)) {
    f.avx2 = (b >> 5) & 1;
    f.avx512f = (b >> 16) & 1;
    f.avx512dq = (b >> 17) & 1;
    f.avx512bw = (b >> 30) & 1;
    f.avx512vl = (b >> 31) & 1;
    f.avx512vnni = (c >> 11) & 1;
    f.amx_tile = (d >> 24) & 1;
    f.amx_int8 = (d >> 25) & 1;
    unsigned a1, b1, c1, d1;
    if (a >= 1 && __get_cpuid_count(7, 1, &a1, &b1, &c1, &d1)) f.avxvnni = (a1 >> 4) & 1;
  }
  unsigned max_ext = __get_cpuid_max(0x80000000u, nullptr);
  if (max_ext >= 0x80000004u) {
    char brand[49] = {};
    for (unsigned i = 0; i < 3; ++i) {
      unsigned r[4];
      __get_cpuid(0x80000002u + i, &r[0], &r[1], &r[2], &r[3]);
      std::memcpy(brand + 16 * i, r, 16);
    }
    f.brand = brand;
    while (!f.brand.empty() && f.brand.front() == ' ') f.brand.erase(f.brand.begin());
  }
#endif
  return f;
}

const Features& features() {
  static const Features f = detect();
  return f;
}

// Linux hands a process the AMX tile data state only on request (arch_prctl
// ARCH_REQ_XCOMP_PERM for XFEATURE_XTILEDATA, once per process; threads inherit it). Asked once,
// when a caller first wants to know whether amx can run.
bool os_grants_tile_data() {
#if HIFSIM_X86 && defined(__linux__)
  static const bool granted = syscall(SYS_arch_prctl, 0x1023 /* ARCH_REQ_XCOMP_PERM */, 18 /* XTILEDATA */) == 0;
  return granted;
#else
  return false;
#endif
}

}  // namespace

const char* variant_name(CpuVariant v) {
  switch (v) {
    case CpuVariant::portable: return "portable";
    case CpuVariant::avx2: return "avx2";
    case CpuVariant::avxvnni: return "avxvnni";
    case CpuVariant::avx512: return "avx512";
    case CpuVariant::amx: return "amx";
  }
  return "?";
}

std::optional<CpuVariant> parse_variant(const std::string& name) {
  for (CpuVariant v : kAllVariants)
    if (name == variant_name(v)) return v;
  return std::nullopt;
}

bool variant_compiled(CpuVariant v) {
  if (v == CpuVariant::portable) return true;
  return HIFSIM_HAVE_SIMD_KERNELS != 0;
}

std::string variant_unavailable_reason(CpuVariant v) {
  if (!variant_compiled(v)) return std::string(variant_name(v)) + " kernels are not built for this target";
  const Features& f = features();
  switch (v) {
    case CpuVariant::portable: return "";
    case CpuVariant::avx2:
      if (!f.avx2 || !f.fma) return "the CPU lacks AVX2 or FMA";
      if (!f.os_ymm) return "the OS does not enable the AVX register state (XCR0)";
      return "";
    case CpuVariant::avxvnni:
      if (!f.avx2 || !f.fma) return "the CPU lacks AVX2 or FMA";
      if (!f.avxvnni) return "the CPU lacks AVX-VNNI";
      if (!f.os_ymm) return "the OS does not enable the AVX register state (XCR0)";
      return "";
    case CpuVariant::avx512:
      if (!(f.avx512f && f.avx512bw && f.avx512dq && f.avx512vl)) return "the CPU lacks AVX-512 F/BW/DQ/VL";
      if (!f.avx512vnni) return "the CPU lacks AVX-512 VNNI";
      if (!f.fma || !f.avx2) return "the CPU lacks AVX2 or FMA";
      if (!f.os_zmm) return "the OS does not enable the AVX-512 register state (XCR0)";
      return "";
    case CpuVariant::amx: {
      const std::string base = variant_unavailable_reason(CpuVariant::avx512);
      if (!base.empty()) return base;
      if (!f.amx_tile || !f.amx_int8) return "the CPU lacks AMX-TILE or AMX-INT8";
      if (!f.os_tile) return "the OS does not enable the AMX tile state (XCR0)";
      if (!os_grants_tile_data()) return "the OS refuses the AMX tile data state (arch_prctl ARCH_REQ_XCOMP_PERM)";
      return "";
    }
  }
  return "unknown variant";
}

bool variant_runnable(CpuVariant v) { return variant_unavailable_reason(v).empty(); }

std::vector<CpuVariant> runnable_variants() {
  std::vector<CpuVariant> out;
  for (CpuVariant v : kAllVariants)
    if (variant_runnable(v)) out.push_back(v);
  return out;
}

CpuVariant automatic_variant() {
  if (const char* env = std::getenv("HIFSIM_KERNEL"); env && *env && std::strcmp(env, "auto") != 0) {
    const std::optional<CpuVariant> v = parse_variant(env);
    if (!v) {
      std::string choices = "auto";
      const size_t n = std::size(kAllVariants);
      for (size_t i = 0; i < n; ++i) choices += std::string(i + 1 == n ? " or " : ", ") + variant_name(kAllVariants[i]);
      throw Error("HIFSIM_KERNEL", env, "must be " + choices);
    }
    const std::string why = variant_unavailable_reason(*v);
    if (!why.empty()) throw Error("HIFSIM_KERNEL", env, "cannot run on this machine: " + why);
    return *v;
  }
  return runnable_variants().back();  // portable always runs
}

std::string cpu_description() {
  const Features& f = features();
  std::string s = f.brand.empty() ? std::string("unknown CPU") : f.brand;
  std::string feats;
  auto add = [&](bool on, const char* name) {
    if (!on) return;
    if (!feats.empty()) feats += ' ';
    feats += name;
  };
  add(f.avx2, "avx2");
  add(f.fma, "fma");
  add(f.avx512f, "avx512f");
  add(f.avx512bw, "avx512bw");
  add(f.avx512vnni, "avx512vnni");
  add(f.avxvnni, "avxvnni");
  add(f.amx_tile, "amx-tile");
  add(f.amx_int8, "amx-int8");
  return s + " [" + (feats.empty() ? std::string("no SIMD extensions used by hifsim") : feats) + "]";
}

}  // namespace hifsim::dp
