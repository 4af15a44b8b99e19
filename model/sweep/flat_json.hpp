// A point's result, as the sweep merges it into CSV columns: a JSON object flattened into
// (dotted key, text) pairs. Numbers keep the exact text they were written with (a CSV cell is
// then byte-identical to the result file, never re-rounded), strings their value, booleans
// "true"/"false", null an empty cell; arrays are skipped (they have no single cell).
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace hifsim::sweep {

using FlatFields = std::vector<std::pair<std::string, std::string>>;

// Strict JSON (RFC 8259: one object, nothing after it; numbers of any magnitude, so the 1e999
// that util/json.hpp writes for an infinity is read). Returns false with the reason in `error`
// when the text is not a JSON object.
bool flatten_json_object(const std::string& text, FlatFields& out, std::string& error);

}  // namespace hifsim::sweep
