// array_mem: the memory of the calibration matrix unit (behavioural; not product RTL): an array of
// WB-bit words, one data bus moving one word (beat) per cycle, a request queue, and a fixed
// latency `lat` (a run-time setting, 1..MAXLAT) from a beat on the bus to its response.
//
// A request is one tile row of `beats` consecutive words. It reaches the bus at cycle
// s = max(request cycle, bus free) -- the queue is bypassed when it is empty and the bus idle --
// and moves beat i in cycle s + i. Beat i's response (read data, or the write acknowledge) is in
// cycle s + i + lat; the request is complete after its last response: counters that count it
// show it from cycle s + beats + lat. These are the equations of perf::MemTimer
// (docs/tlm.md section 4) with bytes_per_cycle = WB / 8.
//
// Read data are taken from the array in the response cycle (the operand regions are not written
// during a command); write data come from the requester in the bus cycle (bus_wdata).
module array_mem #(
  parameter int WB     = 288,
  parameter int AW     = 13,
  parameter int MAXLAT = 64,
  parameter int QD     = 16,   // request queue entries (>= the most requests in flight)
  parameter int MW     = 16    // request tag bits (meta), returned with every beat
) (
  input  logic          clk,
  input  logic          rst_n,
  input  logic          running,
  input  logic [7:0]    lat,
  // request
  input  logic          req_valid,
  input  logic          req_write,
  input  logic [AW-1:0] req_addr,
  input  logic [7:0]    req_beats,
  input  logic [MW-1:0] req_meta,
  // the beat on the bus this cycle (a write's data come from the requester)
  output logic          bus_valid,
  output logic          bus_write,
  output logic [7:0]    bus_beat,
  output logic [MW-1:0] bus_meta,
  input  logic [WB-1:0] bus_wdata,
  // responses
  output logic          rsp_valid,
  output logic          rsp_write,
  output logic          rsp_last,   // the last beat of its request: the request is complete
  output logic [7:0]    rsp_beat,
  output logic [MW-1:0] rsp_meta,
  output logic [WB-1:0] rsp_data,
  // host access while idle
  input  logic          host_we,
  input  logic [AW-1:0] host_waddr,
  input  logic [WB-1:0] host_wdata,
  input  logic [AW-1:0] host_raddr,
  output logic [WB-1:0] host_rdata
);
  localparam int QA = (QD > 1) ? $clog2(QD) : 1;
  localparam int QC = $clog2(QD + 1);

  logic [WB-1:0] mem [1 << AW];
  assign host_rdata = mem[host_raddr];

  // ---- request queue ----
  logic          q_write [QD];
  logic [AW-1:0] q_addr  [QD];
  logic [7:0]    q_beats [QD];
  logic [MW-1:0] q_meta  [QD];
  logic [QA-1:0] q_rd, q_wr;
  logic [QC-1:0] q_n;

  // The request in progress on the bus (beats after its first), else the queue head, else the
  // request of this very cycle.
  logic          cur_v, cur_write;
  logic [AW-1:0] cur_addr;
  logic [7:0]    cur_beats, cur_beat;
  logic [MW-1:0] cur_meta;
  logic          from_q, from_in;
  logic [AW-1:0] bus_addr;
  logic [7:0]    bus_beats;
  always_comb begin
    from_q    = !cur_v && (q_n != '0);
    from_in   = !cur_v && (q_n == '0) && req_valid;
    bus_valid = running && (cur_v || from_q || from_in);
    if (cur_v) begin
      bus_write = cur_write; bus_addr = cur_addr; bus_beats = cur_beats; bus_beat = cur_beat; bus_meta = cur_meta;
    end else if (from_q) begin
      bus_write = q_write[q_rd]; bus_addr = q_addr[q_rd]; bus_beats = q_beats[q_rd]; bus_beat = '0;
      bus_meta = q_meta[q_rd];
    end else begin
      bus_write = req_write; bus_addr = req_addr; bus_beats = req_beats; bus_beat = '0; bus_meta = req_meta;
    end
  end

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      q_rd <= '0; q_wr <= '0; q_n <= '0; cur_v <= 1'b0;
    end else if (!running) begin
      q_rd <= '0; q_wr <= '0; q_n <= '0; cur_v <= 1'b0;
    end else begin
      if (req_valid && !from_in) begin
        q_write[q_wr] <= req_write; q_addr[q_wr] <= req_addr; q_beats[q_wr] <= req_beats; q_meta[q_wr] <= req_meta;
        q_wr <= (32'(q_wr) == QD - 1) ? '0 : q_wr + QA'(1);
      end
      if (from_q) q_rd <= (32'(q_rd) == QD - 1) ? '0 : q_rd + QA'(1);
      q_n <= q_n + QC'(req_valid && !from_in) - QC'(from_q);
      if (bus_valid && bus_beat + 8'd1 < bus_beats) begin
        cur_v <= 1'b1;
        cur_write <= bus_write; cur_addr <= bus_addr; cur_beats <= bus_beats; cur_beat <= bus_beat + 8'd1;
        cur_meta <= bus_meta;
      end else begin
        cur_v <= 1'b0;
      end
    end
  end

  always_ff @(posedge clk) begin
    if (running && bus_valid && bus_write) mem[bus_addr + AW'(bus_beat)] <= bus_wdata;
    else if (!running && host_we)          mem[host_waddr] <= host_wdata;
  end

  // ---- latency: a delay line tapped at stage lat - 1 (stages beyond the tap are ignored) ----
  logic          dl_v     [MAXLAT];
  logic          dl_write [MAXLAT];
  logic          dl_last  [MAXLAT];
  logic [AW-1:0] dl_addr  [MAXLAT];
  logic [7:0]    dl_beat  [MAXLAT];
  logic [MW-1:0] dl_meta  [MAXLAT];
  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      for (int i = 0; i < MAXLAT; i++) dl_v[i] <= 1'b0;
    end else begin
      dl_v[0]     <= bus_valid;
      dl_write[0] <= bus_write;
      dl_last[0]  <= bus_beat + 8'd1 == bus_beats;
      dl_addr[0]  <= bus_addr + AW'(bus_beat);
      dl_beat[0]  <= bus_beat;
      dl_meta[0]  <= bus_meta;
      for (int i = 1; i < MAXLAT; i++) begin
        dl_v[i] <= running && dl_v[i-1];
        dl_write[i] <= dl_write[i-1]; dl_last[i] <= dl_last[i-1]; dl_addr[i] <= dl_addr[i-1];
        dl_beat[i] <= dl_beat[i-1]; dl_meta[i] <= dl_meta[i-1];
      end
    end
  end

  logic [$clog2(MAXLAT)-1:0] tap;
  assign tap       = $clog2(MAXLAT)'(32'(lat) - 1);
  assign rsp_valid = running && dl_v[tap];
  assign rsp_write = dl_write[tap];
  assign rsp_last  = dl_last[tap];
  assign rsp_beat  = dl_beat[tap];
  assign rsp_meta  = dl_meta[tap];
  assign rsp_data  = mem[dl_addr[tap]];
endmodule
