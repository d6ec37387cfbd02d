// PS pacer: the source's periodic-selection pacing of paper 004 (Birk and Zdornov, SYSTOR'09,
// section 6, Fig. 7) in fixed point: which of the source's flows may send its next packet, and
// when.
//
// Mirrors ccnet::blocks::PsPacer (systemc/blocks/ps_pacer.hpp) cycle for cycle; the co-simulation
// bench tb/ps_pacer_cosim.cpp checks every output every cycle.
//
// State: NumFlows slots (a NIC send queue each), each with its flow's destination (DstW bits, the
// tie-break), rate r (Q16, rate_o: 65536 = line rate), virtual time V = D / r (vtime_o, TimeW bits,
// Q16 cycles), opened / fresh / ready flags; and the next send time (next_o, Q16 cycles).
// Everything resets to 0.
//
// Combinational: grant_o is the ready slot with a non-zero rate and the least (V, destination)
// (grant_valid_o), none before the next send time ({now_i, 16'b0} < next); grant_o is 0 without a
// grant.
// On the rising edge, in this order:
//   open_i:    a new flow to open_dst_i in slot open_slot_i (fresh: it takes its V at its first ready);
//   rate_we_i: rate of slot rate_slot_i := rate_i (1 .. 65536); V is kept;
//   ready_i:   the slots' ready levels; a fresh slot's first ready sets its V to the least V of the
//              other slots ready after the edge that are not fresh (0 if none), or to 0 (Join = 0);
//   send_i:    grant_o started a packet of len_i flits: V += round(len * 2^32 / r), and with R the
//              sum of the rates of the slots ready after the edge and of the granted one (capped at
//              65536), next := base + ceil(len * 2^32 / R), base = next if now_i * 2^16 < next +
//              2^16 (sent within the cycle its period ended in), else now_i * 2^16 (no catch-up).
// Contract violations (violation_o in their cycle, the operation is dropped, sticky error_o from
// the next edge; assertion Legal_A): a slot index >= NumFlows; open of a ready slot; a rate of 0
// or above 65536; ready on a slot never opened; send_i without a grant or with len_i = 0; V or
// the next send time overflowing TimeW bits.
// Handshake: every input is sampled every cycle; open_slot_i/open_dst_i, rate_slot_i/rate_i and
// len_i are ignored without their enables; grant_valid_o, grant_o and violation_o are combinational
// in the inputs and the state; next_o, vtime_o, rate_o and error_o are registered.
`default_nettype none

module ccn_ps_pacer #(
  /// Flow slots per source (1 .. 32).
  parameter int unsigned NumFlows = 4,
  /// Width of a destination id (1 .. 32).
  parameter int unsigned DstW = 8,
  /// Width of V and of the next send time, Q16 cycles (17 .. 64).
  parameter int unsigned TimeW = 40,
  /// Width of a packet length in flits (1 .. 16).
  parameter int unsigned LenW = 5,
  /// A fresh flow joins at the least V of the sending flows (1) or starts at 0 (0).
  parameter bit Join = 1'b1,
  /// Width of a slot index (derived).
  localparam int unsigned SlotW = NumFlows > 1 ? $clog2(NumFlows) : 1
) (
  input  logic                         clk_i,
  input  logic                         rst_ni,
  /// The current cycle.
  input  logic [TimeW-17:0]            now_i,
  /// Open a new flow to open_dst_i in slot open_slot_i.
  input  logic                         open_i,
  input  logic [SlotW-1:0]             open_slot_i,
  input  logic [DstW-1:0]              open_dst_i,
  /// Set the rate (Q16) of slot rate_slot_i.
  input  logic                         rate_we_i,
  input  logic [SlotW-1:0]             rate_slot_i,
  input  logic [16:0]                  rate_i,
  /// Per slot: the flow has a packet to send (level after this edge).
  input  logic [NumFlows-1:0]          ready_i,
  /// grant_o started a packet of len_i flits this cycle.
  input  logic                         send_i,
  input  logic [LenW-1:0]              len_i,
  /// The slot that may send this cycle.
  output logic                         grant_valid_o,
  output logic [SlotW-1:0]             grant_o,
  /// The next send time (Q16 cycles).
  output logic [TimeW-1:0]             next_o,
  /// Per slot ([k*TimeW +: TimeW], [k*17 +: 17]): V and the rate.
  output logic [NumFlows*TimeW-1:0]    vtime_o,
  output logic [NumFlows*17-1:0]       rate_o,
  /// The inputs break the contract this cycle (combinational).
  output logic                         violation_o,
  /// A violation happened since reset (sticky).
  output logic                         error_o
);

  localparam int unsigned WorkW = LenW + 32;  // len * 2^32
  // Width of the overflow comparisons and of the rate sum.
  localparam int unsigned CmpW = (TimeW > WorkW ? TimeW : WorkW) + 1;
  localparam int unsigned SumW = 17 + $clog2(NumFlows + 1);
  localparam logic [16:0] LineRate = 17'h10000;

  logic [NumFlows-1:0] open_q, fresh_q, ready_q;
  logic [NumFlows*DstW-1:0]  dst_q;
  logic [NumFlows*17-1:0]    rate_q;
  logic [NumFlows*TimeW-1:0] vtime_q;
  logic [TimeW-1:0]    next_q;
  logic                error_q;

  logic [NumFlows-1:0] open_d, fresh_d;
  logic [NumFlows*DstW-1:0]  dst_d;
  logic [NumFlows*17-1:0]    rate_d;
  logic [NumFlows*TimeW-1:0] vtime_d;
  logic [TimeW-1:0]    next_d;
  logic [NumFlows-1:0] ready_d;

  // Restoring division by a 17-bit divisor (1 .. 65536): one compare-subtract of 18 bits per
  // quotient bit (a full WorkW-bit divider would be twice as wide in every stage).
  function automatic logic [WorkW-1:0] div17(input logic [WorkW-1:0] n, input logic [16:0] d);
    logic [17:0]      r;
    logic [WorkW-1:0] q;
    r = '0;
    q = '0;
    for (int i = WorkW - 1; i >= 0; i--) begin
      r = {r[16:0], n[i]};
      if (r >= {1'b0, d}) begin
        r    = r - {1'b0, d};
        q[i] = 1'b1;
      end
    end
    div17 = q;
  endfunction

  logic [TimeW-1:0] now_q16;
  assign now_q16 = {now_i, 16'b0};

  // ------------------------------------------------------------------------------------------
  // Grant: the least (V, destination) among the ready slots with a rate, from the registers.
  logic [SlotW-1:0] best;
  always_comb begin : p_pick
    logic found;
    found = 1'b0;
    best  = '0;
    for (int unsigned k = 0; k < NumFlows; k++) begin
      if (ready_q[k] && rate_q[k*17 +: 17] != '0) begin
        if (!found || vtime_q[k*TimeW +: TimeW] < vtime_q[best*TimeW +: TimeW] ||
            (vtime_q[k*TimeW +: TimeW] == vtime_q[best*TimeW +: TimeW] &&
             dst_q[k*DstW +: DstW] < dst_q[best*DstW +: DstW])) begin
          best = SlotW'(k);
        end
        found = 1'b1;
      end
    end
    grant_valid_o = found && now_q16 >= next_q;
    grant_o       = grant_valid_o ? best : '0;
  end

  // ------------------------------------------------------------------------------------------
  // Next state, in the order open, rate, ready levels, send.
  always_comb begin : p_next
    logic                 open_bad, rate_bad, ready_bad, send_bad, ovf;
    logic [NumFlows-1:0]  eff;
    logic                 any;
    logic [TimeW-1:0]     join_v, vg, base;
    logic [WorkW-1:0]     work, step, period;
    logic [16:0]          rg, rg_half, rg_div, tcap_div;
    logic [TimeW-1:0]     room_v, room_b;
    logic [SumW-1:0]      total;
    logic [16:0]          tcap;
    open_d   = open_q;
    fresh_d  = fresh_q;
    dst_d    = dst_q;
    rate_d   = rate_q;
    vtime_d  = vtime_q;
    next_d   = next_q;

    // Open.
    open_bad = 32'(open_slot_i) >= NumFlows || ready_q[open_slot_i];
    if (open_i && !open_bad) begin
      open_d[open_slot_i]  = 1'b1;
      fresh_d[open_slot_i] = 1'b1;
      dst_d[open_slot_i*DstW +: DstW]   = open_dst_i;
    end

    // Rate.
    rate_bad = 32'(rate_slot_i) >= NumFlows || rate_i == '0 || rate_i > LineRate;
    if (rate_we_i && !rate_bad) begin
      rate_d[rate_slot_i*17 +: 17] = rate_i;
    end

    // Ready levels; fresh slots join at the least V of the other ready, non-fresh slots.
    eff       = ready_i & open_d;
    ready_bad = |(ready_i & ~open_d);
    any       = 1'b0;
    join_v    = '0;
    for (int unsigned k = 0; k < NumFlows; k++) begin
      if (eff[k] && !fresh_d[k]) begin
        if (!any || vtime_q[k*TimeW +: TimeW] < join_v) join_v = vtime_q[k*TimeW +: TimeW];
        any = 1'b1;
      end
    end
    if (!Join) join_v = '0;
    for (int unsigned k = 0; k < NumFlows; k++) begin
      if (eff[k] && fresh_d[k]) begin
        vtime_d[k*TimeW +: TimeW] = join_v;
        fresh_d[k] = 1'b0;
      end
    end
    ready_d = eff;

    // Send.
    rg    = rate_d[best*17 +: 17];
    vg    = vtime_d[best*TimeW +: TimeW];
    work  = {len_i, 32'b0};
    rg_half = rg >> 1;
    rg_div  = rg == '0 ? 17'd1 : rg;  // never 0: the granted slot has a rate
    step    = div17(work + WorkW'(rg_half), rg_div);
    total = ready_d[best] ? '0 : SumW'(rg);
    for (int unsigned k = 0; k < NumFlows; k++) begin
      if (ready_d[k]) total = total + SumW'(rate_d[k*17 +: 17]);
    end
    tcap   = total > SumW'(LineRate) ? LineRate : total[16:0];
    tcap_div = tcap == '0 ? 17'd1 : tcap;
    period   = div17(work + WorkW'(tcap) - WorkW'(1), tcap_div);
    base   = (now_q16 < next_q || now_q16 - next_q < TimeW'(LineRate)) ? next_q : now_q16;
    send_bad = !grant_valid_o || len_i == '0;
    room_v   = ~vg;
    room_b   = ~base;
    ovf      = CmpW'(step) > CmpW'(room_v) || CmpW'(period) > CmpW'(room_b);
    if (send_i && !send_bad && !ovf) begin
      vtime_d[best*TimeW +: TimeW] = vg + TimeW'(step);
      next_d           = base + TimeW'(period);
    end

    violation_o = (open_i && open_bad) || (rate_we_i && rate_bad) || ready_bad ||
                  (send_i && (send_bad || ovf));
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : p_state
    if (!rst_ni) begin
      open_q  <= '0;
      fresh_q <= '0;
      ready_q <= '0;
      next_q  <= '0;
      error_q <= 1'b0;
      dst_q   <= '0;
      rate_q  <= '0;
      vtime_q <= '0;
    end else begin
      open_q  <= open_d;
      fresh_q <= fresh_d;
      ready_q <= ready_d;
      next_q  <= next_d;
      error_q <= error_q || violation_o;
      dst_q   <= dst_d;
      rate_q  <= rate_d;
      vtime_q <= vtime_d;
    end
  end

  assign vtime_o = vtime_q;
  assign rate_o  = rate_q;
  assign next_o  = next_q;
  assign error_o = error_q;

  // ------------------------------------------------------------------------------------------
  // Assertions (simulation only).
`ifndef SYNTHESIS
  initial begin : p_params
    ParamNumFlows_A: assert (NumFlows >= 1 && NumFlows <= 32) else $fatal(1, "NumFlows out of 1..32");
    ParamDstW_A: assert (DstW >= 1 && DstW <= 32) else $fatal(1, "DstW out of 1..32");
    ParamTimeW_A: assert (TimeW >= 17 && TimeW <= 64) else $fatal(1, "TimeW out of 17..64");
    ParamLenW_A: assert (LenW >= 1 && LenW <= 16) else $fatal(1, "LenW out of 1..16");
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : p_assert
    if (rst_ni) begin
      Legal_A: assert (!violation_o)
        else $error("PS pacer: the inputs break the contract");
      ReadyOpen_A: assert ((ready_q & ~open_q) == '0 && (ready_q & fresh_q) == '0)
        else $error("PS pacer: a ready slot that is not open or still fresh");
    end
  end
`endif

endmodule

`default_nettype wire
