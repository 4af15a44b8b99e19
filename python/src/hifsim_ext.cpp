// hifsim._ext: the Python face of the bit-exact model (nanobind). Deliberately thin: every
// option given as a keyword argument is parsed by the same option declarations as the `hifsim`
// command (sim/quant_options.cpp, sim/gemm_options.cpp), and every computation is the same model
// call the command makes, so the package and the CLI give the same bits by construction.
// Arrays come in as C-contiguous float32 without a copy (python/hifsim/__init__.py makes them so)
// and go out as numpy arrays that own the result buffer (no copy either). The GIL is released
// while the model computes.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <cstring>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "args.hpp"
#include "datapath/gemm.hpp"
#include "eval/gemm_run.hpp"
#include "datapath/residual.hpp"
#include "formats/codes.hpp"
#include "formats/packed.hpp"
#include "formats/tensor.hpp"
#include "config/unit_config.hpp"
#include "cost/tables.hpp"
#include "eval/unit_cost.hpp"
#include "eval/unit_run.hpp"
#include "eval/workload.hpp"
#include "io/trace.hpp"
#include "perf/runner.hpp"
#include "util/install.hpp"
#include "gemm_options.hpp"
#include "quant_options.hpp"
#include "util/error.hpp"

namespace nb = nanobind;
using namespace hifsim;

