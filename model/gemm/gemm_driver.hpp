// The tiled GEMM: packs the operands for the format's kernel family, runs a CPU variant's
// tile kernels over (row tile x column panel) work items on the thread pool, and feeds every
// block result to the accumulator -- inside the kernel for FP32 RNE, here for the others.
#pragma once
#include <cstdint>

#include "gemm/gemm.hpp"
#include "gemm/gemm_cpu.hpp"

namespace hifsim::dp {

// C (M x N) = A Bᵀ with variant v; returns the blocks recomputed by the unit (exact fallback).
// `ri` (may be null) receives the phases' wall-clock times and the worker threads' share of
// the critical path (gemm_cpu_path.hpp).
uint64_t gemm_tiled(const fmt::QTensor& A, const fmt::QTensor& B, const GemmSpec& s, CpuVariant v, float* C,
                    GemmRunInfo* ri = nullptr);

}  // namespace hifsim::dp
