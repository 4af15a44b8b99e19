// tb_hif4_dot64: checks rtl/hif4_dot64.sv against conformance vectors of `hifsim vectors --unit
// hif4_dot64` (docs/cosim.md "Conformance vectors") the way another RTL team would check its own
// unit: $readmemh the stimulus and expected files, drive the valid/ready ports, compare every bit.
// The clock comes from tb_main.cpp; plusargs: +stim=FILE +expect=FILE +count=N.
//   Phase 0: every transaction back to back with out_ready = 1: each result must leave exactly
//            STAGES cycles after its input was taken, one per cycle (the declared timing).
//   Phase 1: the same vectors again with random input bubbles and random back-pressure: the
//            results must come in order and be right.
// `done` rises when both phases are over; `errors` counts the failed checks (tb_main.cpp exits 1
// if it is not 0).
module tb_hif4_dot64 #(
  parameter int STAGES = 1,
  parameter int MAXN   = 16384
) (
  input  logic        clk,
  input  logic        rst_n,
  output logic        done,
  output logic [31:0] errors
);
  logic [575:0] stim [0:MAXN-1];
  logic [31:0]  expv [0:MAXN-1];
  int           n;

  initial begin
    string sfile, efile;
    if (!$value$plusargs("stim=%s", sfile) || !$value$plusargs("expect=%s", efile) || !$value$plusargs("count=%d", n))
      $display("tb_hif4_dot64: usage: +stim=FILE +expect=FILE +count=N");
    if (n < 1 || n > MAXN) begin
      $display("tb_hif4_dot64: +count=%0d outside 1..%0d", n, MAXN);
      n = 0;
    end
    $readmemh(sfile, stim, 0, n - 1);
    $readmemh(efile, expv, 0, n - 1);
  end

  logic        in_valid, in_ready, out_valid, out_ready;
  logic [31:0] out;
  hif4_dot64 #(.STAGES(STAGES)) dut (
    .clk, .rst_n, .in_valid, .in_ready, .a(stim[sent][287:0]), .b(stim[sent][575:288]),
    .out_valid, .out_ready, .out
  );

  int          sent, got, phase;
  int unsigned cycle;
  int unsigned taken_at [0:MAXN-1];  // cycle each transaction was taken (phase 0)
  logic [31:0] lfsr;                 // bubbles and back-pressure of phase 1

  always_comb begin
    in_valid  = (n > 0) && !done && (sent < n) && (phase == 0 || lfsr[3:0] > 4'd2);
    out_ready = phase == 0 || lfsr[7:4] > 4'd4;
  end

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      sent <= 0;
      got <= 0;
      phase <= 0;
      cycle <= 0;
      done <= 1'b0;
      errors <= 0;
      lfsr <= 32'hC0FFEE01;
    end else if (!done) begin
      cycle <= cycle + 1;
      lfsr <= {lfsr[30:0], lfsr[31] ^ lfsr[21] ^ lfsr[1] ^ lfsr[0]};
      if (in_valid && in_ready) begin
        taken_at[sent] <= cycle;
        sent <= sent + 1;
      end
      if (phase == 0 && got < sent && (cycle - taken_at[got]) == STAGES && !out_valid) begin
        $display("tb_hif4_dot64: transaction %0d: no result %0d cycles after its input (the declared latency)", got, STAGES);
        errors <= errors + 1;
        done <= 1'b1;
      end
      if (out_valid && out_ready) begin
        if (got >= sent && STAGES > 0) begin
          $display("tb_hif4_dot64: a result with no transaction in flight");
          errors <= errors + 1;
        end else begin
          if (out !== expv[got]) begin
            if (errors < 10) $display("tb_hif4_dot64: phase %0d, transaction %0d: expected %08x, got %08x", phase, got, expv[got], out);
            errors <= errors + 1;
          end
          if (phase == 0 && (cycle - (got < sent ? taken_at[got] : cycle)) != STAGES) begin
            $display("tb_hif4_dot64: transaction %0d: result after %0d cycles, declared latency %0d", got, cycle - taken_at[got], STAGES);
            errors <= errors + 1;
          end
        end
        got <= got + 1;
        if (got + 1 == n) begin  // this phase is over: the next one starts from the first vector
          sent <= 0;
          got <= 0;
          phase <= phase + 1;
          if (phase == 1) done <= 1'b1;
        end
      end
    end
  end
endmodule