namespace {

template <class T>
using In2 = nb::ndarray<const T, nb::ndim<2>, nb::c_contig, nb::device::cpu>;
template <class T>
using In1 = nb::ndarray<const T, nb::ndim<1>, nb::c_contig, nb::device::cpu>;

// A numpy array that owns `v` (moved, not copied).
template <class T>
nb::ndarray<nb::numpy, T> owned(std::vector<T>&& v, std::initializer_list<size_t> shape) {
  auto* heap = new std::vector<T>(std::move(v));
  nb::capsule owner(heap, [](void* p) noexcept { delete static_cast<std::vector<T>*>(p); });
  return nb::ndarray<nb::numpy, T>(heap->data(), shape, owner);
}

fmt::Format tensor_format(const std::string& name) {
  const auto f = fmt::parse_format(name);
  if (!f || !fmt::format_info(*f).tensor)
    throw Error("argument format", name, "unknown tensor format; choose one of: " + fmt::tensor_format_names());
  return *f;
}

fmt::Format code_format(const std::string& name) {
  const auto f = fmt::parse_format(name);
  if (!f || !fmt::is_code_format(*f))
    throw Error("argument format", name, "unknown code format; choose one of: " + fmt::encode_format_names());
  return *f;
}

// The commands' own option sets (cli::add_*_options), fed with the keyword arguments as
// "--name value" words.
cli::ArgParser parsed_options(const std::vector<std::string>& words, std::initializer_list<void (*)(cli::ArgParser&)> sets) {
  cli::ArgParser p("python", "");
  for (auto add : sets) add(p);
  p.parse(words);
  return p;
}

// quantize_dequantize, optionally with the Rollout-ResQ residual (the corrected activation).
nb::ndarray<nb::numpy, float> qdq(In2<float> x, const std::string& format, const std::vector<std::string>& words) {
  const fmt::Format f = tensor_format(format);
  const cli::ArgParser p = parsed_options(words, {cli::add_quant_options, cli::add_residual_options});
  dp::GemmSpec spec;
  spec.format = f;
  spec.quant = cli::read_quant_options(p);
  spec.threads = spec.quant.threads;
  fmt::validate_options(f, spec.quant);
  const dp::ResidualSpec rs = cli::read_residual_options(p);
  if (rs.mode != dp::ResidualMode::unfused)
    throw Error("command line", "--residual-mode", "applies to gemm only (quantize_dequantize has no accumulation)");
  const size_t rows = x.shape(0), cols = x.shape(1);
  std::vector<float> y(rows * cols);
  {
    nb::gil_scoped_release nogil;
    fmt::check_representable(f, x.data(), rows, cols, "argument x");
    dp::residual_quantize_dequantize(x.data(), rows, cols, spec, rs, y.data());
  }
  return owned(std::move(y), {rows, cols});
}

// quantize: the packed container of `hifsim quantize --codes` (bytes) plus the unpacked fields.
nb::dict quantize(In2<float> x, const std::string& format, const std::vector<std::string>& words) {
  const fmt::Format f = tensor_format(format);
  const fmt::QuantOptions o = cli::read_quant_options(parsed_options(words, {cli::add_quant_options}));
  fmt::validate_options(f, o);
  const size_t rows = x.shape(0), cols = x.shape(1);
  fmt::QTensor q;
  std::string packed;
  {
    nb::gil_scoped_release nogil;
    fmt::check_representable(f, x.data(), rows, cols, "argument x");
    q = fmt::quantize(f, x.data(), rows, cols, o);
    packed = fmt::pack_tensor(q);
  }
  nb::dict d;
  d["format"] = std::string(fmt::format_info(f).name);
  d["rows"] = q.rows;
  d["cols"] = q.cols;
  d["padded_cols"] = q.padded_cols;
  d["block"] = q.block();
  d["tensor_scale"] = q.tensor_scale;
  d["packed"] = nb::bytes(packed.data(), packed.size());
  const size_t blocks = q.rows * q.blocks_per_row();
  d["codes"] = owned(std::move(q.codes), {q.rows, q.padded_cols});
  d["scales"] = owned(std::move(q.scales), {q.scales.empty() ? 0 : q.rows, q.scales.empty() ? 0 : blocks / (q.rows ? q.rows : 1)});
  d["l2"] = owned(std::move(q.l2), {q.l2.size()});
  d["l3"] = owned(std::move(q.l3), {q.l3.size()});
  return d;
}

nb::ndarray<nb::numpy, float> dequantize_packed(nb::bytes packed) {
  const std::string bytes(static_cast<const char*>(packed.c_str()), packed.size());
  std::vector<float> y;
  size_t rows = 0, cols = 0;
  {
    nb::gil_scoped_release nogil;
    const fmt::QTensor q = fmt::unpack_tensor(bytes, "argument packed");
    y = fmt::dequantize(q);
    rows = q.rows;
    cols = q.cols;
  }
  return owned(std::move(y), {rows, cols});
}

nb::object encode(In1<float> x, const std::string& format, const std::vector<std::string>& words) {
  const fmt::Format f = code_format(format);
  const fmt::QuantOptions o = cli::read_code_options(parsed_options(words, {cli::add_code_options}), f);
  const size_t n = x.shape(0);
  std::vector<uint16_t> codes(n);
  {
    nb::gil_scoped_release nogil;
    fmt::encode_codes(f, x.data(), n, o, codes.data(), "argument x");
  }
  if (f == fmt::Format::bf16) return nb::cast(owned(std::move(codes), {n}));
  std::vector<uint8_t> c8(codes.begin(), codes.end());
  return nb::cast(owned(std::move(c8), {n}));
}

nb::ndarray<nb::numpy, float> decode(In1<uint16_t> codes, const std::string& format) {
  const fmt::Format f = code_format(format);
  const size_t n = codes.shape(0);
  std::vector<float> y(n);
  {
    nb::gil_scoped_release nogil;
    fmt::decode_codes(f, codes.data(), n, y.data(), "argument codes");
  }
  return owned(std::move(y), {n});
}

// gemm: `hifsim gemm` as a function (eval::run_gemm, the command's own call). Returns
// (C, stats JSON text or "", ARC channels used).
std::tuple<nb::ndarray<nb::numpy, float>, std::string, size_t> gemm(In2<float> a, In2<float> b, const std::string& format,
                                                                   const std::vector<std::string>& words,
                                                                   std::optional<In2<float>> arc_calib, bool stats) {
  const fmt::Format f = tensor_format(format);
  cli::ArgParser p("python", "");
  p.option("arc", "S", "ARCQuant channels or auto");
  cli::add_residual_options(p);
  cli::add_gemm_options(p);
  p.parse(words);
  eval::GemmRequest r;
  r.spec = cli::read_gemm_options(p, f);
  r.residual = cli::read_residual_options(p);
  r.arc = p.has("arc");
  if (r.arc && r.residual.kind != dp::ResidualKind::none)
    throw Error("command line", "--arc", "cannot be combined with --residual (choose one correction)");
  if (r.arc && p.get("arc") != "auto") r.arc_channels = static_cast<long>(p.get_int("arc", 0, 1 << 30));
  r.stats = stats;
  const size_t M = a.shape(0), K = a.shape(1), N = b.shape(0);
  if (b.shape(1) != K)
    throw Error("argument b", "shape", "K mismatch: a has " + std::to_string(K) + " columns, b has " +
                                           std::to_string(b.shape(1)));
  r.A = {a.data(), M, K};
  r.B = {b.data(), N, K};
  if (arc_calib) {
    if (!r.arc) throw Error("argument arc_calib", "", "given without arc");
    if (arc_calib->shape(1) != K) throw Error("argument arc_calib", "shape", "K differs from a's");
    r.calibration = {arc_calib->data(), arc_calib->shape(0), K};
  }
  eval::GemmOutcome o;
  {
    nb::gil_scoped_release nogil;
    fmt::check_representable(f, a.data(), M, K, "argument a");
    fmt::check_representable(f, b.data(), N, K, "argument b");
    o = eval::run_gemm(r);
  }
  return {owned(std::move(o.C), {M, N}), o.stats_json, o.arc_channels};
}

// dot: the dot-product unit of the format (hif4/nvfp4/mxfp4/bf16: 64 elements, mxfp8/fp8: 32,
// hif8: its lane count) applied to each unit-wide block of two K-vectors: the FP32 value each
// unit call delivers to the accumulator (before accumulation and any per-tensor epilogue).
nb::ndarray<nb::numpy, float> dot(In1<float> a, In1<float> b, const std::string& format,
                                  const std::vector<std::string>& words) {
  const fmt::Format f = tensor_format(format);
  const dp::GemmSpec spec = cli::read_gemm_options(parsed_options(words, {cli::add_gemm_options}), f);
  const size_t K = a.shape(0);
  if (b.shape(0) != K)
    throw Error("argument b", "shape", "length " + std::to_string(b.shape(0)) + " differs from a's " + std::to_string(K));
  std::vector<float> out;
  {
    nb::gil_scoped_release nogil;
    fmt::check_representable(f, a.data(), 1, K, "argument a");
    fmt::check_representable(f, b.data(), 1, K, "argument b");
    const fmt::QTensor A = dp::quantize_operand(a.data(), 1, K, spec), B = dp::quantize_operand(b.data(), 1, K, spec);
    const size_t blocks = A.padded_cols / static_cast<size_t>(dp::dot_width(spec));
    out.resize(blocks);
    for (size_t blk = 0; blk < blocks; ++blk) out[blk] = dp::unit_dot(A, 0, B, 0, blk, spec).value;
  }
  const size_t n = out.size();
  return owned(std::move(out), {n});
}

// The workload of run_unit/cost: a trace, operand files, a GEMM shape, or none. (The Python
// layer writes numpy operands to .npy files first, so the model reads them exactly like the CLI.)
struct WorkloadArgs {
  std::optional<std::tuple<uint64_t, uint64_t, uint64_t>> gemm;
  std::string a_file, b_file, trace;
  std::vector<std::string> ops;
  bool one_layer = false;
  uint64_t seed = 1;
};

eval::Workload make_workload(const WorkloadArgs& a) {
  if (a.gemm && !a.trace.empty()) throw Error("argument gemm/trace", "", "give at most one of them");
  if (a.a_file.empty() != a.b_file.empty()) throw Error("argument a/b", "", "give both operands or neither");
  eval::Workload w;
  w.seed = a.seed;
  if (!a.trace.empty()) {
    if (!a.a_file.empty()) throw Error("argument a", "", "only with gemm, not with a trace");
    w.trace = io::read_trace(a.trace);
    w.one_layer = a.one_layer;
    if (!a.ops.empty()) eval::select_ops(*w.trace, a.ops);
  } else {
    if (a.gemm) {
      const auto [M, N, K] = *a.gemm;
      eval::parse_gemm_shape(std::to_string(M) + "," + std::to_string(N) + "," + std::to_string(K), w, "argument gemm");
    }
    w.a_file = a.a_file;
    w.b_file = a.b_file;
  }
  return w;
}

// run_unit: `hifsim run --engine analytic` as a function; returns result.json's text (the
// SystemC engine of the CLI gives the same numbers, tests/tlm pins that).
std::string run_unit(const std::string& config, const std::vector<std::string>& overrides, const WorkloadArgs& wa,
                     bool values, bool simulate_all, unsigned threads, bool with_cost, const std::string& cost_tables,
                     size_t cost_sample) {
  if (!wa.gemm && wa.trace.empty()) throw Error("argument gemm/trace", "", "give exactly one of them");
  const cfg::UnitConfig u = cfg::load_unit_config(config, overrides);
  eval::RunRequest r;
  r.workload = make_workload(wa);
  r.values = values;
  r.each_instance = simulate_all;
  r.run.threads = threads;
  r.cost = with_cost;
  r.cost_options.cost_tables = cost_tables;
  r.cost_options.activity_sample = cost_sample;
  r.cost_options.seed = wa.seed;
  nb::gil_scoped_release nogil;
  const eval::RunOutcome o = eval::run_unit(u, r, [](const cfg::UnitConfig& unit, const std::vector<perf::Job>& jobs,
                                                     const perf::RunOptions& ro) { return perf::run_plain(unit, jobs, ro); });
  return eval::run_result_json(u, r, o, config, "analytic");
}

// cost: `hifsim cost` as a function; returns cost.json's text, or compare.json's for the
// dot-unit comparison (config empty, formats given).
std::string cost_unit(const std::string& config, const std::vector<std::string>& overrides, const WorkloadArgs& wa,
                      const std::vector<std::string>& formats, size_t sample, const std::string& tables,
                      const std::string& node) {
  const cost::CostTables t = cost::load_tables(tables.empty() ? cost::default_tables_dir() : tables, node);
  cost::ActivityOptions ao;
  ao.sample_dots = sample;
  ao.seed = wa.seed;
  eval::Workload w = make_workload(wa);
  if (config.empty()) {
    std::vector<fmt::Format> fs;
    for (const auto& f : formats) fs.push_back(tensor_format(f));
    nb::gil_scoped_release nogil;
    return eval::compare_dot_units(t, fs, w, data_dir(), ao).json;
  }
  const cfg::UnitConfig u = cfg::load_unit_config(config, overrides);
  nb::gil_scoped_release nogil;
  const cost::CostReport r = eval::cost_on_workload(t, u, w, ao);
  return eval::cost_result_json(u, config, w, r);
}

}  // namespace

