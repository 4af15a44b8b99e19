// AdamW's second moment in 4 bits the way Li, Chen, Zhu store it (*Memory Efficient Optimizers with
// 4-bit States*, NeurIPS 2023, arXiv 2309.01507, their fix of the "zero-point problem"): a linear
// 4-bit code that excludes zero, T(i) = (i + 1) / 16 for i = 0..15, times a normaliser. Matrices
// (rows > 1) use their rank-1 normaliser n_ij = min(r_i, c_j), r_i and c_j the row and column
// maxima; a vector uses the maximum of each block of 128 (their block-wise normalisation; the
// block size 128 is theirs). Each value takes the nearest code, a tie the larger (our choice: the
// paper does not say). A positive normaliser never stores 0, so no update becomes m / eps
// (docs/training.md, "Optimizer state"). Round-to-nearest, deterministic, element-wise given the
// normalisers.
#pragma once
#include <cstddef>
#include <vector>

namespace hifsim::train {

// v (rows x cols, row-major, v >= 0) replaced by its dequantized 4-bit state.
void linear4_rank1_store(std::vector<float>& v, size_t rows, size_t cols);

}  // namespace hifsim::train
