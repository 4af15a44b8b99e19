/* A small C interface to hifsim's format and datapath models, for Python (ctypes) and other
 * languages: scripts/hifsim_lib.py wraps it for numpy. Every function returns 0 on success and
 * otherwise writes a one-line message (file/field/reason style) into err. */
#ifndef HIFSIM_C_H
#define HIFSIM_C_H
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* y = dequantize(quantize(x)) for a rows x cols row-major float32 array, blocks along rows.
 * rounding may be NULL (the format's default). */
int hifsim_qdq(const char* format, const float* x, float* y, size_t rows, size_t cols, const char* rounding,
               unsigned threads, char* err, size_t errlen);

/* Fake-quantized activation with the Rollout-ResQ residual: y = deq(Q(x)) + deq(S(Q(R))),
 * R = RNE_bf16(x - deq(Q(x))); residual is "dense", "2:4" or "top50" ("none" gives hifsim_qdq). */
int hifsim_qdq_residual(const char* format, const char* residual, const float* x, float* y, size_t rows, size_t cols,
                        unsigned threads, char* err, size_t errlen);

/* c (M x N) = a (M x K) * b (N x K)^T through the bit-exact GEMM engine. acc may be NULL ("fp32"). */
int hifsim_gemm(const char* format, const float* a, size_t M, size_t K, const float* b, size_t N, float* c,
                const char* acc, unsigned threads, char* err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
