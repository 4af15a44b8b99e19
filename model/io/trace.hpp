// Reader of trace manifests `trace.yaml` (schemas hifsim-trace/1 and /2, docs/traces.md), with yaml-cpp.
// Plain C++ (no SystemC): used by `hifsim run --trace` and `hifsim trace`.
//
// The one schema reader: the Python validator (hifsim.capture.validate_trace) calls it through the
// binding (trace_json) and adds only checks of file contents (hashes, NaN/Inf, products). Every field
// is validated (presence, type, allowed values, unknown keys, captured vs shape-only rules); the first
// problem throws hifsim::Error(manifest, field, reason), e.g.
//   traces/x/trace.yaml: ops[3] (layer0.o_proj).M: must be an integer, got string '7'
// Tensor files are not opened by read_trace(); load_operand() reads one (float32 .npy, or an F32
// tensor of a .safetensors file, io/safetensors.hpp) and checks its shape. A tensor path must
// resolve, symlinks included, to a regular file inside the trace folder (io/input_file.hpp).
// Hashes are checked by the Python validator, not here.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hifsim::io {

// Version 2 adds op kinds (fprop, dgrad, wgrad, attn_fwd, attn_bwd), the attention backward GEMMs,
// operand roles, transposed operand files and training-step captures; version 1 traces still load
// (their ops are fprop or attn_fwd).
inline constexpr const char* kTraceSchema = "hifsim-trace/2";
inline constexpr const char* kTraceSchemaV1 = "hifsim-trace/1";

struct TensorRef {
  std::string file;     // relative to the trace directory
  std::string dtype;    // "float32"
  std::string sha256;   // may be empty
  std::string key;      // .safetensors only
  std::string role;     // what the tensor is (x, w, dy, q, k, v, p, do, ds; y, dx, dw, s, o, dp, dv, dq, dk);
                        // empty in version 1
  bool transposed = false;  // the file holds the operand's transpose (shared with the op that uses it as is)
};

struct TraceOp {
  std::string name;
  int64_t layer = 0;
  std::string op;       // q_proj ... down_proj, attn_qk, attn_pv, attn_dp, attn_dv, attn_dq, attn_dk
  std::string kind;     // fprop | dgrad | wgrad | attn_fwd | attn_bwd (version 1: fprop or attn_fwd)
  uint64_t M = 0, N = 0, K = 0, batch = 1, repeat = 1;
  std::string note;
  std::optional<TensorRef> a, b, c_ref;
  bool attention() const { return kind == "attn_fwd" || kind == "attn_bwd"; }
  // M * N * K * batch * repeat
  double macs_per_step() const;
};

struct Trace {
  std::string manifest;     // path of trace.yaml
  std::string dir;          // its directory
  std::string kind;         // "captured" | "shape-only"
  std::string description;
  std::string model_name, model_source, model_revision, architecture;
  // capture (captured) or shape (shape-only)
  uint64_t tokens = 0;
  std::vector<int64_t> layers;
  std::string schema;       // hifsim-trace/1 or hifsim-trace/2
  std::string step;         // captured: forward | training (version 1: forward)
  std::string phase;        // shape-only: prefill | decode | training
  uint64_t sequences = 0, context = 0;
  std::vector<TraceOp> ops;
  bool shape_only() const { return kind == "shape-only"; }
};

// `path` is a trace directory or its trace.yaml: a regular file, read through io/yaml_input.hpp
// (size bound, duplicate keys rejected).
Trace read_trace(const std::string& path);
// The same from text in memory; `manifest` is the path the text stands for (errors, tensor
// folder). The fuzz harness's entry point.
Trace parse_trace(const std::string& yaml_text, const std::string& manifest);

// The largest op a trace (or a --gemm workload) may describe: M x N x K x batch x repeat <= 2^60
// multiply-adds, and the same bound for the sum over a trace's ops. The biggest real prefill op (405B-class model, 128k tokens, every layer) is about
// 2^56; the timing core and the cost model count cycles, actions and bytes of an op in uint64,
// and those are at most a small multiple of its MACs, so 2^60 keeps every counter exact.
inline constexpr uint64_t kMaxOpMacs = uint64_t{1} << 60;
// M*N*K*instances with checked arithmetic; throws hifsim::Error(where, field, ...) above kMaxOpMacs.
uint64_t checked_op_macs(uint64_t M, uint64_t N, uint64_t K, uint64_t instances, const std::string& where,
                         const std::string& field);

// Every field read_trace() parsed, as JSON text (the Python validator's view of a manifest), with
// each tensor's expected file shape (transposed files swap the last two axes).
std::string trace_json(const Trace& t);

// The op kinds, in report order.
const std::vector<std::string>& trace_op_kinds();

// One operand of a captured op (`which` = "a", "b" or "c_ref"), batch element `bi`: a row-major
// float32 matrix (rows x cols). Throws hifsim::Error(manifest, field, reason) on a missing file,
// a wrong dtype or shape.
struct Operand {
  std::vector<float> data;
  size_t rows = 0, cols = 0;
};
Operand load_operand(const Trace& t, const TraceOp& op, const std::string& which, uint64_t bi);

}  // namespace hifsim::io
