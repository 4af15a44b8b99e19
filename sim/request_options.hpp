// The model's option rows (model/options/option.hpp) on the command line: declared on an
// ArgParser (so --help lists them with their defaults) and read back through the rows' own checks.
#pragma once
#include "args.hpp"
#include "options/option.hpp"

namespace hifsim::cli {

template <class R>
void declare(ArgParser& p, const opt::Options<R>& rows) {
  for (const opt::Option<R>& o : rows)
    if (o.flag()) p.flag(o.name, o.help);
    else p.option(o.name, o.metavar, o.help, o.def);
}

// `r` with every row applied (start from a request whose other fields are already set).
template <class R>
R read(const ArgParser& p, const opt::Options<R>& rows, R r = R{}) {
  opt::apply(rows, r, opt::Spelling::cli(), [&p](const opt::Option<R>& o) -> std::optional<opt::Value> {
    if (o.flag()) return p.is_set(o.name) ? std::optional<opt::Value>(opt::Value::of_bool(true)) : std::nullopt;
    if (!p.has(o.name)) return std::nullopt;
    return opt::Value::of_text(p.get(o.name));
  });
  return r;
}

}  // namespace hifsim::cli
