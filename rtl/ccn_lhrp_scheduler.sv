// LHRP last-hop scheduler (paper 003 section 3.2; LHRP + SRP, section 6.4).
//
// Mirrors ccnet::blocks::LhrpScheduler (systemc/blocks/lhrp_scheduler.hpp) cycle for cycle; the
// co-simulation bench tb/lhrp_scheduler_cosim.cpp checks every output every cycle.
//
// Per endpoint e (an ejection port of the last-hop switch): Q[e] flits queued in the switch for e
// (queued_o), and a reservation schedule: the next free time T_next[e].
// Behaviour (one cycle): packet heads arrive on NumLanes lanes, evaluated in lane order, each lane
// seeing the updates of the lanes before it (lane l: arr_valid_i[l], endpoint arr_endpoint_i[l],
// length arr_len_i[l] flits, kind arr_kind_i[l], a ccn_pkg::lhrp_kind_e code):
//   * LhrpKindData (non-speculative):  Q[e] += len                                      (accept)
//   * LhrpKindSpeculative:  if Q[e] >= Threshold and a NACK slot is free:
//                             t = max(now, T_next[e]); T_next[e] = t + len; drop_o, time_o = t
//                           else Q[e] += len                                            (accept)
//   * LhrpKindReservation:  t = max(now, T_next[e]); T_next[e] = t + len; grant_o, time_o = t
// NACK slots: nack_slots_i NACKs can still be queued this cycle; each drop takes one, in lane
// order, so a speculative lane sees a free slot while fewer lanes before it dropped than
// nack_slots_i. With no free slot the packet is accepted, never lost.
// Clock edge, after the lanes: for each endpoint e with dep_valid_i[e] (a tail left on e's
// ejection port), Q[e] -= dep_len_i[e].
// Violations (violation_o in their cycle, sticky error_o from the next edge, assertions): a valid
// lane naming an endpoint >= NumEndpoints or a kind code >= NumLhrpKinds (the lane is ignored),
// a departure longer than Q[e] (Q[e] becomes 0).
//
// Time: now_i is the cycle count modulo 2^TimeWidth and must advance by one every cycle (asserted).
// T_next is kept relative, as the backlog B[e] = max(T_next[e] - now, 0) (backlog_o): the lanes
// compute t = now_i + B[e] and B[e] += len, and every edge takes one cycle off B[e]. So time_o is
// exact modulo 2^TimeWidth at any run length: a NACK or grant carries the retransmission time in
// the same modular time base as now_i (the C++ core's 64-bit time, modulo 2^TimeWidth).
//
// Contract (sizes, asserted, not checked by the C++ core): Q[e] stays below 2^QueueWidth and
// B[e] below 2^BacklogWidth (a lane that would overflow them is a design-sizing error);
// BacklogWidth <= TimeWidth.
// Handshake: drop_o / grant_o / time_o / violation_o are combinational in the lane inputs,
// nack_slots_i, now_i, dep_* and the state; the switch uses them in the cycle the heads arrive
// (a dropped head is not enqueued, and each drop enqueues one NACK into a slot it counted in
// nack_slots_i). queued_o, backlog_o and error_o are registered.
`default_nettype none

module ccn_lhrp_scheduler #(
  /// Number of endpoints (ejection ports) scheduled (>= 1).
  parameter int unsigned NumEndpoints = 4,
  /// Arrival lanes per cycle (>= 1), one per switch input port.
  parameter int unsigned NumLanes = 2,
  /// Width of a packet or reservation length in flits (1 .. 16).
  parameter int unsigned LenWidth = 5,
  /// Width of a queued-flit count Q[e] (1 .. 32).
  parameter int unsigned QueueWidth = 8,
  /// Width of a time (now_i, time_o), modulo 2^TimeWidth (1 .. 64).
  parameter int unsigned TimeWidth = 16,
  /// Width of a reservation backlog T_next[e] - now (1 .. TimeWidth, at most 32).
  parameter int unsigned BacklogWidth = 10,
  /// Drop speculative packets when Q[e] >= Threshold (flits); >= 2^QueueWidth: never.
  parameter int unsigned Threshold = 16,
  /// Width of an endpoint index (derived).
  localparam int unsigned EpW = NumEndpoints > 1 ? $clog2(NumEndpoints) : 1,
  /// Width of nack_slots_i, 0 .. NumLanes (derived).
  localparam int unsigned SlotW = $clog2(NumLanes + 1),
  /// Width of a lane-kind code (derived).
  localparam int unsigned KindW = ccn_pkg::LhrpKindWidth
) (
  input  logic                                  clk_i,
  input  logic                                  rst_ni,
  /// Current time (cycle count modulo 2^TimeWidth); advances by one every cycle.
  input  logic [TimeWidth-1:0]                  now_i,
  /// A packet head (or reservation) arrives on lane l.
  input  logic [NumLanes-1:0]                   arr_valid_i,
  /// Its endpoint ([l*EpW +: EpW]).
  input  logic [NumLanes*EpW-1:0]               arr_endpoint_i,
  /// Its length in flits ([l*LenWidth +: LenWidth]).
  input  logic [NumLanes*LenWidth-1:0]          arr_len_i,
  /// Its kind, a ccn_pkg::lhrp_kind_e code ([l*KindW +: KindW]).
  input  logic [NumLanes*KindW-1:0]             arr_kind_i,
  /// NACKs that can still be queued this cycle (values above NumLanes: no limit).
  input  logic [SlotW-1:0]                      nack_slots_i,
  /// A tail leaves on endpoint e's ejection port.
  input  logic [NumEndpoints-1:0]               dep_valid_i,
  /// Its packet length ([e*LenWidth +: LenWidth]).
  input  logic [NumEndpoints*LenWidth-1:0]      dep_len_i,
  /// Lane l's speculative packet is dropped (NACK with time_o).
  output logic [NumLanes-1:0]                   drop_o,
  /// Lane l's reservation is granted at time_o.
  output logic [NumLanes-1:0]                   grant_o,
  /// Lane l's NACK or grant time ([l*TimeWidth +: TimeWidth]; 0 without drop or grant).
  output logic [NumLanes*TimeWidth-1:0]         time_o,
  /// Q[e]: flits queued for endpoint e ([e*QueueWidth +: QueueWidth]).
  output logic [NumEndpoints*QueueWidth-1:0]    queued_o,
  /// B[e] = max(T_next[e] - now, 0) ([e*BacklogWidth +: BacklogWidth]).
  output logic [NumEndpoints*BacklogWidth-1:0]  backlog_o,
  /// This cycle's lanes or departures break the contract (combinational).
  output logic                                  violation_o,
  /// A violation happened since reset (sticky).
  output logic                                  error_o
);

  localparam int unsigned QSumW = (QueueWidth > LenWidth ? QueueWidth : LenWidth) + 1;
  localparam int unsigned BSumW = (BacklogWidth > LenWidth ? BacklogWidth : LenWidth) + 1;

  // ------------------------------------------------------------------------------------------
  // State.
  logic [NumEndpoints*QueueWidth-1:0]   queued_q, queued_d;
  logic [NumEndpoints*BacklogWidth-1:0] backlog_q, backlog_d;
  logic                                 error_q, error_d;

  // Threshold clamped to 2^QueueWidth (never reached) and compared as Q + 1 > threshold, so that
  // no parameter value makes a comparison constant.
  logic [QueueWidth:0] threshold;
  assign threshold = 64'(Threshold) > (64'd1 << QueueWidth) ? (QueueWidth + 1)'(64'd1 << QueueWidth)
                                                            : (QueueWidth + 1)'(Threshold);

  // ------------------------------------------------------------------------------------------
  // Arrival lanes, in order; then the state after them.
  logic [NumLanes-1:0]                  drop, grant, lane_bad, q_ovf, b_ovf;
  logic [NumLanes*TimeWidth-1:0]        lane_time;
  logic [NumEndpoints*QueueWidth-1:0]   queued_lanes;
  logic [NumEndpoints*BacklogWidth-1:0] backlog_lanes;

  always_comb begin : p_lanes
    logic [NumEndpoints*QueueWidth-1:0]   q;
    logic [NumEndpoints*BacklogWidth-1:0] b;
    logic [SlotW-1:0]        used;
    logic [EpW-1:0]          ep;
    logic [LenWidth-1:0]     len;
    logic [KindW-1:0]        kind;
    logic [QueueWidth-1:0]   qe;
    logic [BacklogWidth-1:0] be;
    logic [QSumW-1:0]        qsum;
    logic [BSumW-1:0]        bsum;
    logic                    known;
    logic                    at_threshold;
    q         = queued_q;
    b         = backlog_q;
    used      = '0;
    drop      = '0;
    grant     = '0;
    lane_bad  = '0;
    q_ovf     = '0;
    b_ovf     = '0;
    lane_time = '0;
    for (int unsigned l = 0; l < NumLanes; l++) begin
      ep   = arr_endpoint_i[l*EpW +: EpW];
      len  = arr_len_i[l*LenWidth +: LenWidth];
      kind = arr_kind_i[l*KindW +: KindW];
      // The endpoint's state as the lanes before this one left it.
      qe    = '0;
      be    = '0;
      known = 1'b0;
      for (int unsigned e = 0; e < NumEndpoints; e++) begin
        if (ep == EpW'(e)) begin
          qe    = q[e*QueueWidth +: QueueWidth];
          be    = b[e*BacklogWidth +: BacklogWidth];
          known = 1'b1;
        end
      end
      qsum         = QSumW'(qe) + QSumW'(len);
      bsum         = BSumW'(be) + BSumW'(len);
      at_threshold = ({1'b0, qe} + 1'b1) > threshold;
      if (arr_valid_i[l]) begin
        if (!known || 32'(kind) >= ccn_pkg::NumLhrpKinds) begin
          lane_bad[l] = 1'b1;
        end else if (kind == ccn_pkg::LhrpKindReservation ||
                     (kind == ccn_pkg::LhrpKindSpeculative && at_threshold && used < nack_slots_i)) begin
          // Reservation granted, or speculative packet dropped: scheduled at now + B.
          if (kind == ccn_pkg::LhrpKindReservation) begin
            grant[l] = 1'b1;
          end else begin
            drop[l] = 1'b1;
            used    = used + 1'b1;
          end
          lane_time[l*TimeWidth +: TimeWidth] = now_i + TimeWidth'(be);
          b_ovf[l] = (bsum >> BacklogWidth) != '0;
          for (int unsigned e = 0; e < NumEndpoints; e++) begin
            if (ep == EpW'(e)) begin
              b[e*BacklogWidth +: BacklogWidth] = BacklogWidth'(bsum);
            end
          end
        end else begin
          // Accepted: queued for the endpoint.
          q_ovf[l] = (qsum >> QueueWidth) != '0;
          for (int unsigned e = 0; e < NumEndpoints; e++) begin
            if (ep == EpW'(e)) begin
              q[e*QueueWidth +: QueueWidth] = QueueWidth'(qsum);
            end
          end
        end
      end
    end
    queued_lanes  = q;
    backlog_lanes = b;
  end

  // ------------------------------------------------------------------------------------------
  // Clock edge: departures leave the queues; the backlog loses one cycle.
  logic [NumEndpoints-1:0] dep_bad;

  always_comb begin : p_next
    logic [QueueWidth-1:0]   qv;
    logic [BacklogWidth-1:0] bv;
    logic [QSumW-1:0]        dlen;
    for (int unsigned e = 0; e < NumEndpoints; e++) begin
      qv         = queued_lanes[e*QueueWidth +: QueueWidth];
      bv         = backlog_lanes[e*BacklogWidth +: BacklogWidth];
      dlen       = QSumW'(dep_len_i[e*LenWidth +: LenWidth]);
      dep_bad[e] = dep_valid_i[e] && dlen > QSumW'(qv);
      if (dep_bad[e]) begin
        queued_d[e*QueueWidth +: QueueWidth] = '0;
      end else if (dep_valid_i[e]) begin
        queued_d[e*QueueWidth +: QueueWidth] = QueueWidth'(QSumW'(qv) - dlen);
      end else begin
        queued_d[e*QueueWidth +: QueueWidth] = qv;
      end
      backlog_d[e*BacklogWidth +: BacklogWidth] = bv != '0 ? bv - 1'b1 : '0;
    end
  end

  assign violation_o = |lane_bad || |dep_bad;
  assign error_d     = error_q || violation_o;

  always_ff @(posedge clk_i or negedge rst_ni) begin : p_state
    if (!rst_ni) begin
      queued_q  <= '0;
      backlog_q <= '0;
      error_q   <= 1'b0;
    end else begin
      queued_q  <= queued_d;
      backlog_q <= backlog_d;
      error_q   <= error_d;
    end
  end

  assign drop_o    = drop;
  assign grant_o   = grant;
  assign time_o    = lane_time;
  assign queued_o  = queued_q;
  assign backlog_o = backlog_q;
  assign error_o   = error_q;

  // ------------------------------------------------------------------------------------------
  // Assertions (simulation only).
`ifndef SYNTHESIS
  initial begin : p_params
    ParamNumEndpoints_A: assert (NumEndpoints >= 1) else $fatal(1, "NumEndpoints must be >= 1");
    ParamNumLanes_A: assert (NumLanes >= 1) else $fatal(1, "NumLanes must be >= 1");
    ParamLenWidth_A: assert (LenWidth >= 1 && LenWidth <= 16) else $fatal(1, "LenWidth out of 1..16");
    ParamQueueWidth_A: assert (QueueWidth >= 1 && QueueWidth <= 32) else $fatal(1, "QueueWidth out of 1..32");
    ParamTimeWidth_A: assert (TimeWidth >= 1 && TimeWidth <= 64) else $fatal(1, "TimeWidth out of 1..64");
    ParamBacklogWidth_A: assert (BacklogWidth >= 1 && BacklogWidth <= TimeWidth && BacklogWidth <= 32)
      else $fatal(1, "BacklogWidth out of 1..min(TimeWidth, 32)");
  end

  // now_i of the previous cycle (assertion only).
  logic [TimeWidth-1:0] now_prev_q;
  logic                 now_seen_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin : p_now_prev
    if (!rst_ni) begin
      now_prev_q <= '0;
      now_seen_q <= 1'b0;
    end else begin
      now_prev_q <= now_i;
      now_seen_q <= 1'b1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : p_assert
    if (rst_ni) begin
      LaneValid_A: assert (lane_bad == '0)
        else $error("arrival lane naming no endpoint or no kind: %b", lane_bad);
      NoUnderflow_A: assert (dep_bad == '0)
        else $error("departure longer than the queued flits: %b", dep_bad);
      QueueNoOverflow_A: assert (q_ovf == '0)
        else $error("queued-flit count overflows QueueWidth: lanes %b", q_ovf);
      BacklogNoOverflow_A: assert (b_ovf == '0)
        else $error("reservation backlog overflows BacklogWidth: lanes %b", b_ovf);
      NowAdvances_A: assert (!now_seen_q || now_i == now_prev_q + 1'b1)
        else $error("now_i did not advance by one cycle");
      DropOrGrant_A: assert ((drop & grant) == '0) else $error("a lane both dropped and granted");
    end
  end
`endif

endmodule

`default_nettype wire
