// Hardware descriptions of the datapath units (docs/datapath.md "Hardware descriptions"): what
// each unit is built of, written once next to its bit-exact model (`<unit>_hw.cpp` beside
// `<unit>.cpp`) with every width computed from the unit's bounds (the *Bounds structs). The cost
// model prices these descriptions (model/cost: coefficients x structure x measured activity),
// rtl/hifsim_pkg.sv's generated section and docs/datapath.md's stage tables are printed from them,
// and tests/hw checks them against the elaborated RTL modules. Structure only: no cost
// coefficients here, no SystemC.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "datapath/aligned_dot.hpp"
#include "datapath/exact.hpp"
#include "datapath/residual.hpp"
#include "datapath/sr_quantizer.hpp"
#include "formats/tensor.hpp"

namespace hifsim::dp::hw {

// Structural component classes. p1/p2 are the class's two size parameters:
//   mul    a x b unsigned multiplier          p1 = a, p2 = b
//   smul   sign-magnitude w x w product -> (2w+1)-bit two's complement   p1 = w
//   add    w-bit adder (also subtractor, incrementer, comparator)   p1 = w
//   tree   sum of n signed w-bit terms        p1 = n, p2 = w
//   shift  logarithmic shifter, w-bit input, s levels (shift range 2^s)   p1 = w, p2 = s
//   norm   leading-zero count + normalising left shift of w bits   p1 = w
//   mux    n:1 multiplexer of w bits           p1 = w, p2 = n
//   max    maximum of n unsigned w-bit values  p1 = n, p2 = w
//   reg    register (flip-flops)              p1 = bits
//   fpadd  the FP32-family accumulator adder (rtl/fp32_acc.sv without its register)
//          p1 = mantissa bits, p2 = 1 for round-toward-zero
//   dec    element decoder of a format, p1 = 0: E2M1 magnitude -> half units,
//          p1 = 1: HiF8 code -> significand + exponent
enum class Kind { mul, smul, add, tree, shift, norm, mux, max, reg, fpadd, dec };
const char* kind_name(Kind k);

// Bits of a two's complement value in [-bound, bound]; of an unsigned value in [0, bound].
constexpr int signed_bits(long long bound) {
  int w = 1;
  while ((1LL << (w - 1)) - 1 < bound) ++w;
  return w;
}
constexpr int unsigned_bits(long long bound) {
  int w = 1;
  while ((1LL << w) - 1 < bound) ++w;
  return w;
}
constexpr int ceil_log2(long long n) {
  int l = 0;
  while ((1LL << l) < n) ++l;
  return l;
}

struct Component {
  std::string name;       // "s1.prod": stage and role; the unit's net trace records under this name
  Kind kind = Kind::add;
  int p1 = 0, p2 = 0;
  int count = 1;
  bool baseline = false;  // provided by the shared FP8/INT8 dot-product baseline (docs/cost.md)
  bool per_lane = false;  // one per element lane (halved in the 2:4 residual unit)
  std::string what;       // one line for reports
};

// A candidate pipeline register rank: the k-th (1-based) in datapath order is "pipe.c<k>".
struct Cut {
  std::string after;         // the stage it follows ("s2")
  std::string rtl_instance;  // its hifsim_pipe_reg instance below the RTL top ("u_cut_s2", "u_dot.u_cut_s1")
  int bits = 0;              // data bits (the RTL adds one valid bit)
};

struct RtlParam {
  std::string name;
  int value = 0;
};
// A module-level signal of the RTL top and its width (tests/hw compares the elaborated module).
struct RtlSignal {
  std::string name;
  int width = 0;
};
// One row of the unit's stage table (docs/datapath.md).
struct StageRow {
  std::string stage, quantity, range, width;
};
// A constant of the generated section of rtl/hifsim_pkg.sv.
struct PkgConst {
  std::string name;
  long long value = 0;
  std::string comment;
};

struct UnitDesc {
  std::string rtl_top;                // RTL module ("hif4_dot64"); empty: no RTL yet
  std::vector<RtlParam> rtl_params;   // this instance's RTL parameters, STAGES included
  std::string label;                  // "hif4 x64" (reports)
  std::string cut_rule;               // its cut table as package function <cut_rule>_cut (shared datapaths share it)
  int stages = 0;                     // register ranks built
  std::vector<uint32_t> cut_masks;    // per STAGES 0..max: bit k-1 set = cut k is a rank (the RTL's table)
  std::vector<Cut> cuts;              // every candidate rank, in datapath order
  std::vector<Component> parts;       // everything else (combinational logic, the accumulator register)
  int operand_bits = 0;               // one operand of one operation, block metadata included
  std::vector<RtlSignal> rtl_signals;
  std::vector<StageRow> stage_table;
  std::vector<PkgConst> pkg;          // constants this unit contributes to rtl/hifsim_pkg.sv

