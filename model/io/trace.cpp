#include "io/trace.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <sys/stat.h>

#include "io/input_file.hpp"
#include "io/npy.hpp"
#include "io/safetensors.hpp"
#include "io/yaml_input.hpp"
#include "util/checked.hpp"
#include "util/error.hpp"
#include "util/json.hpp"

namespace hifsim::io {
namespace {

constexpr int64_t kMaxDim = 2147483647;

struct Ctx {
  std::string manifest;
  [[noreturn]] void fail(const std::string& field, const std::string& reason) const {
    throw Error(manifest, field, reason);
  }

  static std::string tname(const YAML::Node& n) {
    if (n.IsMap()) return "mapping";
    if (n.IsSequence()) return "list";
    if (n.IsNull()) return "null";
    if (n.IsScalar()) {
      if (n.Tag() == "!") return "string '" + n.Scalar() + "'";
      const std::string& s = n.Scalar();
      if (s == "true" || s == "false" || s == "True" || s == "False") return "boolean " + s;
      return "'" + s + "'";
    }
    return "value";
  }

  void mapping(const YAML::Node& n, const std::string& field, const std::vector<std::pair<std::string, bool>>& keys) const {
    if (!n.IsMap()) fail(field.empty() ? "(top level)" : field, "must be a mapping, got " + tname(n));
    std::string allowed;
    for (const auto& k : keys) allowed += (allowed.empty() ? "" : ", ") + k.first;
    for (auto it = n.begin(); it != n.end(); ++it) {
      const YAML::Node key = it->first;  // a copy: the iterator's pair is a temporary
      if (!key.IsScalar()) fail(field, "keys must be strings");
      const std::string k = key.Scalar();
      const bool known = std::any_of(keys.begin(), keys.end(), [&](const auto& p) { return p.first == k; });
      if (!known) fail(field.empty() ? k : field + "." + k, "unknown field (allowed: " + allowed + ")");
    }
    for (const auto& [k, required] : keys)
      if (required && !n[k]) fail(field.empty() ? k : field + "." + k, "required field is missing");
  }

  std::string string(const YAML::Node& n, const std::string& field, const std::vector<std::string>& allowed = {},
                     bool nonempty = true) const {
    if (!n.IsScalar()) fail(field, "must be a string, got " + tname(n));
    const std::string s = n.Scalar();
    if (nonempty && s.find_first_not_of(" \t\r\n") == std::string::npos) fail(field, "must not be empty");
    if (!allowed.empty() && std::find(allowed.begin(), allowed.end(), s) == allowed.end()) {
      std::string a;
      for (const auto& x : allowed) a += (a.empty() ? "" : ", ") + x;
      fail(field, "'" + s + "' is not one of " + a);
    }
    return s;
  }

