// Content hashes of the files a run reads and writes (its manifest, util/manifest.hpp): XXH3-64
// (xxHash 0.8, the Debian libxxhash-dev header), 16 hex digits. XXH3 hashes about 10-30 GB/s per
// thread, where the byte-at-a-time FNV-1a it replaces managed about 1 GB/s and was a quarter of a
// 2048^3 `hifsim gemm` process (issue 27).
//
// No extra pass over a file: the .npy reader and write_file_atomic hash the bytes as they move
// (chunk by chunk, while the chunk is in cache) and remember the result for the path together
// with the file's identity (device, inode, size, modification time); file_content_hash() returns
// the remembered value while that identity is unchanged and reads the file only otherwise.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace hifsim {

// Streaming XXH3-64 over bytes fed in order.
class ContentHasher {
 public:
  ContentHasher();
  ~ContentHasher();
  ContentHasher(const ContentHasher&) = delete;
  ContentHasher& operator=(const ContentHasher&) = delete;
  void update(const void* data, size_t n);
  std::string hex() const;  // of everything fed so far

 private:
  struct State;
  std::unique_ptr<State> s_;
};

// XXH3-64 of bytes in memory, as 16 hex digits.
std::string content_hash_hex(const void* data, size_t n);
inline std::string content_hash_hex(const std::string& bytes) { return content_hash_hex(bytes.data(), bytes.size()); }

// The content hash of a file ("missing" if unreadable): remembered from the reader or writer
// that moved its bytes in this process when the file is unchanged since, else read and hashed.
std::string file_content_hash(const std::string& path);
// Records `hex` as the content hash of the file now at `path` (its current identity).
void remember_content_hash(const std::string& path, const std::string& hex);

}  // namespace hifsim
