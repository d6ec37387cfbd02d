// Per-output credit arbiter: picks which VC sends a flit on one output link.
//
// Mirrors ccnet::blocks::OutputArbiter (systemc/blocks/output_arbiter.hpp) cycle for cycle;
// the co-simulation bench tb/output_arbiter_cosim.cpp checks every output every cycle.
// Built from one ccn_credit_counter per downstream VC and one ccn_rr_arbiter (no lock).
//
// Behaviour (one cycle):
//   * requester v (one per VC) asserts req_i[v] with the flit at the head of VC v's queue: its
//     class priority prio_i[v], whether it is a packet head head_i[v], the packet length len_i[v];
//   * v is eligible if its downstream VC can take the flit: one credit for wormhole and for body
//     flits; under virtual cut-through (Vct) a head flit needs the whole packet (credits >= len);
//   * the grant goes to the highest priority level among the eligible VCs, round-robin within
//     it; enable_i low (link busy / stalled) suppresses it.
// Clock edge: the granted VC takes one credit (a grant is always used) and its level pointer
// advances; each valid credit lane k (give_valid_i[k]) adds one credit to VC give_vc_i[k]
// (credits given now are usable from the next cycle). A lane naming a VC >= NumVc, a credit
// overflow or an underflow is a violation: violation_o in its cycle, sticky error_o, assertion.
//
// Handshake contract: gnt_* are combinational in req_i, head_i, prio_i, len_i, enable_i and the
// state, never in give_*; enable_i must not depend on gnt_* (no combinational loop).
`default_nettype none

module ccn_output_arbiter #(
  /// Number of VCs (requesters), 1 .. ccn_pkg::MaxVcs.
  parameter int unsigned NumVc = 2,
  /// Number of priority levels, 1 .. ccn_pkg::MaxPrioLevels.
  parameter int unsigned NumPrio = 1,
  /// Downstream buffer depth per VC in flits; the deepest VC when VcDepths is used.
  parameter int unsigned Credits = 4,
  /// Credit lanes (credits returned per cycle), 1 .. ccn_pkg::MaxCreditLanes.
  parameter int unsigned MaxGive = 1,
  /// Virtual cut-through (a head flit needs credits for the whole packet) vs wormhole.
  parameter bit Vct = 1'b1,
  /// Width of a packet length.
  parameter int unsigned LenW = 4,
  /// Per-VC depths, 16 bits each (VC v in [16*v +: 16]); 0 selects Credits.
  parameter logic [NumVc*16-1:0] VcDepths = '0,
  /// Width of a VC index (derived).
  localparam int unsigned VcW = NumVc > 1 ? $clog2(NumVc) : 1,
  /// Width of a priority level (derived).
  localparam int unsigned PrioW = NumPrio > 1 ? $clog2(NumPrio) : 1,
  /// Width of a credit count (derived).
  localparam int unsigned CntW = $clog2(Credits + 1)
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,
  /// The link can take a flit this cycle.
  input  logic                    enable_i,
  /// VC v has a flit to send.
  input  logic [NumVc-1:0]        req_i,
  /// VC v's flit is a packet head.
  input  logic [NumVc-1:0]        head_i,
  /// Priority level of VC v's flit ([v*PrioW +: PrioW]).
  input  logic [NumVc*PrioW-1:0]  prio_i,
  /// Length of VC v's packet in flits ([v*LenW +: LenW]).
  input  logic [NumVc*LenW-1:0]   len_i,
  /// Credit lane k returns a credit this cycle.
  input  logic [MaxGive-1:0]      give_valid_i,
  /// VC of credit lane k ([k*VcW +: VcW]).
  input  logic [MaxGive*VcW-1:0]  give_vc_i,
  /// One-hot grant.
  output logic [NumVc-1:0]        gnt_o,
  /// Some VC is granted.
  output logic                    gnt_valid_o,
  /// Granted VC (0 when none).
  output logic [VcW-1:0]          gnt_vc_o,
  /// Credits of VC v ([v*CntW +: CntW]).
  output logic [NumVc*CntW-1:0]   credits_o,
  /// This cycle's grant and credit lanes break a credit contract (combinational).
  output logic                    violation_o,
  /// A violation happened since reset (sticky).
  output logic                    error_o
);

  localparam int unsigned GiveW = $clog2(MaxGive + 1);

  // ------------------------------------------------------------------------------------------
  // Credit lanes: credits per VC and lanes naming no VC.
  logic [NumVc*GiveW-1:0] give_cnt;
  logic                   lane_bad;
  logic                   lane_err_q;

  always_comb begin : p_lanes
    logic hit;
    give_cnt = '0;
    lane_bad = 1'b0;
    for (int unsigned k = 0; k < MaxGive; k++) begin
      hit = 1'b0;
      for (int unsigned v = 0; v < NumVc; v++) begin
        if (give_valid_i[k] && give_vc_i[k*VcW +: VcW] == VcW'(v)) begin
          give_cnt[v*GiveW +: GiveW] = give_cnt[v*GiveW +: GiveW] + 1'b1;
          hit = 1'b1;
        end
      end
      lane_bad = lane_bad || (give_valid_i[k] && !hit);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : p_lane_err
    if (!rst_ni) begin
      lane_err_q <= 1'b0;
    end else if (lane_bad) begin
      lane_err_q <= 1'b1;
    end
  end

  // ------------------------------------------------------------------------------------------
  // One credit counter per downstream VC; eligibility.
  logic [NumVc-1:0] eligible;
  logic [NumVc-1:0] cnt_violation, cnt_error;
  logic [NumVc-1:0] gnt;

  for (genvar v = 0; v < NumVc; v++) begin : gen_vc
    localparam int unsigned Depth =
        (VcDepths[v*16 +: 16] != 16'd0) ? 32'(VcDepths[v*16 +: 16]) : Credits;
    localparam int unsigned DepthW = $clog2(Depth + 1);
    logic [DepthW-1:0] count;
    logic              unused_empty, unused_full;  // the count says it all

    ccn_credit_counter #(
      .Init    (Depth),
      .MaxGive (MaxGive)
    ) u_credits (
      .clk_i,
      .rst_ni,
      .give_i      (give_cnt[v*GiveW +: GiveW]),
      .take_i      (gnt[v]),
      .count_o     (count),
      .empty_o     (unused_empty),
      .full_o      (unused_full),
      .violation_o (cnt_violation[v]),
      .error_o     (cnt_error[v])
    );

    assign credits_o[v*CntW +: CntW] = CntW'(count);

    if (Vct) begin : gen_vct
      // A head needs room for the whole packet, any other flit one slot.
      assign eligible[v] = req_i[v] && (head_i[v] ? 32'(count) >= 32'(len_i[v*LenW +: LenW])
                                                  : count != '0);
    end else begin : gen_wormhole
      assign eligible[v] = req_i[v] && count != '0;
    end
  end

  if (!Vct) begin : gen_no_len
    logic unused_len;
    assign unused_len = ^{head_i, len_i};
  end

  // ------------------------------------------------------------------------------------------
  // Round-robin arbitration with priority levels among the eligible VCs.
  logic [VcW-1:0] gnt_idx;
  logic           gnt_valid;
  logic           unused_locked;

  ccn_rr_arbiter #(
    .NumReq   (NumVc),
    .NumPrio  (NumPrio),
    .Lock     (1'b0),
    .NumPass  (1),
    .NumGroup (0)
  ) u_arb (
    .clk_i,
    .rst_ni,
    .req_i       (eligible & {NumVc{enable_i}}),
    .prio_i      (prio_i),
    .group_i     ('0),
    .last_i      ('1),
    .ack_i       (1'b1),
    .gnt_o       (gnt),
    .gnt_valid_o (gnt_valid),
    .gnt_idx_o   (gnt_idx),
    .locked_o    (unused_locked)
  );

  assign gnt_o       = gnt;
  assign gnt_valid_o = gnt_valid;
  assign gnt_vc_o    = gnt_idx;
  assign violation_o = lane_bad || |cnt_violation;
  assign error_o     = lane_err_q || |cnt_error;

  // ------------------------------------------------------------------------------------------
  // Assertions (simulation only); the credit counters assert their own violations.
`ifndef SYNTHESIS
  initial begin : p_params
    ParamNumVc_A: assert (NumVc >= 1 && NumVc <= ccn_pkg::MaxVcs)
      else $fatal(1, "NumVc out of 1..MaxVcs");
    ParamMaxGive_A: assert (MaxGive >= 1 && MaxGive <= ccn_pkg::MaxCreditLanes)
      else $fatal(1, "MaxGive out of 1..MaxCreditLanes");
    for (int unsigned v = 0; v < NumVc; v++) begin
      ParamDepth_A: assert (32'(VcDepths[v*16 +: 16]) <= Credits)
        else $fatal(1, "VcDepths: VC %0d deeper than Credits", v);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : p_assert
    if (rst_ni) begin
      GiveVcInRange_A: assert (!lane_bad) else $error("credit lane names a VC >= NumVc");
      for (int unsigned v = 0; v < NumVc; v++) begin
        LenNonZero_A: assert (!(Vct && req_i[v] && head_i[v]) || len_i[v*LenW +: LenW] != '0)
          else $error("VC %0d: head of a zero-length packet", v);
      end
      GrantEligible_A: assert ((gnt & ~eligible) == '0) else $error("grant to an ineligible VC");
    end
  end
`endif

endmodule

`default_nettype wire