  int64_t integer(const YAML::Node& n, const std::string& field, int64_t lo = 1, int64_t hi = kMaxDim) const {
    const std::string range = " is out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
    const std::optional<int64_t> v = yaml_int64(n);
    if (!v) {
      // All digits but beyond 64 bits: out of range, not "not an integer".
      const std::string s = n.IsScalar() && n.Tag() != "!" ? n.Scalar() : "";
      const size_t i = !s.empty() && (s[0] == '-' || s[0] == '+') ? 1 : 0;
      if (s.size() > i && s.find_first_not_of("0123456789", i) == std::string::npos) fail(field, s + range);
      fail(field, "must be an integer, got " + tname(n));
    }
    if (*v < lo || *v > hi) fail(field, std::to_string(*v) + range);
    return *v;
  }
};

bool is_sha256(const std::string& s) {
  return s.size() == 64 && std::all_of(s.begin(), s.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}
bool is_op_name(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == ':' || c == '-';
  });
}

bool dir_exists(const std::string& p) {
  struct stat st{};
  return ::stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

const std::vector<std::string> kLinearOps = {"q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"};
const std::vector<std::string> kOpsV1 = {"q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj",
                                         "attn_qk", "attn_pv"};
const std::vector<std::string> kOpsV2 = {"q_proj",  "k_proj",  "v_proj",  "o_proj",  "gate_proj", "up_proj", "down_proj",
                                         "attn_qk", "attn_pv", "attn_dp", "attn_dv", "attn_dq",   "attn_dk"};
const std::vector<std::string> kKinds = {"fprop", "dgrad", "wgrad", "attn_fwd", "attn_bwd"};

bool is_linear(const std::string& op) { return std::find(kLinearOps.begin(), kLinearOps.end(), op) != kLinearOps.end(); }

// What C = A.B^T computes, for each op and kind: the roles of A, B and C (docs/traces.md section 1).
struct Roles {
  const char *a, *b, *c;
};
Roles op_roles(const std::string& op, const std::string& kind) {
  if (kind == "fprop") return {"x", "w", "y"};
  if (kind == "dgrad") return {"dy", "w", "dx"};
  if (kind == "wgrad") return {"dy", "x", "dw"};
  if (op == "attn_qk") return {"q", "k", "s"};
  if (op == "attn_pv") return {"p", "v", "o"};
  if (op == "attn_dp") return {"do", "v", "dp"};
  if (op == "attn_dv") return {"p", "do", "dv"};
  if (op == "attn_dq") return {"ds", "k", "dq"};
  return {"ds", "q", "dk"};  // attn_dk
}
// The kind an op name allows (linear ops: any of fprop, dgrad, wgrad).
std::string kind_of_attention(const std::string& op) {
  return op == "attn_qk" || op == "attn_pv" ? "attn_fwd" : "attn_bwd";
}
// The dimension that counts the captured tokens: M, except where the GEMM reduces over tokens.
bool token_axis_is_k(const TraceOp& op) { return op.kind == "wgrad" || op.op == "attn_dv" || op.op == "attn_dk"; }

TensorRef tensor_ref(const Ctx& c, const YAML::Node& n, const std::string& f, bool v2, const char* role) {
  if (v2)
    c.mapping(n, f, {{"file", true}, {"dtype", true}, {"sha256", false}, {"key", false}, {"role", true}, {"transposed", false}});
  else
    c.mapping(n, f, {{"file", true}, {"dtype", true}, {"sha256", false}, {"key", false}});
  TensorRef r;
  if (v2) {
    r.role = c.string(n["role"], f + ".role");
    if (r.role != role) c.fail(f + ".role", "'" + r.role + "' is not the role of this operand ('" + role + "')");
    if (n["transposed"]) {
      const YAML::Node t = n["transposed"];
      const std::string s = t.IsScalar() && t.Tag() != "!" ? t.Scalar() : "";
      if (s != "true" && s != "false") c.fail(f + ".transposed", "must be true or false, got " + Ctx::tname(t));
      r.transposed = s == "true";
    }
  }
  r.file = c.string(n["file"], f + ".file");
  r.dtype = c.string(n["dtype"], f + ".dtype", {"float32"});
  if (n["sha256"]) {
    r.sha256 = c.string(n["sha256"], f + ".sha256");
    if (!is_sha256(r.sha256)) c.fail(f + ".sha256", "must be 64 lowercase hex digits");
  }
  if (n["key"]) r.key = c.string(n["key"], f + ".key");
  const bool abs = !r.file.empty() && r.file[0] == '/';
  bool dotdot = false;
  std::stringstream ss(r.file);
  std::string part;
  while (std::getline(ss, part, '/'))
    if (part == "..") dotdot = true;
  if (abs || dotdot || r.file.find('\\') != std::string::npos)
    c.fail(f + ".file", "'" + r.file + "' must be a relative path inside the trace directory");
  auto ends = [&](const std::string& suf) {
    return r.file.size() >= suf.size() && r.file.compare(r.file.size() - suf.size(), suf.size(), suf) == 0;
  };
  const bool npy = ends(".npy");
  if (!npy && !ends(".safetensors")) c.fail(f + ".file", "'" + r.file + "' must end in .npy or .safetensors");
  if (npy && !r.key.empty()) c.fail(f + ".key", "only .safetensors files take a key");
  return r;
}

Trace trace_from_yaml(const YAML::Node& doc, const std::string& manifest) {
  Trace t;
  t.manifest = manifest;
  const size_t slash = manifest.find_last_of('/');
  t.dir = slash == std::string::npos ? "." : manifest.substr(0, slash);
  Ctx c{manifest};
  if (!doc || doc.IsNull()) c.fail("(file)", "manifest is empty");
  c.mapping(doc, "", {{"schema", true}, {"kind", true}, {"description", false}, {"model", true}, {"capture", false},
                      {"shape", false}, {"checks", false}, {"provenance", false}, {"ops", true}});
  const std::string schema = doc["schema"].IsScalar() ? doc["schema"].Scalar() : "";
  if (schema != kTraceSchema && schema != kTraceSchemaV1)
    c.fail("schema", "'" + schema + "' is not '" + kTraceSchemaV1 + "' or '" + kTraceSchema + "'");
  t.schema = schema;
  const bool v2 = schema == kTraceSchema;
  t.kind = c.string(doc["kind"], "kind", {"captured", "shape-only"});
  if (doc["description"]) t.description = c.string(doc["description"], "description");
  for (const char* k : {"checks", "provenance"})
    if (doc[k] && !doc[k].IsMap()) c.fail(k, "must be a mapping, got " + Ctx::tname(doc[k]));

  const YAML::Node model = doc["model"];
  c.mapping(model, "model", {{"name", true}, {"source", true}, {"revision", true}, {"architecture", true}});
  t.model_name = c.string(model["name"], "model.name");
  t.model_source = c.string(model["source"], "model.source");
  t.model_revision = c.string(model["revision"], "model.revision");
  t.architecture = c.string(model["architecture"], "model.architecture", {"llama", "qwen2", "deepseek_v3"});
  if (t.kind == "captured" && !is_sha256(t.model_revision))
    c.fail("model.revision", "must be the sha256 (64 lowercase hex digits) of the weight file");

  std::set<int64_t> layers;
  if (t.kind == "captured") {
    if (doc["shape"]) c.fail("shape", "only shape-only traces have a shape block");
    if (!doc["capture"]) c.fail("capture", "required field is missing (kind is captured)");
    const YAML::Node cap = doc["capture"];
    std::vector<std::pair<std::string, bool>> cap_keys = {{"script", true}, {"token_source", true}, {"text", false},
                                                          {"tokens", true}, {"token_ids", true}, {"seed", true},
                                                          {"layers", true}};
    if (v2) cap_keys.insert(cap_keys.end(), {{"step", false}, {"target_ids", false}});
    c.mapping(cap, "capture", cap_keys);
    t.step = cap["step"] ? c.string(cap["step"], "capture.step", {"forward", "training"}) : "forward";
    c.string(cap["script"], "capture.script");
    const std::string src = c.string(cap["token_source"], "capture.token_source", {"text", "model-sample"});
    if (src == "text") {
      if (!cap["text"]) c.fail("capture.text", "required when token_source is text");
      c.string(cap["text"], "capture.text");
    } else if (cap["text"] && !cap["text"].IsNull()) {
      c.fail("capture.text", "must be absent or null when token_source is model-sample");
    }
    t.tokens = static_cast<uint64_t>(c.integer(cap["tokens"], "capture.tokens"));
    c.integer(cap["seed"], "capture.seed", 0, INT64_MAX);
    const YAML::Node ids = cap["token_ids"];
    if (!ids.IsSequence()) c.fail("capture.token_ids", "must be a list, got " + Ctx::tname(ids));
    if (ids.size() != t.tokens)
      c.fail("capture.token_ids", "has " + std::to_string(ids.size()) + " ids, capture.tokens is " + std::to_string(t.tokens));
    for (size_t i = 0; i < ids.size(); ++i) c.integer(ids[i], "capture.token_ids[" + std::to_string(i) + "]", 0);
    // A training step's loss: position i predicts target_ids[i] (the next token of the text).
    if (t.step == "training") {
      if (!cap["target_ids"]) c.fail("capture.target_ids", "required when capture.step is training");
      const YAML::Node tg = cap["target_ids"];
      if (!tg.IsSequence()) c.fail("capture.target_ids", "must be a list, got " + Ctx::tname(tg));
      if (tg.size() != t.tokens)
        c.fail("capture.target_ids", "has " + std::to_string(tg.size()) + " ids, capture.tokens is " + std::to_string(t.tokens));
      for (size_t i = 0; i < tg.size(); ++i) c.integer(tg[i], "capture.target_ids[" + std::to_string(i) + "]", 0);
    } else if (cap["target_ids"]) {
      c.fail("capture.target_ids", "only a training step has targets (capture.step is forward)");
    }
    const YAML::Node lay = cap["layers"];
    if (!lay.IsSequence() || lay.size() == 0) c.fail("capture.layers", "must be a non-empty list of layer indices");
    for (size_t i = 0; i < lay.size(); ++i) {
      const int64_t l = c.integer(lay[i], "capture.layers[" + std::to_string(i) + "]", 0);
      if (!layers.insert(l).second) c.fail("capture.layers", "has duplicate layer indices");
      t.layers.push_back(l);
    }
  } else {
    if (doc["capture"]) c.fail("capture", "only captured traces have a capture block");
    if (!doc["shape"]) c.fail("shape", "required field is missing (kind is shape-only)");
    const YAML::Node shp = doc["shape"];
    c.mapping(shp, "shape", {{"phase", true}, {"sequences", true}, {"tokens", true}, {"context", true}, {"config", true}});
    t.phase = v2 ? c.string(shp["phase"], "shape.phase", {"prefill", "decode", "training"})
                 : c.string(shp["phase"], "shape.phase", {"prefill", "decode"});
    t.sequences = static_cast<uint64_t>(c.integer(shp["sequences"], "shape.sequences"));
    t.tokens = static_cast<uint64_t>(c.integer(shp["tokens"], "shape.tokens"));
    t.context = static_cast<uint64_t>(c.integer(shp["context"], "shape.context"));
    c.string(shp["config"], "shape.config");
  }

  const YAML::Node ops = doc["ops"];
  if (!ops.IsSequence() || ops.size() == 0) c.fail("ops", "must be a non-empty list");
  std::set<std::string> names;
  uint64_t total_macs = 0;
  for (size_t i = 0; i < ops.size(); ++i) {
    std::string f = "ops[" + std::to_string(i) + "]";
    const YAML::Node o = ops[i];
    std::vector<std::pair<std::string, bool>> op_keys = {{"name", true},  {"layer", true},  {"op", true},   {"M", true},
                                                         {"N", true},     {"K", true},      {"batch", true}, {"repeat", false},
                                                         {"a", false},    {"b", false},     {"c_ref", false}, {"note", false}};
    if (v2) op_keys.insert(op_keys.begin() + 3, {"kind", true});
    c.mapping(o, f, op_keys);
    TraceOp op;
    op.name = c.string(o["name"], f + ".name");
    if (!is_op_name(op.name)) c.fail(f + ".name", "'" + op.name + "' may only use letters, digits and _ . : -");
    if (!names.insert(op.name).second) c.fail(f + ".name", "duplicate op name '" + op.name + "'");
    f = "ops[" + std::to_string(i) + "] (" + op.name + ")";
    op.layer = c.integer(o["layer"], f + ".layer", 0);
    op.op = c.string(o["op"], f + ".op", v2 ? kOpsV2 : kOpsV1);
    if (v2) {
      op.kind = c.string(o["kind"], f + ".kind", kKinds);
      const bool ok = is_linear(op.op) ? op.kind == "fprop" || op.kind == "dgrad" || op.kind == "wgrad"
                                       : op.kind == kind_of_attention(op.op);
      if (!ok)
        c.fail(f + ".kind", "'" + op.kind + "' does not fit op '" + op.op + "' (" +
                                (is_linear(op.op) ? std::string("fprop, dgrad or wgrad") : kind_of_attention(op.op)) + ")");
      if (t.step == "forward" && !t.shape_only() && op.kind != "fprop" && op.kind != "attn_fwd")
        c.fail(f + ".kind", "'" + op.kind + "' in a forward capture (capture.step is forward)");
    } else {
      op.kind = is_linear(op.op) ? "fprop" : "attn_fwd";
    }
    op.M = static_cast<uint64_t>(c.integer(o["M"], f + ".M"));
    op.N = static_cast<uint64_t>(c.integer(o["N"], f + ".N"));
    op.K = static_cast<uint64_t>(c.integer(o["K"], f + ".K"));
    op.batch = static_cast<uint64_t>(c.integer(o["batch"], f + ".batch"));
    if (o["repeat"]) op.repeat = static_cast<uint64_t>(c.integer(o["repeat"], f + ".repeat"));
    if (o["note"]) op.note = c.string(o["note"], f + ".note");
    // batch, repeat < 2^31: their product fits; the sum over ops obeys the same limit as one op.
    total_macs += checked_op_macs(op.M, op.N, op.K, op.batch * op.repeat, manifest, f);
    if (total_macs > kMaxOpMacs)
      c.fail(f, "the ops up to this one add up to more than 2^60 multiply-adds (the limit, see io/trace.hpp)");
    const bool has_a = static_cast<bool>(o["a"]), has_b = static_cast<bool>(o["b"]), has_c = static_cast<bool>(o["c_ref"]);
    if (t.shape_only()) {
      if (has_a || has_b || has_c)
        c.fail(f + "." + (has_a ? "a" : has_b ? "b" : "c_ref"), "shape-only traces carry no tensors");
    } else {
      if (!has_a) c.fail(f + ".a", "required field is missing (kind is captured)");
      if (!has_b) c.fail(f + ".b", "required field is missing (kind is captured)");
      if (!layers.count(op.layer))
        c.fail(f + ".layer", "layer " + std::to_string(op.layer) + " is not listed in capture.layers");
      const bool on_k = token_axis_is_k(op);
      if ((on_k ? op.K : op.M) != t.tokens)
        c.fail(f + (on_k ? ".K" : ".M"), std::to_string(on_k ? op.K : op.M) + " != capture.tokens " + std::to_string(t.tokens) +
                                             (on_k ? " (K is the token count)" : " (M is the token count)"));
      if (!op.attention() && op.batch != 1)
        c.fail(f + ".batch", std::to_string(op.batch) + ": linear ops with tensors must have batch 1");
      const Roles roles = op_roles(op.op, op.kind);
      op.a = tensor_ref(c, o["a"], f + ".a", v2, roles.a);
      op.b = tensor_ref(c, o["b"], f + ".b", v2, roles.b);
      if (has_c) op.c_ref = tensor_ref(c, o["c_ref"], f + ".c_ref", v2, roles.c);
    }
    t.ops.push_back(std::move(op));
  }
  return t;
}

}  // namespace

double TraceOp::macs_per_step() const {
  return static_cast<double>(M) * static_cast<double>(N) * static_cast<double>(K) * static_cast<double>(batch) *
         static_cast<double>(repeat);
}

uint64_t checked_op_macs(uint64_t M, uint64_t N, uint64_t K, uint64_t instances, const std::string& where,
                         const std::string& field) {
  uint64_t macs = 0;
  const bool fits = mul_u64(M, N, macs) && mul_u64(macs, K, macs) && mul_u64(macs, instances, macs);
  if (!fits || macs > kMaxOpMacs)
    throw Error(where, field,
                "M x N x K x batch x repeat = " + (fits ? std::to_string(macs) : std::string("more than 2^64")) +
                    " multiply-adds is above the limit of 2^60 (see io/trace.hpp)");
  return macs;
}

Trace read_trace(const std::string& path) {
  std::string manifest = path;
  if (dir_exists(path)) manifest = (path.empty() || path.back() == '/' ? path : path + "/") + "trace.yaml";
  const std::string why = not_regular_reason(manifest);
  if (why == "does not exist") throw Error(manifest, "(file)", "trace.yaml is missing");
  if (!why.empty()) throw Error(manifest, "(file)", why);
  return trace_from_yaml(load_yaml_file(manifest), manifest);
}

Trace parse_trace(const std::string& yaml_text, const std::string& manifest) {
  return trace_from_yaml(load_yaml_text(yaml_text, manifest), manifest);
}

namespace {
// The shape of an operand's file: [batch,] rows x cols of the operand, the last two swapped when
// the file holds its transpose.
std::vector<size_t> file_shape(const TraceOp& op, const std::string& which) {
  const std::optional<TensorRef>& ref = which == "a" ? op.a : which == "b" ? op.b : op.c_ref;
  size_t rows = which == "b" ? op.N : op.M, cols = which == "c_ref" ? op.N : op.K;
  if (ref && ref->transposed) std::swap(rows, cols);
  std::vector<size_t> s = {rows, cols};
  if (op.attention()) s.insert(s.begin(), op.batch);
  return s;
}
}  // namespace

const std::vector<std::string>& trace_op_kinds() { return kKinds; }

std::string trace_json(const Trace& t) {
  JsonWriter w;
  w.begin_object().kv("manifest", t.manifest).kv("dir", t.dir).kv("schema", t.schema).kv("kind", t.kind);
  w.kv("description", t.description).kv("model_name", t.model_name).kv("model_source", t.model_source);
  w.kv("model_revision", t.model_revision).kv("architecture", t.architecture).kv("tokens", t.tokens);
  w.kv("step", t.step).kv("phase", t.phase).kv("sequences", t.sequences).kv("context", t.context);
  w.key("layers").begin_array();
  for (const int64_t l : t.layers) w.value(l);
  w.end_array();
  w.key("ops").begin_array();
  for (const TraceOp& op : t.ops) {
    w.begin_object().kv("name", op.name).kv("layer", op.layer).kv("op", op.op).kv("kind", op.kind);
    w.kv("M", op.M).kv("N", op.N).kv("K", op.K).kv("batch", op.batch).kv("repeat", op.repeat).kv("note", op.note);
    for (const char* which : {"a", "b", "c_ref"}) {
      const std::optional<TensorRef>& r = which[0] == 'a' ? op.a : which[0] == 'b' ? op.b : op.c_ref;
      if (!r) continue;
      w.key(which).begin_object().kv("file", r->file).kv("dtype", r->dtype).kv("sha256", r->sha256).kv("key", r->key);
      w.kv("role", r->role).kv("transposed", r->transposed);
      w.key("file_shape").begin_array();
      for (const size_t d : file_shape(op, which)) w.value(static_cast<uint64_t>(d));
      w.end_array().end_object();
    }
    w.end_object();
  }
  w.end_array().end_object();
  return w.str();
}

Operand load_operand(const Trace& t, const TraceOp& op, const std::string& which, uint64_t bi) {
  const std::optional<TensorRef>* ref = which == "a" ? &op.a : which == "b" ? &op.b : &op.c_ref;
  size_t idx = 0;
  for (; idx < t.ops.size(); ++idx)
    if (&t.ops[idx] == &op) break;
  const std::string f = "ops[" + std::to_string(idx) + "] (" + op.name + ")." + which;
  if (!ref->has_value()) throw Error(t.manifest, f, "the op has no tensor (shape-only trace?)");
  const TensorRef& r = **ref;
  const bool npy = r.file.size() >= 4 && r.file.compare(r.file.size() - 4, 4, ".npy") == 0;
  const std::string field = f + ".file " + r.file;
  if (not_regular_reason(t.dir + "/" + r.file) == "does not exist")
    throw Error(t.manifest, field, "file does not exist (run scripts/capture/ensure_traces.sh)");
  // Inside the trace folder after every symlink is resolved; the readers then take regular files only.
  const std::string path = resolve_inside(t.dir, r.file, t.manifest, field);
  NpyArray a;
  try {
    a = npy ? read_npy_f32(path) : read_safetensors_f32(path, r.key);  // read_trace() allowed only these two
  } catch (const Error& e) {
    throw Error(t.manifest, field, e.what());
  }
  const std::vector<size_t> want = file_shape(op, which);
  if (a.shape != want)
    throw Error(t.manifest, field, "shape " + shape_str(a.shape) + ", expected " + shape_str(want));
  if (bi >= (op.attention() ? op.batch : 1)) throw Error(t.manifest, f, "batch index out of range");
  Operand out;
  out.rows = which == "b" ? op.N : op.M;
  out.cols = which == "c_ref" ? op.N : op.K;
  const size_t n = out.rows * out.cols;
  const auto first = a.f32.begin() + static_cast<long>(bi * n);
  if (!r.transposed) {
    out.data.assign(first, first + static_cast<long>(n));
  } else {  // the file holds cols x rows
    out.data.resize(n);
    for (size_t i = 0; i < out.rows; ++i)
      for (size_t j = 0; j < out.cols; ++j) out.data[i * out.cols + j] = first[static_cast<long>(j * out.rows + i)];
  }
  return out;
}

}  // namespace hifsim::io
