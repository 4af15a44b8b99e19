// Energy and area of the blocks a training step adds beside the dot-product array (docs/training.md,
// "Training-step timing"): the operand quantizer (round-to-nearest and stochastic rounding), the
// Hadamard unit of the random Hadamard transform and the transpose buffer. Each block is looked up
// by its name in the unit catalog (model/datapath/unit_catalog.hpp): a catalog unit synthesised at
// the cost tables' node gives its gate-level energy per operation (configs/cost/<node>/energy.csv);
// a catalog unit without such a row gives its hardware description's energy at the tables'
// coefficients; a block with no hardware in the catalog yet gets a PROXY ESTIMATE built here from
// the tables' per-operation coefficients, and says so (`proxy`, `source`). The area of one instance
// comes from the same lookup: the synthesised row's cell area (configs/cost/<node>/units.csv), else
// the description's gate equivalents at the tables' coefficients, else the proxy's components.
#pragma once
#include <string>

#include "cost/tables.hpp"
#include "formats/format.hpp"

namespace hifsim::cost {

enum class TrainingBlock { quantize_rn, quantize_sr, hadamard, transpose_buffer };
const char* training_block_name(TrainingBlock b);  // "quantize_rn", "quantize_sr", "hadamard", "transpose_buffer"


struct BlockParams {
  fmt::Format format = fmt::Format::hif4;
  int lanes = 64;             // elements per quantizer operation (the dot width)
  unsigned sr_bits = 8;       // random bits per element (stochastic rounding)
  int rht = 16;               // Hadamard size N
  uint64_t in_bytes = 4;      // bytes of one high-precision element
  uint64_t transpose_tile = 64;
};

struct BlockEnergy {
  TrainingBlock block = TrainingBlock::quantize_rn;
  BlockParams params;         // what it was looked up with
  std::string catalog_unit;   // the name looked up
  bool in_catalog = false;    // priced from the catalog unit (the transpose buffer: only where the
                              // node has a synthesised row of the run's T and W; else its SRAM proxy)
  bool proxy = true;          // the figure is an estimate, not the unit's own hardware (SR: either part)
  std::string source;         // one line: where the figure comes from
  double pj_per_element = 0;  // per element through the block (transpose buffer: per element of in_bytes)
  // One instance of the block, which handles elements_per_op elements per operation (one
  // operation per cycle): its area and where that figure comes from (the same row, description or
  // proxy as the energy; SR: the stochastic part only, the block-scale path is the RN quantizer's).
  double elements_per_op = 0;
  double area_mm2 = 0;
  std::string area_source;
};


// The catalog unit a block is looked up by ("hif4_quantizer", "nvfp4_quantizer", "sr_quantizer",
// "hadamard16", "hadamard32", "transpose_buffer"): one table (training_blocks.cpp), the only place
// to rename.
std::string training_block_unit(TrainingBlock b, const BlockParams& p);

BlockEnergy training_block_energy(const CostTables& t, TrainingBlock b, const BlockParams& p);

}  // namespace hifsim::cost
