// array_loadwalk: the tile loads of one operand buffer (A: IS_B = 0, tiles (mo, ko); B: tiles
// (no, ko)) for array_sequencer. It walks the steps (array_walk) and keeps the buffer's slots:
// a step whose tile is in a slot is a hit (the slot's last use moves to that step); a miss is a
// load into an empty slot (the lowest) or else into the least recently used one. The load may
// start when the step that last used that slot has finished issuing: its trigger (-1: an empty
// slot, at the start). The miss is the head job until the merge takes it, then the walk goes on.
//
// A hit at the first step of a repeated inner-loop iteration of the loop's outer operand (B for
// nmk, A for mnk) whose K tiles all fit the slots skips to the last iteration (array_walk `skip`):
// every step in between hits, and the last iteration's steps, walked one by one, leave the slots'
// last uses exactly where walking every step would.
//
// While walking over hits (no head yet), any later job has a trigger >= lb_trig (the least recent
// last use, which only grows; -1 with an empty slot) and a first step >= pos: the merge uses
// that bound to order the other buffer's jobs and the stores without waiting for this walk.
module array_loadwalk #(
  parameter int IS_B = 0
) (
  input  logic        clk,
  input  logic        rst_n,
  input  logic        run,
  input  logic        nmk,
  input  logic        two_slots,
  input  matrix_unit_pkg::shape_t shape,
  // the head job
  output logic        head,
  output logic        slot,
  output logic [16:0] trig,      // signed: the trigger step, -1 at the start
  output logic [15:0] first,     // the step that needs the tile
  output logic [15:0] row0,
  output logic [7:0]  nrows,
  output logic [15:0] k0,
  output logic [7:0]  kl,
  output logic [15:0] tag,       // {mo or no, ko}
  input  logic        take,
  // the bound while walking
  output logic        walking,
  output logic [16:0] lb_trig
);
  logic        done, rs_unused, first_unused, last_unused, hit, hit_slot;
  logic [15:0] idx, out_unused, m0, n0;
  logic [7:0]  mo, no, ko, ml, nl;
  logic        used [2];
  logic [15:0] stag [2];
  logic [15:0] slast [2];

  array_walk u_walk (
    .clk, .rst_n, .run, .nmk, .shape, .adv((run && !done && hit) || take),
    .skip(hit && nmk == (IS_B != 0)), .kslots(two_slots ? 2'd2 : 2'd1),
    .done, .idx, .out(out_unused), .mo, .no, .ko, .rs(rs_unused), .first(first_unused), .last(last_unused),
    .m0, .ml, .n0, .nl, .k0, .kl);

  always_comb begin
    tag = IS_B != 0 ? {no, ko} : {mo, ko};
    hit = 1'b0;
    hit_slot = 1'b0;
    for (int s = 0; s < 2; s++)
      if ((s == 0 || two_slots) && used[s] && stag[s] == tag) begin
        hit = 1'b1;
        hit_slot = s[0];
      end
    // victim: the lowest empty slot, else the least recently used
    if (!used[0])                      slot = 1'b0;
    else if (two_slots && !used[1])    slot = 1'b1;
    else if (two_slots && slast[1] < slast[0]) slot = 1'b1;
    else                               slot = 1'b0;
    trig    = used[slot] ? {1'b0, slast[slot]} : 17'h1FFFF;
    head    = run && !done && !hit;
    walking = run && !done && hit;
    if (!used[0] || (two_slots && !used[1])) lb_trig = 17'h1FFFF;
    else if (two_slots)                      lb_trig = {1'b0, (slast[1] < slast[0]) ? slast[1] : slast[0]};
    else                                     lb_trig = {1'b0, slast[0]};
    first = idx;
    row0  = IS_B != 0 ? n0 : m0;
    nrows = IS_B != 0 ? nl : ml;
  end

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      used[0] <= 1'b0; used[1] <= 1'b0;
    end else if (!run) begin
      used[0] <= 1'b0; used[1] <= 1'b0;
    end else if (!done && hit) begin
      slast[hit_slot] <= idx;
    end else if (take) begin
      used[slot] <= 1'b1;
      stag[slot] <= tag;
      slast[slot] <= idx;
    end
  end

  logic unused_ok;
  assign unused_ok = &{1'b0, rs_unused, first_unused, last_unused, out_unused};
endmodule
