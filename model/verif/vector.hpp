// One verification vector: the stimulus of one transaction (or of one sequence of dependent
// transactions) as 32-bit words, word 0 first, in the layout of the unit's bench
// (model/verif/<unit>_bench.hpp), plus the index of the stimulus source that made it.
#pragma once
#include <cstdint>
#include <vector>

namespace hifsim::verif {

struct Vector {
  std::vector<uint32_t> w;
  int source = 0;  // index into the bench's source names
};

}  // namespace hifsim::verif
