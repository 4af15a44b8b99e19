// Refusing a computation that cannot fit in this machine's memory, with a message that says so,
// instead of an "internal error: std::bad_alloc" after minutes (or the OOM killer). Sizes are
// computed by the caller with checked arithmetic (util/checked.hpp); a size that overflowed is
// passed as UINT64_MAX.
#pragma once
#include <cstdint>
#include <string>

namespace hifsim {

// Physical memory of this machine in bytes (sysconf); 0 when unknown (then nothing is refused).
uint64_t physical_memory_bytes();

// Throws hifsim::Error(where, field, "<what> needs X GiB, this machine has Y GiB" + hint) when
// `bytes` exceeds the physical memory.
void require_memory(uint64_t bytes, const std::string& where, const std::string& field, const std::string& what,
                    const std::string& hint = "");

}  // namespace hifsim
