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
// The two divisions: DivBits = 0 does them in the send's cycle (two combinational dividers of
// LenW + 32 quotient bits). DivBits > 0 makes them iterative, DivBits quotient bits per cycle
// each: Iters = ceil((LenW + 32) / DivBits) cycles from the send's on; the divisors (r, R), base and
// the granted slot's V are latched at the send, V and next are written at the edge of the last
// cycle, and grant_valid_o is 0 in the Iters - 1 busy cycles after the send. A fresh flow that
// joins while the divider is busy and counts the granted slot takes the least V of the others
// and is marked; the last edge lowers it to the granted slot's new V if that is less, so every V
// is the one DivBits = 0 gives. An open of the granted slot while busy cancels its V update. The
// pacer therefore grants exactly as with DivBits = 0 whenever the next grant would come Iters or
// more cycles after a send anyway, which at any R <= line rate holds for packets of Iters flits
// or more.
// Contract violations (violation_o in their cycle, the operation is dropped, sticky error_o from
// the next edge; assertion Legal_A): a slot index >= NumFlows; open of a ready slot; a rate of 0
// or above 65536; ready on a slot never opened; send_i without a grant or with len_i = 0; V or
// the next send time overflowing TimeW bits (DivBits > 0: flagged in the divider's last cycle,
// which then writes neither V nor next).
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
  /// Quotient bits per cycle of the two dividers (0: all LenW + 32 in the send's cycle).
  parameter int unsigned DivBits = 0,
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
  // Quotient bits per cycle, cycles per division, the numerator padded to whole steps.
  localparam int unsigned StepB = (DivBits == 0 || DivBits > WorkW) ? WorkW : DivBits;
  localparam int unsigned Iters = (WorkW + StepB - 1) / StepB;
  localparam int unsigned NumW = Iters * StepB;
  localparam int unsigned CntW = Iters > 1 ? $clog2(Iters) : 1;
  // Width of the overflow comparisons and of the rate sum.
  localparam int unsigned CmpW = (TimeW > NumW ? TimeW : NumW) + 1;
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

  // The iterative dividers (DivBits > 0): busy for Iters - 1 cycles after a send. Per division a
  // remainder (below its 17-bit divisor) and a shift register that turns the numerator's bits,
  // most significant first, into the quotient's.
  logic                busy_q, busy_d;
  logic [CntW-1:0]     cnt_q, cnt_d;
  logic [SlotW-1:0]    pslot_q, pslot_d;
  logic                cancel_q, cancel_d;
  logic [TimeW-1:0]    pbase_q, pbase_d, pv_q, pv_d;
  logic [16:0]         dv_q, dv_d, dp_q, dp_d, rv_q, rv_d, rp_q, rp_d;
  logic [NumW-1:0]     qv_q, qv_d, qp_q, qp_d;
  logic [NumFlows-1:0] jp_q, jp_d;  // joined while busy: lower to the granted slot's new V

  // StepB steps of restoring division by a 17-bit divisor d (1 .. 65536): one compare-subtract of
  // 18 bits per quotient bit (a full NumW-bit divider would be twice as wide in every stage).
  // Returns {remainder, shift register}.
  function automatic logic [17+NumW-1:0] div_step(input logic [16:0] r_in, input logic [NumW-1:0] n,
                                                  input logic [16:0] d);
    logic [17:0]     r;
    logic [NumW-1:0] q;
    r = {1'b0, r_in};
    q = n;
    for (int unsigned i = 0; i < StepB; i++) begin
      r = {r[16:0], q[NumW-1]};
      q = {q[NumW-2:0], 1'b0};
      if (r >= {1'b0, d}) begin
        r    = r - {1'b0, d};
        q[0] = 1'b1;
      end
    end
    div_step = {r[16:0], q};
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
    grant_valid_o = found && !busy_q && now_q16 >= next_q;
    grant_o       = grant_valid_o ? best : '0;
  end

  // ------------------------------------------------------------------------------------------
  // Next state, in the order open, rate, ready levels, send (or the busy divider's step).
  always_comb begin : p_next
    logic                 open_bad, rate_bad, ready_bad, send_bad, start, last, fin, ovf;
    logic [NumFlows-1:0]  eff;
    logic                 any, held;
    logic [TimeW-1:0]     join_v, vg, base, vnew, vfin;
    logic [WorkW-1:0]     work;
    logic [NumW-1:0]      step, period;
    logic [16:0]          rg, rg_half, rg_div, tcap_div, rem_v, rem_p;
    logic [TimeW-1:0]     room_v, room_b;
    logic [SumW-1:0]      total;
    logic [16:0]          tcap;
    open_d   = open_q;
    fresh_d  = fresh_q;
    dst_d    = dst_q;
    rate_d   = rate_q;
    vtime_d  = vtime_q;
    next_d   = next_q;
    busy_d   = busy_q;
    cnt_d    = cnt_q;
    pslot_d  = pslot_q;
    cancel_d = cancel_q;
    pbase_d  = pbase_q;
    pv_d     = pv_q;
    dv_d     = dv_q;
    dp_d     = dp_q;
    jp_d     = jp_q;

    // Open; an open of the slot whose division is under way cancels its V update.
    open_bad = 32'(open_slot_i) >= NumFlows || ready_q[open_slot_i];
    if (open_i && !open_bad) begin
      open_d[open_slot_i]  = 1'b1;
      fresh_d[open_slot_i] = 1'b1;
      dst_d[open_slot_i*DstW +: DstW]   = open_dst_i;
      jp_d[open_slot_i]    = 1'b0;
      if (busy_q && open_slot_i == pslot_q) cancel_d = 1'b1;
    end

    // Rate.
    rate_bad = 32'(rate_slot_i) >= NumFlows || rate_i == '0 || rate_i > LineRate;
    if (rate_we_i && !rate_bad) begin
      rate_d[rate_slot_i*17 +: 17] = rate_i;
    end

    // Ready levels; fresh slots join at the least V of the other ready, non-fresh slots. While the
    // divider is busy the granted slot's V register is not yet the new one: it is left out of the
    // minimum and the joining slots are marked (jp) to be lowered to it at the last edge (unless
    // the slot was opened again since: then its register is its new flow's).
    eff       = ready_i & open_d;
    ready_bad = |(ready_i & ~open_d);
    any       = 1'b0;
    held      = 1'b0;
    join_v    = '0;
    for (int unsigned k = 0; k < NumFlows; k++) begin
      if (eff[k] && !fresh_d[k]) begin
        if (busy_q && !cancel_q && SlotW'(k) == pslot_q) begin
          held = 1'b1;
        end else begin
          if (!any || vtime_q[k*TimeW +: TimeW] < join_v) join_v = vtime_q[k*TimeW +: TimeW];
          any = 1'b1;
        end
      end
    end
    if (held && !any) join_v = '1;  // only the granted slot: its new V at the last edge
    if (!Join) begin
      join_v = '0;
      held   = 1'b0;
    end
    for (int unsigned k = 0; k < NumFlows; k++) begin
      if (eff[k] && fresh_d[k]) begin
        vtime_d[k*TimeW +: TimeW] = join_v;
        fresh_d[k] = 1'b0;
        jp_d[k]    = held;
      end
    end
    ready_d = eff;

    // Send: the operands of the two divisions.
    rg    = rate_d[best*17 +: 17];
    work  = {len_i, 32'b0};
    rg_half = rg >> 1;
    rg_div  = rg == '0 ? 17'd1 : rg;  // never 0: the granted slot has a rate
    total = ready_d[best] ? '0 : SumW'(rg);
    for (int unsigned k = 0; k < NumFlows; k++) begin
      if (ready_d[k]) total = total + SumW'(rate_d[k*17 +: 17]);
    end
    tcap   = total > SumW'(LineRate) ? LineRate : total[16:0];
    tcap_div = tcap == '0 ? 17'd1 : tcap;
    base   = (now_q16 < next_q || now_q16 - next_q < TimeW'(LineRate)) ? next_q : now_q16;
    send_bad = !grant_valid_o || len_i == '0;
    start    = send_i && !send_bad;

    // One step of both dividers: from the send's operands, or from the registers while busy.
    if (busy_q) begin
      {rem_v, step}   = div_step(rv_q, qv_q, dv_q);
      {rem_p, period} = div_step(rp_q, qp_q, dp_q);
    end else begin
      {rem_v, step}   = div_step('0, NumW'(WorkW'(work + WorkW'(rg_half))), rg_div);
      {rem_p, period} = div_step('0, NumW'(WorkW'(work + WorkW'(tcap) - WorkW'(1))), tcap_div);
    end
    rv_d = rem_v;
    qv_d = step;
    rp_d = rem_p;
    qp_d = period;
    last = busy_q ? cnt_q == CntW'(Iters - 1) : Iters == 1;
    if (start && !last) begin
      busy_d   = 1'b1;
      cnt_d    = CntW'(1);
      pslot_d  = best;
      cancel_d = 1'b0;
      pbase_d  = base;
      pv_d     = vtime_d[best*TimeW +: TimeW];
      dv_d     = rg_div;
      dp_d     = tcap_div;
    end else if (busy_q) begin
      busy_d = !last;
      cnt_d  = cnt_q + CntW'(1);
    end

    // The divisions' end: V and the next send time, unless they overflow.
    fin    = last && (busy_q || start);
    vg     = busy_q ? pv_q : vtime_d[best*TimeW +: TimeW];
    room_v = ~vg;
    room_b = ~(busy_q ? pbase_q : base);
    ovf    = fin && (CmpW'(step) > CmpW'(room_v) || CmpW'(period) > CmpW'(room_b));
    vnew   = vg + TimeW'(step);
    vfin   = ovf ? vg : vnew;
    if (fin && !ovf) begin
      if (!busy_q) vtime_d[best*TimeW +: TimeW] = vnew;
      else if (!cancel_d) vtime_d[pslot_q*TimeW +: TimeW] = vnew;
      next_d = (busy_q ? pbase_q : base) + TimeW'(period);
    end
    if (fin && busy_q) begin
      for (int unsigned k = 0; k < NumFlows; k++) begin
        if (jp_d[k] && vfin < vtime_d[k*TimeW +: TimeW]) vtime_d[k*TimeW +: TimeW] = vfin;
      end
      jp_d = '0;
    end

    violation_o = (open_i && open_bad) || (rate_we_i && rate_bad) || ready_bad ||
                  (send_i && send_bad) || ovf;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : p_state
    if (!rst_ni) begin
      open_q   <= '0;
      fresh_q  <= '0;
      ready_q  <= '0;
      next_q   <= '0;
      error_q  <= 1'b0;
      dst_q    <= '0;
      rate_q   <= '0;
      vtime_q  <= '0;
      busy_q   <= 1'b0;
      cnt_q    <= '0;
      pslot_q  <= '0;
      cancel_q <= 1'b0;
      pbase_q  <= '0;
      pv_q     <= '0;
      dv_q     <= '0;
      dp_q     <= '0;
      rv_q     <= '0;
      rp_q     <= '0;
      qv_q     <= '0;
      qp_q     <= '0;
      jp_q     <= '0;
    end else begin
      open_q   <= open_d;
      fresh_q  <= fresh_d;
      ready_q  <= ready_d;
      next_q   <= next_d;
      error_q  <= error_q || violation_o;
      dst_q    <= dst_d;
      rate_q   <= rate_d;
      vtime_q  <= vtime_d;
      busy_q   <= busy_d;
      cnt_q    <= cnt_d;
      pslot_q  <= pslot_d;
      cancel_q <= cancel_d;
      pbase_q  <= pbase_d;
      pv_q     <= pv_d;
      dv_q     <= dv_d;
      dp_q     <= dp_d;
      rv_q     <= rv_d;
      rp_q     <= rp_d;
      qv_q     <= qv_d;
      qp_q     <= qp_d;
      jp_q     <= jp_d;
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
    ParamDivBits_A: assert (DivBits <= LenW + 32) else $fatal(1, "DivBits out of 0..LenW+32");
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
