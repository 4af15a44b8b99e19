// The hardware of the transpose buffer (transpose_buffer.hpp; rtl/transpose_buffer.sv): two banks
// of T x T W-bit elements in flip-flops, a row write enable per bank and row, the column read mux
// (bank select, then element k of every row) and the control registers; one candidate rank, the
// output register. Every width from T and W.
#include "datapath/hw.hpp"
#include "datapath/transpose_buffer.hpp"

namespace hifsim::dp::hw {

UnitDesc describe_transpose_buffer(int tile, int width, int stages) {
  const TransposeBuffer check(tile, width, stages);  // the range (throws naming the parameter)
  const int T = tile, W = width, beat = T * W, ctr = ceil_log2(T);
  const std::string t = std::to_string(T), w = std::to_string(W);
  UnitDesc d;
  d.rtl_top = "transpose_buffer";
  d.rtl_params = {{"T", T}, {"W", W}, {"STAGES", stages}};
  d.label = "transpose buffer " + t + "x" + t + " x" + w + "b";
  d.stages = stages;
  d.cut_rule = "transpose_buffer";
  d.cut_masks = {0b0, 0b1};
  d.cuts = {{"col", "u_cut_col", beat}};
  auto c = [](const char* name, Kind k, int p1, int p2, int count, std::string what) {
    return Component{name, k, p1, p2, count, false, false, std::move(what)};
  };
  d.parts = {
      c("mem.bits", Kind::reg, 2 * T * beat, 0, 1, "2 banks x " + t + " x " + t + " elements of " + w + " bits"),
      c("mem.wr_en", Kind::mux, beat, 2, 2 * T, "row write enable (hold or load) per bank and row"),
      c("rd.bank", Kind::mux, beat, 2, T, "bank select of each row"),
      c("rd.col", Kind::mux, W, T, T, "element k of each row: the offered column"),
      c("ctl.ctr", Kind::add, ctr, 0, 2, "write-row and read-column counters"),
      c("ctl.state", Kind::reg, 2 * ctr + 4, 0, 1, "full bit per bank, write and read bank, both counters"),
  };
  d.operand_bits = beat;
  d.rtl_signals = {{"col_d", beat}, {"full_q", 2}, {"wr_q", ctr}, {"rc_q", ctr}};
  d.stage_table = {
      {"wr", "`mem[wb][wr] = row`: write beat r of a tile into row r of the write bank", "any W-bit pattern",
       t + " x " + w},
      {"rd", "`col[i] = mem[rb][i][rc]`: read beat k is column k of the read bank", "any W-bit pattern", t + " x " + w},
  };
  d.pkg = {{"TPB_TILE_MIN", kTransposeTileMin, "transpose_buffer: smallest T (a power of two)"},
           {"TPB_TILE_MAX", kTransposeTileMax, "transpose_buffer: largest T"},
           {"TPB_WIDTH_MAX", kTransposeWidthMax, "transpose_buffer: widest element, bits"}};
  return d;
}

}  // namespace hifsim::dp::hw
