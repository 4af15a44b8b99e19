#include "quant_options.hpp"

#include "formats/codes.hpp"
#include "options/quant_request.hpp"
#include "request_options.hpp"

namespace hifsim::cli {

void add_code_options(ArgParser& p) { declare(p, opt::code_options()); }
void add_quant_options(ArgParser& p) { declare(p, opt::quant_options()); }

fmt::QuantOptions read_code_options(const ArgParser& p, fmt::Format f) {
  const fmt::QuantOptions o = read(p, opt::code_options());
  fmt::validate_code_options(f, o);
  return o;
}

fmt::QuantOptions read_quant_options(const ArgParser& p) { return read(p, opt::quant_options()); }

}  // namespace hifsim::cli
