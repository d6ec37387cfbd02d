// NIC injection engine: the send-queue scheduler with InfiniBand-style injection-rate control.
//
// Mirrors ccnet::blocks::InjectionEngine (systemc/blocks/injection_engine.hpp) cycle for cycle;
// the co-simulation bench tb/injection_engine_cosim.cpp checks every output every cycle.
// Built around one ccn_rr_arbiter (one level, no lock).
//
// Behaviour (one cycle):
//   * Queue q can send when it has a packet (nonempty_i[q]) and its inter-packet gap has elapsed
//     (wait_o[q] == 0). When the data path can take a new packet (ready_i), the grant goes to the
//     first such queue at or after the queue following the last grant, cyclically (round-robin
//     per packet).
//   * Each queue has a congestion-control table index CCTI (ccti_o[q], 0 .. CctiLimit); its
//     inter-packet delay is IPD = CCTI * IpdUnit cycles.
// Clock edge:
//   * the granted queue (a grant is always taken) starts a packet of len_i flits: it may send
//     again len_i + IPD cycles later (the gap between one packet's tail and the next head), IPD
//     from its CCTI before this edge's updates;
//   * the free-running CCTI timer counts cycles; every TimerPeriod-th edge (tick_o; TimerPeriod =
//     0: never) every CCTI > 0 drops by one;
//   * then each BECN lane k with becn_valid_i[k] raises CCTI of queue becn_queue_i[k] by
//     CctiIncrease, saturating at CctiLimit (lanes naming one queue add up; CctiLimit = 0: rate
//     control off, BECNs ignored; a lane naming no queue, >= NumQueues, is ignored).
//
// Time: the C++ core keeps per-queue absolute times next_ok (eligible when now >= next_ok, with a
// 64-bit cycle count). The RTL keeps no clock: wait_o[q] = max(next_ok - now, 0) is a per-queue
// down-counter (len_i + IPD - 1 after a grant, then -1 per cycle down to 0), which is the same
// decision with no wrap-around at any run length. Its width holds the longest gap,
// (2^LenWidth - 1) + CctiLimit * IpdUnit.
//
// Handshake contract: gnt_* are combinational in nonempty_i, ready_i and the state, never in
// len_i or the BECN lanes, so len_i may be selected by gnt_idx_o (the granted queue's head length)
// in the same cycle; ready_i must not depend on gnt_*. ccti_o, wait_o are registered; tick_o is
// combinational in the timer state only.
`default_nettype none

module ccn_injection_engine #(
  /// Number of send queues (>= 1).
  parameter int unsigned NumQueues = 4,
  /// Width of len_i, the granted packet's length in flits (1 .. 16).
  parameter int unsigned LenWidth = 4,
  /// Cycles of inter-packet delay per CCTI step.
  parameter int unsigned IpdUnit = 0,
  /// CCTI steps added per BECN.
  parameter int unsigned CctiIncrease = 1,
  /// Largest CCTI (0 = rate control off: BECNs are ignored).
  parameter int unsigned CctiLimit = 0,
  /// Cycles between CCTI decrements (0 = never).
  parameter int unsigned TimerPeriod = 0,
  /// BECN lanes per cycle (>= 1).
  parameter int unsigned NumBecn = 1,
  /// Width of a queue index (derived).
  localparam int unsigned IdxW = NumQueues > 1 ? $clog2(NumQueues) : 1,
  /// Width of a CCTI (derived).
  localparam int unsigned CctiW = CctiLimit > 0 ? $clog2(CctiLimit + 1) : 1,
  /// Longest inter-packet gap in cycles, len + IPD (derived).
  localparam int unsigned WaitMax = ((1 << LenWidth) - 1) + CctiLimit * IpdUnit,
  /// Width of a remaining gap, 0 .. WaitMax - 1 (derived).
  localparam int unsigned WaitW = WaitMax > 1 ? $clog2(WaitMax) : 1
) (
  input  logic                          clk_i,
  input  logic                          rst_ni,
  /// Queue q has a packet to send.
  input  logic [NumQueues-1:0]          nonempty_i,
  /// The data path can start a new packet this cycle.
  input  logic                          ready_i,
  /// Length of the granted queue's packet in flits (used when gnt_valid_o).
  input  logic [LenWidth-1:0]           len_i,
  /// BECN lane k carries a notification this cycle.
  input  logic [NumBecn-1:0]            becn_valid_i,
  /// Queue of BECN lane k ([k*IdxW +: IdxW]).
  input  logic [NumBecn*IdxW-1:0]       becn_queue_i,
  /// One-hot grant.
  output logic [NumQueues-1:0]          gnt_o,
  /// Some queue is granted.
  output logic                          gnt_valid_o,
  /// Granted queue (0 when none).
  output logic [IdxW-1:0]               gnt_idx_o,
  /// CCTI of queue q ([q*CctiW +: CctiW]).
  output logic [NumQueues*CctiW-1:0]    ccti_o,
  /// Cycles until queue q may send again ([q*WaitW +: WaitW]; 0 = now).
  output logic [NumQueues*WaitW-1:0]    wait_o,
  /// The CCTI timer expires at this cycle's edge.
  output logic                          tick_o
);

  // ------------------------------------------------------------------------------------------
  // State.
  logic [NumQueues*CctiW-1:0] ccti_q, ccti_d;
  logic [NumQueues*WaitW-1:0] wait_q, wait_d;
  logic                       tick;

  // ------------------------------------------------------------------------------------------
  // Grant: round-robin over the queues that can send.
  logic [NumQueues-1:0] eligible;
  logic [NumQueues-1:0] gnt;
  logic                 gnt_valid;
  logic [IdxW-1:0]      gnt_idx;
  logic                 unused_locked;

  for (genvar q = 0; q < NumQueues; q++) begin : gen_eligible
    assign eligible[q] = nonempty_i[q] && wait_q[q*WaitW +: WaitW] == '0;
  end

  ccn_rr_arbiter #(
    .NumReq   (NumQueues),
    .NumPrio  (1),
    .Lock     (1'b0),
    .NumPass  (1),
    .NumGroup (0)
  ) u_arb (
    .clk_i,
    .rst_ni,
    .req_i       (eligible & {NumQueues{ready_i}}),
    .prio_i      ('0),
    .group_i     ('0),
    .last_i      ('1),
    .ack_i       (1'b1),
    .gnt_o       (gnt),
    .gnt_valid_o (gnt_valid),
    .gnt_idx_o   (gnt_idx),
    .locked_o    (unused_locked)
  );

  // ------------------------------------------------------------------------------------------
  // Inter-packet gaps: the granted queue waits len_i + IPD - 1 more cycles after this one (IPD
  // from its CCTI before this edge); every other gap shrinks by one cycle.
  always_comb begin : p_wait
    logic [CctiW-1:0] gnt_ccti;
    logic [31:0]      gap;
    gnt_ccti = '0;
    for (int unsigned q = 0; q < NumQueues; q++) begin
      if (gnt_idx == IdxW'(q)) begin
        gnt_ccti = ccti_q[q*CctiW +: CctiW];
      end
    end
    gap = 32'(len_i) + 32'(gnt_ccti) * 32'(IpdUnit);
    for (int unsigned q = 0; q < NumQueues; q++) begin
      if (gnt[q]) begin
        wait_d[q*WaitW +: WaitW] = gap == '0 ? '0 : WaitW'(gap - 32'd1);
      end else if (wait_q[q*WaitW +: WaitW] != '0) begin
        wait_d[q*WaitW +: WaitW] = wait_q[q*WaitW +: WaitW] - 1'b1;
      end else begin
        wait_d[q*WaitW +: WaitW] = '0;
      end
    end
  end

  // ------------------------------------------------------------------------------------------
  // CCTI timer: tick on every TimerPeriod-th edge since reset.
  if (TimerPeriod > 1) begin : gen_timer
    localparam int unsigned TimerW = $clog2(TimerPeriod);
    logic [TimerW-1:0] timer_q;
    assign tick = timer_q == TimerW'(TimerPeriod - 1);
    always_ff @(posedge clk_i or negedge rst_ni) begin : p_timer
      if (!rst_ni) begin
        timer_q <= '0;
      end else begin
        timer_q <= tick ? '0 : timer_q + 1'b1;
      end
    end
  end else if (TimerPeriod == 1) begin : gen_timer_every
    assign tick = 1'b1;
  end else begin : gen_no_timer
    assign tick = 1'b0;
  end

  // ------------------------------------------------------------------------------------------
  // CCTI: timer decrement first, then this cycle's BECNs (saturating at CctiLimit).
  if (CctiLimit > 0) begin : gen_rate
    localparam int unsigned BecnCntW = $clog2(NumBecn + 1);
    always_comb begin : p_ccti
      logic [CctiW-1:0]    c;
      logic [BecnCntW-1:0] n;
      logic [31:0]         sum;
      for (int unsigned q = 0; q < NumQueues; q++) begin
        c = ccti_q[q*CctiW +: CctiW];
        if (tick && c != '0) begin
          c = c - 1'b1;
        end
        n = '0;
        for (int unsigned k = 0; k < NumBecn; k++) begin
          if (becn_valid_i[k] && becn_queue_i[k*IdxW +: IdxW] == IdxW'(q)) begin
            n = n + 1'b1;
          end
        end
        sum = 32'(c) + 32'(n) * 32'(CctiIncrease);
        ccti_d[q*CctiW +: CctiW] = sum > 32'(CctiLimit) ? CctiW'(CctiLimit) : CctiW'(sum);
      end
    end
  end else begin : gen_no_rate
    // Rate control off: CCTI stays 0 and the BECN lanes are ignored.
    assign ccti_d = '0;
    logic unused_becn;
    assign unused_becn = ^{becn_valid_i, becn_queue_i, tick};
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : p_state
    if (!rst_ni) begin
      ccti_q <= '0;
      wait_q <= '0;
    end else begin
      ccti_q <= ccti_d;
      wait_q <= wait_d;
    end
  end

  assign gnt_o       = gnt;
  assign gnt_valid_o = gnt_valid;
  assign gnt_idx_o   = gnt_idx;
  assign ccti_o      = ccti_q;
  assign wait_o      = wait_q;
  assign tick_o      = tick;

  // ------------------------------------------------------------------------------------------
  // Assertions (simulation only).
`ifndef SYNTHESIS
  initial begin : p_params
    ParamNumQueues_A: assert (NumQueues >= 1) else $fatal(1, "NumQueues must be >= 1");
    ParamLenWidth_A: assert (LenWidth >= 1 && LenWidth <= 16) else $fatal(1, "LenWidth out of 1..16");
    ParamNumBecn_A: assert (NumBecn >= 1) else $fatal(1, "NumBecn must be >= 1");
    ParamGap_A: assert (64'(CctiLimit) * 64'(IpdUnit) + 64'(CctiIncrease) * 64'(NumBecn) < 64'h4000_0000)
      else $fatal(1, "CctiLimit * IpdUnit or CctiIncrease * NumBecn too large");
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : p_assert
    if (rst_ni) begin
      GrantCanSend_A: assert ((gnt & ~(eligible & {NumQueues{ready_i}})) == '0)
        else $error("grant to a queue that cannot send");
      for (int unsigned q = 0; q < NumQueues; q++) begin
        CctiInRange_A: assert (32'(ccti_q[q*CctiW +: CctiW]) <= CctiLimit)
          else $error("queue %0d: CCTI above CctiLimit", q);
      end
    end
  end
`endif

endmodule

`default_nettype wire
