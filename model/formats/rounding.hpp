// Rounding modes understood by the codecs. Each format documents which it supports
// and its default (docs/formats.md).
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace hifsim::fmt {

enum class Rounding {
  nearest_even,  // round to nearest, ties to even ("rne")
  nearest_away,  // round to nearest, ties away from zero ("away", HiF8 TA, HiF4 elements)
  toward_zero,   // truncate ("rz")
  stochastic,    // seeded stochastic rounding ("stochastic")
  hybrid,        // HiF8 hybrid rounding with explicit threshold bits ("hybrid")
};

inline const char* rounding_name(Rounding r) {
  switch (r) {
    case Rounding::nearest_even: return "rne";
    case Rounding::nearest_away: return "away";
    case Rounding::toward_zero: return "rz";
    case Rounding::stochastic: return "stochastic";
    case Rounding::hybrid: return "hybrid";
  }
  return "?";
}

inline std::optional<Rounding> parse_rounding(std::string_view s) {
  if (s == "rne" || s == "even") return Rounding::nearest_even;
  if (s == "away" || s == "ta") return Rounding::nearest_away;
  if (s == "rz" || s == "trunc") return Rounding::toward_zero;
  if (s == "stochastic" || s == "sr") return Rounding::stochastic;
  if (s == "hybrid" || s == "hr") return Rounding::hybrid;
  return std::nullopt;
}

}  // namespace hifsim::fmt
