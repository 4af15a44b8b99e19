#include "gemm_options.hpp"

#include "options/gemm_request.hpp"
#include "request_options.hpp"
#include "util/error.hpp"
#include "util/text.hpp"

namespace hifsim::cli {

void add_gemm_options(ArgParser& p) { declare(p, opt::gemm_options()); }

dp::GemmSpec read_gemm_options(const ArgParser& p, fmt::Format f) {
  return opt::gemm_spec(read(p, opt::gemm_options()), f);
}

std::vector<fmt::Format> parse_tensor_formats(const std::string& list) {
  std::vector<fmt::Format> formats;
  for (const std::string& f : split_list(list)) {
    const auto fm = fmt::parse_format(f);
    if (!fm || !fmt::format_info(*fm).tensor)
      throw Error("--formats", f, "unknown tensor format; choose from " + fmt::tensor_format_names());
    formats.push_back(*fm);
  }
  if (formats.empty()) throw Error("--formats", list, "no format given");
  return formats;
}

void add_residual_options(ArgParser& p) { declare(p, opt::residual_options()); }

dp::ResidualSpec read_residual_options(const ArgParser& p) { return read(p, opt::residual_options()); }

}  // namespace hifsim::cli
