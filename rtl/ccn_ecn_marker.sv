// ECN marker: the congestion-detection decision for one measured buffer (InfiniBand CCA style).
//
// Mirrors ccnet::blocks::EcnMarker (systemc/blocks/ecn_marker.hpp) cycle for cycle; the
// co-simulation bench tb/ecn_marker_cosim.cpp checks every output every cycle.
//
// Behaviour (one cycle):
//   * At most one packet head passes the marking point (valid_i). It is eligible (eligible_o) if it
//     is a data packet (data_i) and the measured buffer holds more than Threshold flits
//     (occupancy_i, counted with the packet's head flit in the buffer).
//   * Marking rate (IBA Marking_Rate): of consecutive eligible packets one is marked (mark_o) and
//     the next MarkingRate are not (MarkingRate = 0 marks every eligible packet). skip_o is the
//     number of eligible packets still to be skipped before the next mark.
//   * Clock edge: an eligible packet either is marked (skip := MarkingRate) or decrements skip.
//     Ineligible packets and idle cycles leave it unchanged.
// Threshold and MarkingRate are parameters, as they are constructor parameters of the C++ core
// (fixed for a run). A version with run-time registers would make them inputs held stable
// between resets.
//
// Handshake contract: mark_o / eligible_o are combinational in valid_i, data_i, occupancy_i and
// skip_o, so the head can carry the mark in the cycle it passes; data_i and occupancy_i are
// ignored when valid_i is low. skip_o is registered state.
`default_nettype none

module ccn_ecn_marker #(
  /// Width of occupancy_i (1 .. 32).
  parameter int unsigned OccWidth = 8,
  /// Mark when occupancy_i > Threshold (flits); Threshold >= 2^OccWidth - 1 never marks.
  parameter int unsigned Threshold = 0,
  /// Eligible packets left unmarked after each mark (IBA Marking_Rate; 0 = mark all).
  parameter int unsigned MarkingRate = 0,
  /// Width of the skip counter (derived).
  localparam int unsigned SkipW = MarkingRate > 0 ? $clog2(MarkingRate + 1) : 1
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  /// A packet head passes the marking point this cycle.
  input  logic                valid_i,
  /// The packet is of an eligible kind (data).
  input  logic                data_i,
  /// Occupancy of the measured buffer in flits, including this head.
  input  logic [OccWidth-1:0] occupancy_i,
  /// The packet is eligible for marking (valid, data, above the threshold).
  output logic                eligible_o,
  /// Mark this packet (FECN).
  output logic                mark_o,
  /// Eligible packets still to skip before the next mark.
  output logic [SkipW-1:0]    skip_o
);

  // A threshold at or above the largest occupancy_i value never marks.
  localparam bit NeverAbove = 64'(Threshold) >= (64'd1 << OccWidth) - 64'd1;

  logic [SkipW-1:0] skip_q, skip_d;
  logic             eligible;

  if (NeverAbove) begin : gen_never
    assign eligible = 1'b0;
    logic unused_inputs;
    assign unused_inputs = ^{valid_i, data_i, occupancy_i};
  end else begin : gen_compare
    // Threshold < 2^OccWidth - 1 here, so it fits in OccWidth bits.
    assign eligible = valid_i && data_i && (occupancy_i > OccWidth'(Threshold));
  end

  always_comb begin : p_next
    skip_d = skip_q;
    if (eligible) begin
      skip_d = (skip_q == '0) ? SkipW'(MarkingRate) : skip_q - 1'b1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : p_state
    if (!rst_ni) begin
      skip_q <= '0;
    end else begin
      skip_q <= skip_d;
    end
  end

  assign eligible_o = eligible;
  assign mark_o     = eligible && skip_q == '0;
  assign skip_o     = skip_q;

  // ------------------------------------------------------------------------------------------
  // Assertions (simulation only).
`ifndef SYNTHESIS
  initial begin : p_params
    ParamOccWidth_A: assert (OccWidth >= 1 && OccWidth <= 32) else $fatal(1, "OccWidth out of 1..32");
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : p_assert
    if (rst_ni) begin
      SkipInRange_A: assert (32'(skip_q) <= MarkingRate)
        else $error("skip counter %0d > MarkingRate %0d", skip_q, MarkingRate);
      MarkEligible_A: assert (!mark_o || eligible) else $error("mark of an ineligible packet");
    end
  end
`endif

endmodule

`default_nettype wire
