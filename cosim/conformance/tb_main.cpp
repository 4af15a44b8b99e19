// The clock of a conformance testbench (cosim/conformance/tb_<unit>.sv; ports clk, rst_n, done,
// errors): reset, then clock cycles until the testbench says done. Exit 0 only if it finished
// with no failed check; plusargs (+stim=... +expect=... +count=...) go to the testbench.
#include <cstdint>
#include <cstdio>
#include <memory>

#include "verilated.h"
#include HIFSIM_TB_HEADER

int main(int argc, char** argv) {
  std::unique_ptr<VerilatedContext> ctx(new VerilatedContext);
  ctx->commandArgs(argc, argv);
  std::unique_ptr<HIFSIM_TB_MODEL> tb(new HIFSIM_TB_MODEL(ctx.get(), "tb"));
  tb->clk = 0;
  tb->rst_n = 0;
  tb->eval();
  tb->clk = 1;
  tb->eval();
  tb->rst_n = 1;
  const uint64_t limit = 20000000;  // far more than two phases of 16384 transactions need
  uint64_t c = 0;
  for (; c < limit && !tb->done; ++c) {
    tb->clk = 0;
    tb->eval();
    tb->clk = 1;
    tb->eval();
  }
  tb->final();
  if (!tb->done) {
    std::printf("conformance testbench: not done after %llu cycles (hang)\n", static_cast<unsigned long long>(c));
    return 1;
  }
  std::printf("conformance testbench: %llu cycles, %u failed checks: %s\n", static_cast<unsigned long long>(c),
              static_cast<unsigned>(tb->errors), tb->errors ? "FAIL" : "PASS");
  return tb->errors ? 1 : 0;
}