  int max_stages() const { return static_cast<int>(cut_masks.size()) - 1; }
  bool cut_on(int k) const;           // k = 1..cuts.size(), at `stages`
};

// The parts followed by one register component "pipe.c<k>" (reg, p1 = bits) per built rank.
std::vector<Component> inventory(const UnitDesc& d);

// Where a unit's net trace reports the values on each component's nets, one operation at a time.
class NetSink {
 public:
  virtual ~NetSink() = default;
  // A `width`-bit value (two's complement, masked to width; width 1..128) on a net of `comp`.
  virtual void net(const char* comp, i128 value, int width) = 0;
};
using Field = std::pair<i128, int>;  // a value and its width
// Reports the fields of rank k under "pipe.c<k>" when that rank is built; their widths must add
// up to the rank's bits (throws hifsim::Error otherwise: the trace and the description disagree).
void put_cut(NetSink& s, const UnitDesc& d, int k, const std::vector<Field>& fields);
// A balanced pairwise adder tree over `leaves`: reports every node (leaves at `w` bits, each level
// one bit wider) under `comp`. Returns the root.
i128 put_tree(NetSink& s, const char* comp, std::vector<i128> leaves, int w);
// One operand of a block unit: its `n` element codes (`code_bits` each) and its `n_scales` 8-bit
// scale codes, under "in.operands".
void put_operand(NetSink& s, const uint16_t* codes, int n, int code_bits, const uint8_t* scales, int n_scales);
// The products of the FP4 units (HiF4, NVFP4, MXFP4; sign-magnitude codes, bit 3 the sign): per
// lane both 3-bit magnitude codes and both decoded magnitudes under `dec`, both magnitudes, the
// sign and the product under "s1.prod".
void put_fp4_products(NetSink& s, const char* dec, const uint8_t* code_a, const uint8_t* code_b, const int8_t* a,
                      const int8_t* b, const int16_t* p, int n, int mag_bits, int p_bits);
// Both operands of unit block `blk` (row m of A, row n of B; `elems` elements each, at most 64):
// the element codes, their low bytes (the FP4 and FP8 units take byte codes) and `n_scales` scale
// codes per operand (null when 0), reported under "in.operands" as put_operand does.
struct BlockOperands {
  const uint16_t *ca = nullptr, *cb = nullptr;
  const uint8_t *sa = nullptr, *sb = nullptr;
  uint8_t a8[64] = {}, b8[64] = {};
};
BlockOperands block_operands(const fmt::QTensor& A, size_t m, const fmt::QTensor& B, size_t n, size_t blk, int elems,
                             int code_bits, int n_scales, NetSink& s);
// The codes and scales of unit block `blk` (`n` elements, `per_block` scales) of a row.
const uint16_t* block_codes(const fmt::QTensor& q, size_t row, size_t blk, int n);
const uint8_t* block_scales(const fmt::QTensor& q, size_t row, size_t blk, int per_block);
// The integer -> FP32 conversion at the end of the dot units: the signed sum and its magnitude
// (abs_n), the magnitude and the truncated 24-bit significand (norm_n), the rounding input and
// output mantissa (round_n, may be null), the exponent in and out (exp_n).
void put_fp32_conversion(NetSink& s, const char* abs_n, const char* norm_n, const char* round_n, const char* exp_n,
                         i128 sum, int sum_bits, int exp_in, int exp_bits, uint32_t out);

// ---- The dot units ----
struct DotParams {
  fmt::Format format = fmt::Format::hif4;
  int lanes = 64;                             // elements per operation
  int align_width = 0;                        // aligned units: the window W built (exact -> Wexact)
  AlignPolicy policy = AlignPolicy::trunc;
  int stages = 0;                             // register ranks
};

struct DotUnitHw {
  UnitDesc (*describe)(const DotParams& p);
  // Runs unit block `blk` of row m of A and row n of B (quantized in the unit's format) and
  // reports every component's nets, the built ranks and "in.operands" (both operands' bits);
  // returns the unit's FP32 output.
  float (*trace)(const UnitDesc& d, const DotParams& p, const fmt::QTensor& A, size_t m, const fmt::QTensor& B, size_t n,
                 size_t blk, NetSink& s);
  // Parameters the trace cannot follow: {config field, reason}, or {"", ""}.
  std::pair<std::string, std::string> (*unsupported)(const DotParams& p);
};
// The dot unit a tensor format's GEMM runs on (throws hifsim::Error for a format without one).
const DotUnitHw& dot_unit(fmt::Format f);
UnitDesc describe_dot(const DotParams& p);
// The unit of a format with `lanes` lanes and window `a` / with its defaults (lanes, window;
// exact -> Wexact). The unit of a GEMM spec: gemm/gemm_unit.hpp.
DotParams dot_params(fmt::Format f, int lanes, const AlignSpec& a, int stages);
DotParams default_dot_params(fmt::Format f, int stages);

// ---- Every unit by name (its RTL top), with RTL parameters ----
// The unit `name` with RTL parameters (NAME, VALUE) on top of the RTL module's defaults; unknown
// names and values out of range throw hifsim::Error naming the parameter.
UnitDesc unit_by_name(const std::string& name, const std::vector<std::pair<std::string, int>>& params = {});
// The RTL module's parameters and their defaults (empty for a name that is not a unit).
std::vector<RtlParam> rtl_defaults(const std::string& name);
struct NamedUnit {
  std::string name;
  UnitDesc desc;
};
std::vector<NamedUnit> all_units();  // at the RTL defaults, in the order of docs/datapath.md

// ---- The accumulator (fp32_acc), the quantizer, the residual unit ----
UnitDesc describe_acc(const AccSpec& a);    // "acc.fpadd" + "acc.reg"; throws for kulisch
int acc_register_bits(const AccSpec& a);    // sign + exponent + mantissa bits of the register
// One accumulator step acc + d -> res: the nets of the FP adder and the register.
void acc_nets(float acc, float d, float res, const AccSpec& a, NetSink& s);
// The block quantizer of a format for one block of `lanes` values (throws for a format without one).
UnitDesc describe_quantizer(fmt::Format f, int lanes, bool hif4_ascend_a6 = false);
// The dedicated residual unit of a dot unit (residual.path: dedicated; combinational).
UnitDesc describe_residual(const DotParams& p, ResidualKind kind);
// rtl/sr_quantizer.sv: the stochastic-rounding element quantizer, B random bits per element.
UnitDesc describe_sr_quantizer(SrElem elem, unsigned bits, int stages);
// rtl/sparse_residual_add.sv: the HiF4 2:4 select-and-multiply unit and its accumulator.
UnitDesc describe_sparse_residual_add(int stages, const AccSpec& acc);
// rtl/hadamard16.sv: the 16 x 16 Hadamard transform of the RHT (hadamard16.hpp).
UnitDesc describe_hadamard16(int stages);
// rtl/transpose_buffer.sv: the double-buffered T x T transpose buffer (transpose_buffer.hpp).
UnitDesc describe_transpose_buffer(int tile, int width, int stages);

}  // namespace hifsim::dp::hw
