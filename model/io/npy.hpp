// .npy reading and writing (NumPy format versions 1.0, 2.0 and 3.0).
//
// Accepted: little-endian float32 ('<f4'), uint8 ('|u1') and uint16 ('<u2'), C order. Anything else,
// a truncated file or a corrupt header is an hifsim::Error naming the file, the field
// and the reason. The reader (npy_read.cpp) takes regular files only (io/input_file.hpp), parses
// the header dict strictly (exactly the keys descr, fortran_order, shape, each once; header at
// most kNpyMaxHeader bytes) and checks the size the shape declares against the file before it
// allocates anything. Writes go to a temporary file that is renamed into place only when
// complete, so a failed command never leaves a partial output behind.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "util/uninit_buffer.hpp"

namespace hifsim::io {

enum class NpyDtype { float32, uint8, uint16 };

struct NpyArray {
  NpyDtype dtype = NpyDtype::float32;
  std::vector<size_t> shape;  // empty shape = scalar (one element)
  std::vector<float> f32;     // filled when dtype == float32
  std::vector<uint8_t> u8;    // filled when dtype == uint8
  std::vector<uint16_t> u16;  // filled when dtype == uint16
  size_t size() const;        // number of elements
};

// NumPy's own reader refuses headers above 10,000 bytes unless told otherwise; 64 KiB is far
// above any real header (32 dimensions need < 700 bytes) and bounds what a corrupt length
// field can make us read before the header is even parsed.
inline constexpr size_t kNpyMaxHeader = 65536;

NpyArray read_npy(const std::string& path);
// The same from bytes in memory (`where` names them in errors): the fuzz harness's entry point.
NpyArray parse_npy(const std::string& bytes, const std::string& where);
// Convenience: read and require float32.
NpyArray read_npy_f32(const std::string& path);
// The same into uninitialized storage (util/uninit_buffer.hpp): the same checks, errors and
// content hash, without the zero fill of NpyArray's vector (a pass over the array that the read
// overwrites at once, and serial page faults: issue 27's whole-command cost).
struct NpyF32 {
  std::vector<size_t> shape;
  UninitBuffer<float> values;
};
// `storage` is used when it has the capacity (no fresh pages: `hifsim gemm` reads B into A's
// buffer once A is quantized; a page the process touches first costs far more than the copy).
NpyF32 read_npy_f32_uninit(const std::string& path, UninitBuffer<float> storage = {});

void write_npy(const std::string& path, const std::vector<size_t>& shape, const float* data);
void write_npy(const std::string& path, const std::vector<size_t>& shape, const uint8_t* data);
void write_npy(const std::string& path, const std::vector<size_t>& shape, const uint16_t* data);

// hifsim::write_file_atomic (util/files.hpp): unique temporary name, atomic rename, never
// replaces anything that is not a regular file.
void write_file_atomic(const std::string& path, const std::string& bytes);

// Product of the dimensions, SIZE_MAX when it overflows.
size_t npy_element_count(const std::vector<size_t>& shape);
std::string shape_str(const std::vector<size_t>& shape);
const char* dtype_name(NpyDtype d);  // "float32", "uint8", "uint16"

}  // namespace hifsim::io
