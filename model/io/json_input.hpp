// Strict JSON for hifsim's readers (the .safetensors header), with nlohmann::json (Debian's
// nlohmann-json3-dev): RFC 8259 only -- no comments, no trailing commas, no NaN, no text after
// the value, valid UTF-8 -- and, beyond what nlohmann checks, no key given twice in an object
// (nlohmann would keep the last one silently) and a bounded nesting depth.
#pragma once
#include <nlohmann/json.hpp>

#include <string>

namespace hifsim::io {

// Throws hifsim::Error(where, field, reason): field "byte N" for syntax errors, the key path for a
// duplicate key.
nlohmann::json parse_json_strict(const std::string& text, const std::string& where, int max_depth);

}  // namespace hifsim::io