NB_MODULE(_ext, m) {
  m.doc() = "hifsim's bit-exact model (use the functions of the hifsim package, not this module)";
  nb::exception<Error>(m, "Error", PyExc_ValueError);
  m.def("qdq", &qdq);
  m.def("quantize", &quantize);
  m.def("dequantize_packed", &dequantize_packed);
  m.def("encode", &encode);
  m.def("decode", &decode);
  m.def("gemm", &gemm, nb::arg("a"), nb::arg("b"), nb::arg("format"), nb::arg("words"),
        nb::arg("arc_calib").none(), nb::arg("stats"));
  m.def("dot", &dot);
  nb::class_<WorkloadArgs>(m, "WorkloadArgs")
      .def(nb::init<>())
      .def_rw("gemm", &WorkloadArgs::gemm)
      .def_rw("a_file", &WorkloadArgs::a_file)
      .def_rw("b_file", &WorkloadArgs::b_file)
      .def_rw("trace", &WorkloadArgs::trace)
      .def_rw("ops", &WorkloadArgs::ops)
      .def_rw("one_layer", &WorkloadArgs::one_layer)
      .def_rw("seed", &WorkloadArgs::seed);
  m.def("run_unit", &run_unit);
  m.def("cost", &cost_unit);
  // The trace schema's one reader (model/io/trace.cpp), for hifsim.capture.validate_trace.
  m.def("read_trace_json", [](const std::string& path) { return io::trace_json(io::read_trace(path)); });
  m.def("tensor_formats", [] { return fmt::tensor_format_names(); });
  m.def("code_formats", [] { return fmt::encode_format_names(); });
}
