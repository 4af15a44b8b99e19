// The cost model's coefficient tables (configs/cost/, docs/cost.md "Tables"). Every coefficient
// is an entry {value, unit, source}; the loaders reject a missing entry, an unknown entry, a
// negative or non-numeric value and an entry without a source with hifsim::Error(file, field,
// reason). There are no built-in defaults: a value the model needs comes from a table or the
// command fails.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "cost/area.hpp"
#include "cost/node_units.hpp"

namespace hifsim::cost {

struct Entry {
  double value = 0;
  std::string unit, source;
};

// A flat table: `schema`, optional `node` / `description`, then entries name: {value, unit, source}.
struct Table {
  std::string file, schema, node;
  std::map<std::string, Entry> entries;
  double at(const std::string& name) const;  // throws Error(file, name, "missing entry")
};
Table load_table(const std::string& path, const std::string& schema, const std::vector<std::string>& required);

// SRAM macros by size (configs/cost/sram.yaml): per-byte access energies and area. Sizes between
// two rows are interpolated linearly in log(size) - log(value); a size outside the table is an error.
struct SramRow {
  uint64_t bytes = 0;
  double read_pj_per_byte = 0, write_pj_per_byte = 0, area_mm2 = 0;
  std::string source;
};
struct SramTable {
  std::string file, node;
  std::vector<SramRow> rows;  // increasing bytes
  SramRow at(uint64_t bytes, const std::string& what) const;
};
SramTable load_sram_table(const std::string& path);

// Entry names of each table (docs/cost.md lists them with their meaning).
const std::vector<std::string>& area_entry_names();
const std::vector<std::string>& energy_entry_names();

// Everything the model reads, from one folder.
struct CostTables {
  std::string dir, node;
  Table area, energy;
  SramTable sram;
  AreaCoeffs coeffs;                 // from `area`
  std::string synth_csv;             // dir/synth.csv (the fit's data)
  NodeUnits units;                   // dir/<node>/units.csv: the node's synthesised units (sky130)
};
// Loads dir/area.yaml, dir/energy-<node>.yaml and dir/sram-<node>.yaml (dir/sram.yaml when that does
// not exist), and dir/<node>/units.csv when the node has synthesised units. Node-specific files must name the node.
CostTables load_tables(const std::string& dir, const std::string& node = "45nm");
// $HIFSIM_COST_TABLES, else configs/cost of the installation's data (util/install.hpp).
std::string default_tables_dir();

}  // namespace hifsim::cost
