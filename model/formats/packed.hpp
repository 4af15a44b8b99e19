// Packed storage of a quantized tensor (the file `hifsim quantize --codes` writes).
//
//   "HIFSIMQ1"                      8-byte magic
//   uint32 little-endian H          header length
//   H bytes of ASCII "key=value\n"  format, rows, cols, padded_cols, block, record_bytes, tensor_scale
//   rows x (padded_cols / block) records, row-major, each record_bytes long:
//     hif4        36 B: layout (A) -- E6M2, E1_8, E1_16 (LE), 32 B elements (element 2i low nibble)
//     mxfp4       17 B: E8M0 scale, 16 B elements (2i low nibble)
//     mxfp8-*     33 B: E8M0 scale, 32 element bytes
//     nvfp4        9 B: E4M3 scale, 8 B elements (2i low nibble); tensor_scale = FP32 decode scale
//     hif8, fp8-*  1 B per element; bf16 2 B per element (little-endian)
// docs/formats.md describes the same layout.
#pragma once
#include <string>

#include "formats/tensor.hpp"

namespace hifsim::fmt {

size_t packed_record_bytes(Format f);
std::string pack_tensor(const QTensor& q);
// Throws hifsim::Error naming `where` for a malformed container.
QTensor unpack_tensor(const std::string& bytes, const std::string& where);

}  // namespace hifsim::fmt
