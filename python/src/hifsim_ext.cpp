// hifsim._ext: the Python face of the bit-exact model (nanobind). Deliberately thin: keyword
// arguments are read by the model's own option rows (model/options: the rows the `hifsim`
// command declares), so both refuse the same values with the same reason; every computation is
// the same model call the command makes, so the package and the CLI give the same bits by
// construction. Arrays come in as C-contiguous float32 without a copy (python/hifsim/__init__.py
// makes them so) and go out as numpy arrays that own the result buffer (no copy either). The GIL
// is released while the model computes. Every error is a hifsim.Error (messages decoded as UTF-8
// with backslash escapes, so a non-UTF-8 path in a message never becomes a UnicodeDecodeError).
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>

#include <cstring>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "config/unit_config.hpp"
#include "cost/tables.hpp"
#include "datapath/catalog_text.hpp"
#include "eval/gemm_run.hpp"
#include "eval/unit_cost.hpp"
#include "eval/unit_run.hpp"
#include "eval/workload.hpp"
#include "formats/codes.hpp"
#include "formats/packed.hpp"
#include "formats/tensor.hpp"
#include "gemm/gemm.hpp"
#include "gemm/residual_gemm.hpp"
#include "options/gemm_request.hpp"
#include "options/quant_request.hpp"
#include "options/unit_request.hpp"
#include "perf/runner.hpp"
#include "util/error.hpp"
#include "util/install.hpp"

namespace nb = nanobind;
using namespace hifsim;

