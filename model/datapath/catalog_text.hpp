// The unit catalog (unit_catalog.hpp) as data and as the generated parts of the files that list
// unit variants. Each consumer keeps its own language; the lines between its markers
//   <comment> ---- BEGIN generated from the unit catalog ...
//   <comment> ---- END generated from the unit catalog
// are printed here, `hifsim units --update FILE` rewrites them and tests/hw fails when a committed
// file differs (docs/adding-a-unit.md).
#pragma once
#include <string>
#include <vector>

namespace hifsim::dp::hw {

// `hifsim units --json`: every unit with its parameters (default, range), cosim word, and its
// variant sets per purpose, each with its "parameters" text and its proxy config (or null).
std::string catalog_json();

// The files with a generated part, relative to the repository root, in a fixed order.
const std::vector<std::string>& catalog_consumers();
// `text` (the file `rel`, a path ending in one of catalog_consumers()) with its generated part
// replaced by what the catalog gives now; throws hifsim::Error for another file or a missing marker.
std::string updated_consumer(const std::string& rel, const std::string& text);
bool is_catalog_consumer(const std::string& path);

}  // namespace hifsim::dp::hw