namespace {

template <class T>
using In2 = nb::ndarray<const T, nb::ndim<2>, nb::c_contig, nb::device::cpu>;
template <class T>
using In1 = nb::ndarray<const T, nb::ndim<1>, nb::c_contig, nb::device::cpu>;

// A numpy array that owns `v` (moved, not copied).
template <class T, class Alloc>
nb::ndarray<nb::numpy, T> owned(std::vector<T, Alloc>&& v, std::initializer_list<size_t> shape) {
  auto* heap = new std::vector<T, Alloc>(std::move(v));
  nb::capsule owner(heap, [](void* p) noexcept { delete static_cast<std::vector<T, Alloc>*>(p); });
  return nb::ndarray<nb::numpy, T>(heap->data(), shape, owner);
}

// ---- Python values as option values ---------------------------------------------------------

// str (or os.PathLike) as bytes: UTF-8, with lone surrogates of undecodable file names turned
// back into their bytes (os.fsencode's rule), so any path Python can name reaches the model.
bool text_of(nb::handle h, std::string& out) {
  nb::object o = nb::borrow(h);
  if (!PyUnicode_Check(o.ptr()) && PyObject_HasAttrString(o.ptr(), "__fspath__")) {
    PyObject* p = PyOS_FSPath(o.ptr());
    if (!p) return PyErr_Clear(), false;
    o = nb::steal(p);
  }
  if (PyBytes_Check(o.ptr()) && o.ptr() != h.ptr()) {  // a PathLike giving bytes
    out.assign(PyBytes_AS_STRING(o.ptr()), static_cast<size_t>(PyBytes_GET_SIZE(o.ptr())));
    return true;
  }
  if (!PyUnicode_Check(o.ptr())) return false;
  PyObject* b = PyUnicode_AsEncodedString(o.ptr(), "utf-8", "surrogateescape");
  if (!b) return PyErr_Clear(), false;
  out.assign(PyBytes_AS_STRING(b), static_cast<size_t>(PyBytes_GET_SIZE(b)));
  Py_DECREF(b);
  return true;
}

// "argument NAME: reason", the spelling of opt::Spelling::keyword().
Error arg_error(const std::string& name, const std::string& reason) { return Error("argument " + name, "", reason); }

std::string py_type_name(nb::handle h) { return Py_TYPE(h.ptr())->tp_name; }

// A keyword argument as an option value: bool, int (of any size), float, text/path, or a list
// or tuple of those. Anything else is refused naming the argument and the type.
opt::Value value_of(nb::handle h, const std::string& name) {
  if (PyBool_Check(h.ptr())) return opt::Value::of_bool(h.ptr() == Py_True);
  if (PyLong_Check(h.ptr()) || (PyIndex_Check(h.ptr()) && !PyFloat_Check(h.ptr()))) {
    PyObject* i = PyNumber_Index(h.ptr());
    if (!i) PyErr_Clear();
    else {
      int overflow = 0;
      const long long v = PyLong_AsLongLongAndOverflow(i, &overflow);
      nb::object digits = nb::steal(PyObject_Str(i));
      Py_DECREF(i);
      if (overflow == 0 && !PyErr_Occurred()) return opt::Value::of_int(v);
      PyErr_Clear();
      return opt::Value::of_big_int(nb::cast<std::string>(digits));
    }
  }
  if (PyFloat_Check(h.ptr())) return opt::Value::of_number(PyFloat_AsDouble(h.ptr()));
  std::string s;
  if (text_of(h, s)) return opt::Value::of_text(s);
  if (PyList_Check(h.ptr()) || PyTuple_Check(h.ptr())) {
    std::vector<opt::Value> items;
    for (nb::handle x : nb::borrow<nb::sequence>(h)) items.push_back(value_of(x, name));
    return opt::Value::of_list(std::move(items));
  }
  // numpy scalars and other numbers
  if (PyObject_HasAttrString(h.ptr(), "__float__") && !PyBytes_Check(h.ptr())) {
    const double d = PyFloat_AsDouble(h.ptr());
    if (!PyErr_Occurred()) return opt::Value::of_number(d);
    PyErr_Clear();
  }
  throw arg_error(name, "expected a number, text, True/False or a list, got " + py_type_name(h));
}

// The keyword of an option: its name with underscores (cost-sample -> cost_sample).
std::string keyword(std::string name) {
  for (char& c : name)
    if (c == '-') c = '_';
  return name;
}

// Reads the keyword arguments `kw` into a request through `rows` (None: the option's default).
template <class R>
void read_keywords(nb::dict kw, const opt::Options<R>& rows, R& r) {
  const opt::Spelling sp = opt::Spelling::keyword();
  opt::apply(rows, r, sp, [&](const opt::Option<R>& o) -> std::optional<opt::Value> {
    const std::string key = keyword(o.name);
    if (!kw.contains(key.c_str())) return std::nullopt;
    nb::handle h = kw[key.c_str()];
    if (h.is_none()) return std::nullopt;
    return value_of(h, key);
  });
}

// Every key of kw must name a row of one of `sets`: an unknown keyword is refused.
void check_keywords(nb::dict kw, std::initializer_list<std::vector<std::string>> sets, const std::string& help) {
  for (auto [k, v] : kw) {
    std::string key;
    if (!text_of(k, key)) throw arg_error("", "keyword names must be text");
    bool found = false;
    for (const auto& names : sets)
      for (const std::string& n : names) found = found || n == key;
    if (!found) throw arg_error(key, "unknown keyword argument (see " + help + ")");
  }
}

template <class R>
std::vector<std::string> names(const opt::Options<R>& rows) {
  std::vector<std::string> v;
  for (const auto& o : rows) v.push_back(keyword(o.name));
  return v;
}

std::string text_arg(nb::handle h, const std::string& name) {
  std::string s;
  if (h.is_none() || !text_of(h, s)) throw arg_error(name, "expected text (str), got " + py_type_name(h));
  return s;
}

bool bool_arg(nb::handle h, const std::string& name) {
  if (!PyBool_Check(h.ptr())) throw arg_error(name, "expected True or False, got " + py_type_name(h));
  return h.ptr() == Py_True;
}

fmt::Format tensor_format(nb::handle h) {
  const std::string name = text_arg(h, "format");
  const auto f = fmt::parse_format(name);
  if (!f || !fmt::format_info(*f).tensor)
    throw Error("argument format", name, "unknown tensor format; choose one of: " + fmt::tensor_format_names());
  return *f;
}

fmt::Format code_format(nb::handle h) {
  const std::string name = text_arg(h, "format");
  const auto f = fmt::parse_format(name);
  if (!f || !fmt::is_code_format(*f))
    throw Error("argument format", name, "unknown code format; choose one of: " + fmt::encode_format_names());
  return *f;
}

fmt::QuantOptions quant_keywords(nb::dict kw, const std::string& fn) {
  check_keywords(kw, {names(opt::quant_options())}, fn);
  fmt::QuantOptions o;
  read_keywords(kw, opt::quant_options(), o);
  return o;
}

// ---- the functions --------------------------------------------------------------------------

// quantize_dequantize, optionally with the Rollout-ResQ residual (the corrected activation).
nb::ndarray<nb::numpy, float> qdq(In2<float> x, nb::handle format, nb::dict kw) {
  const fmt::Format f = tensor_format(format);
  check_keywords(kw, {names(opt::quant_options()), names(opt::residual_options())}, "help(hifsim.quantize_dequantize)");
  dp::GemmSpec spec;
  spec.format = f;
  read_keywords(kw, opt::quant_options(), spec.quant);
  spec.threads = spec.quant.threads;
  fmt::validate_options(f, spec.quant);
  dp::ResidualSpec rs;
  read_keywords(kw, opt::residual_options(), rs);
  if (rs.mode != dp::ResidualMode::unfused)
    throw arg_error("residual_mode", "applies to gemm only (quantize_dequantize has no accumulation)");
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
nb::dict quantize(In2<float> x, nb::handle format, nb::dict kw) {
  const fmt::Format f = tensor_format(format);
  const fmt::QuantOptions o = quant_keywords(kw, "help(hifsim.quantize)");
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

nb::object encode(In1<float> x, nb::handle format, nb::dict kw) {
  const fmt::Format f = code_format(format);
  check_keywords(kw, {names(opt::code_options())}, "help(hifsim.encode)");
  fmt::QuantOptions o;
  read_keywords(kw, opt::code_options(), o);
  fmt::validate_code_options(f, o);
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

nb::ndarray<nb::numpy, float> decode(In1<uint16_t> codes, nb::handle format) {
  const fmt::Format f = code_format(format);
  const size_t n = codes.shape(0);
  std::vector<float> y(n);
  {
    nb::gil_scoped_release nogil;
    fmt::decode_codes(f, codes.data(), n, y.data(), "argument codes");
  }
  return owned(std::move(y), {n});
}

dp::GemmSpec gemm_keywords(nb::dict kw, fmt::Format f, std::vector<std::string> extra, const std::string& fn) {
  check_keywords(kw, {names(opt::gemm_options()), extra}, fn);
  opt::GemmOptions g;
  g.spelling = opt::Spelling::keyword();
  read_keywords(kw, opt::gemm_options(), g);
  return opt::gemm_spec(g, f);
}

// gemm: `hifsim gemm` as a function (eval::run_gemm, the command's own call). Returns
// (C, stats JSON text or "", ARC channels used).
std::tuple<nb::ndarray<nb::numpy, float>, std::string, size_t> gemm(In2<float> a, In2<float> b, nb::handle format, nb::dict kw,
                                                                   nb::handle arc, std::optional<In2<float>> arc_calib,
                                                                   nb::handle stats) {
  const fmt::Format f = tensor_format(format);
  eval::GemmRequest r;
  r.spec = gemm_keywords(kw, f, names(opt::residual_options()), "help(hifsim.gemm)");
  read_keywords(kw, opt::residual_options(), r.residual);
  r.arc = !arc.is_none();
  if (r.arc && r.residual.kind != dp::ResidualKind::none)
    throw arg_error("arc", "cannot be combined with residual (choose one correction)");
  if (r.arc) {
    opt::Value v = value_of(arc, "arc");
    v.named(opt::Spelling::keyword(), "arc");
    if (!(v.kind() == opt::Value::Kind::text && v.text() == "auto")) r.arc_channels = static_cast<long>(v.integer(0, 1 << 30));
  }
  r.stats = bool_arg(stats, "stats");
  const size_t M = a.shape(0), K = a.shape(1), N = b.shape(0);
  if (b.shape(1) != K)
    throw Error("argument b", "shape", "K mismatch: a has " + std::to_string(K) + " columns, b has " + std::to_string(b.shape(1)));
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
nb::ndarray<nb::numpy, float> dot(In1<float> a, In1<float> b, nb::handle format, nb::dict kw) {
  const fmt::Format f = tensor_format(format);
  const dp::GemmSpec spec = gemm_keywords(kw, f, {}, "help(hifsim.dot)");
  if (spec.rht.on()) throw Error("argument rht", std::to_string(spec.rht.n), "dot takes no Hadamard transform (gemm does)");
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

// ---- run_unit and cost: a unit config on a workload -----------------------------------------

std::vector<std::string> overrides_of(nb::handle set) {
  std::vector<std::string> v;
  if (set.is_none()) return v;
  if (!PyList_Check(set.ptr()) && !PyTuple_Check(set.ptr()))
    throw arg_error("set", "expected a dict or a list of \"field=value\" texts, got " + py_type_name(set));
  for (nb::handle x : nb::borrow<nb::sequence>(set)) v.push_back(text_arg(x, "set"));
  return v;
}

// An operand: a path (read like the CLI's --a/--b) or a float32 2-D array (read in place).
void operand(nb::handle x, const char* name, std::string& file, std::optional<io::NpyArray>& values) {
  if (x.is_none()) return;
  if (text_of(x, file)) return;
  In2<float> m;
  if (!nb::try_cast(x, m)) throw arg_error(name, "expected a path or a float32 2-D array, got " + py_type_name(x));
  io::NpyArray a;
  a.shape = {m.shape(0), m.shape(1)};
  a.f32.assign(m.data(), m.data() + m.size());
  values = std::move(a);
  file = std::string("argument ") + name;
}

void operands(eval::Workload& w, nb::handle a, nb::handle b) {
  if (a.is_none() != b.is_none()) throw arg_error("a/b", "give both operands or neither");
  if (a.is_none()) return;
  if (w.trace) throw arg_error("a", "only with gemm, not with a trace");
  operand(a, "a", w.a_file, w.a_values);
  operand(b, "b", w.b_file, w.b_values);
}

std::string trace_arg(nb::handle trace) { return trace.is_none() ? "" : text_arg(trace, "trace"); }

// run_unit: `hifsim run --engine analytic` as a function; returns result.json's text (the
// SystemC engine of the CLI gives the same numbers, tests/tlm pins that).
std::string run_unit(nb::handle config, nb::handle set, nb::handle trace, nb::handle a, nb::handle b, nb::dict kw,
                     nb::handle values, nb::handle simulate_all, nb::handle with_cost) {
  const std::string cfg_path = text_arg(config, "config");
  check_keywords(kw, {names(opt::workload_options()), names(opt::run_options())}, "help(hifsim.run_unit)");
  opt::WorkloadOptions wo;
  opt::RunOptions ro;
  read_keywords(kw, opt::workload_options(), wo);
  read_keywords(kw, opt::run_options(), ro);
  eval::RunRequest r = opt::run_request(wo, ro, trace_arg(trace), opt::Spelling::keyword());
  operands(r.workload, a, b);
  r.values = bool_arg(values, "values");
  r.each_instance = bool_arg(simulate_all, "simulate_all");
  r.cost = bool_arg(with_cost, "cost");
  const cfg::UnitConfig u = cfg::load_unit_config(cfg_path, overrides_of(set));
  nb::gil_scoped_release nogil;
  const eval::RunOutcome o = eval::run_unit(u, r, [](const cfg::UnitConfig& unit, const std::vector<perf::Job>& jobs,
                                                     const perf::RunOptions& rop) { return perf::run_plain(unit, jobs, rop); });
  return eval::run_result_json(u, r, o, cfg_path, "analytic");
}

// cost: `hifsim cost` as a function; returns cost.json's text, or compare.json's for the
// dot-unit comparison (config None, compare_units True).
std::string cost_unit(nb::handle config, nb::handle set, nb::handle trace, nb::handle a, nb::handle b, nb::dict kw,
                      nb::handle compare_units) {
  const bool compare = bool_arg(compare_units, "compare_units");
  if (compare == !config.is_none())
    throw arg_error("config/compare_units", "give a unit config, or compare_units=True without one");
  check_keywords(kw, {names(opt::workload_options()), names(opt::cost_options())}, "help(hifsim.cost)");
  opt::WorkloadOptions wo;
  opt::CostOptions co;
  read_keywords(kw, opt::workload_options(), wo);
  read_keywords(kw, opt::cost_options(), co);
  const cost::CostTables t = cost::load_tables(co.tables.empty() ? cost::default_tables_dir() : co.tables, co.node);
  cost::ActivityOptions ao;
  ao.sample_dots = co.sample;
  ao.seed = wo.seed;
  eval::Workload w = opt::workload(wo, trace_arg(trace), opt::Spelling::keyword());
  operands(w, a, b);
  if (compare) {
    nb::gil_scoped_release nogil;
    return eval::compare_dot_units(t, co.formats, w, data_dir(), ao).json;
  }
  const std::string cfg_path = text_arg(config, "config");
  const cfg::UnitConfig u = cfg::load_unit_config(cfg_path, overrides_of(set));
  nb::gil_scoped_release nogil;
  const cost::CostReport r = eval::cost_on_workload(t, u, w, ao);
  return eval::cost_result_json(u, cfg_path, w, r);
}

// hifsim.Error with the message decoded leniently: a message naming a non-UTF-8 path keeps its
// bytes as \xNN escapes instead of failing as a UnicodeDecodeError.
PyObject* g_error = nullptr;

void translate(const std::exception_ptr& p, void*) {
  try {
    std::rethrow_exception(p);
  } catch (const Error& e) {
    const char* m = e.what();
    PyObject* msg = PyUnicode_DecodeUTF8(m, static_cast<Py_ssize_t>(std::strlen(m)), "backslashreplace");
    PyErr_SetObject(g_error, msg);
    Py_XDECREF(msg);
  }
}

}  // namespace

NB_MODULE(_ext, m) {
  m.doc() = "hifsim's bit-exact model (use the functions of the hifsim package, not this module)";
  g_error = PyErr_NewException("hifsim._ext.Error", PyExc_ValueError, nullptr);
  m.attr("Error") = nb::handle(g_error);
  nb::register_exception_translator(translate, nullptr);
  m.def("qdq", &qdq);
  m.def("quantize", &quantize);
  m.def("dequantize_packed", &dequantize_packed);
  m.def("encode", &encode);
  m.def("decode", &decode);
  m.def("gemm", &gemm, nb::arg("a"), nb::arg("b"), nb::arg("format").none(), nb::arg("kw"), nb::arg("arc").none(),
        nb::arg("arc_calib").none(), nb::arg("stats").none());
  m.def("dot", &dot, nb::arg("a"), nb::arg("b"), nb::arg("format").none(), nb::arg("kw"));
  m.def("run_unit", &run_unit, nb::arg("config").none(), nb::arg("set").none(), nb::arg("trace").none(), nb::arg("a").none(),
        nb::arg("b").none(), nb::arg("kw"), nb::arg("values").none(), nb::arg("simulate_all").none(), nb::arg("cost").none());
  m.def("cost", &cost_unit, nb::arg("config").none(), nb::arg("set").none(), nb::arg("trace").none(), nb::arg("a").none(),
        nb::arg("b").none(), nb::arg("kw"), nb::arg("compare_units").none());
  // The trace schema's one reader (model/io/trace.cpp), for hifsim.capture.validate_trace.
  m.def("read_trace_json", [](const std::string& path) { return io::trace_json(io::read_trace(path)); });
  m.def("tensor_formats", [] { return fmt::tensor_format_names(); });
  m.def("code_formats", [] { return fmt::encode_format_names(); });
  m.def("unit_catalog_json", [] { return dp::hw::catalog_json(); });  // hifsim.units.unit_catalog()
}
