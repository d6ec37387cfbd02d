// SAA link unit: the per-link state of paper 004's distributed explicit-rate algorithm (Birk and
// Zdornov, SYSTOR'09, section 5.2, Algorithm 1), held at the link's transmitting element (a
// switch output port or a NIC's injection port).
//
// Mirrors ccnet::blocks::SaaLinkUnit (systemc/blocks/saa_link_unit.hpp) cycle for cycle; the
// co-simulation bench tb/saa_link_unit_cosim.cpp checks every output every cycle.
//
// State: the weight register W_l (weight_o: the sum of the weights w_f of the flows announced on
// the link) and the number of those flows (flows_o: the port selector's metric of the adaptive
// path setup, section 4). Both reset to 0.
//
// Control packets cross the unit in NumLanes lanes per cycle, applied in lane order: lane k sees
// W_l and the flow count after lanes 0 .. k-1 (a router output reached by several inputs' control
// packets in one cycle). A lane carries at most one operation (start_i, end_i, probe_i bit k):
//   start (AnnounceStart, merged with the path setup): W_l += weight_i, flows += 1;
//     wmax_o = max(wmax_i, W_l after the addition);
//   end   (AnnounceEnd, merged with the teardown):     W_l -= weight_i, flows -= 1; wmax_o = wmax_i;
//   probe (ProbeLinks):                                 wmax_o = max(wmax_i, W_l);
//   none:                                               wmax_o = wmax_i.
// Contract violations (bad_o[k] and violation_o in their cycle, the lane's wmax_o is 0 and it has
// no effect; sticky error_o from the next edge; assertion LaneLegal_A): more than one operation in
// a lane; start or end with weight_i = 0; start with W_l + weight_i >= 2^WeightW or flows at
// 2^CountW - 1; end with weight_i > W_l, with no flow, or leaving W_l - weight_i < flows - 1
// (every flow weighs at least 1: the last flow's end returns W_l exactly to 0).
// Invariant (asserted): W_l >= flows, and W_l = 0 exactly when flows = 0.
// Handshake: every input is sampled every cycle (no operation: nothing to do); weight_i is ignored
// by probe and idle lanes, wmax_i by end and idle lanes (passed through); wmax_o, bad_o and
// violation_o are combinational in the inputs and the state; weight_o, flows_o, error_o are
// registered.
`default_nettype none

module ccn_saa_link_unit #(
  /// Control-packet lanes per cycle (1 .. 32), applied in lane order.
  parameter int unsigned NumLanes = 1,
  /// Width of W_l and of a flow weight w_f (1 .. 64).
  parameter int unsigned WeightW = 32,
  /// Width of the flow count (1 .. 32).
  parameter int unsigned CountW = 16
) (
  input  logic                        clk_i,
  input  logic                        rst_ni,
  /// Per lane: announce-start, announce-end, probe (at most one per lane).
  input  logic [NumLanes-1:0]         start_i,
  input  logic [NumLanes-1:0]         end_i,
  input  logic [NumLanes-1:0]         probe_i,
  /// Per lane ([k*WeightW +: WeightW]): the flow's weight w_f (start, end).
  input  logic [NumLanes*WeightW-1:0] weight_i,
  /// Per lane: the packet's running maximum of W_l so far (start, probe).
  input  logic [NumLanes*WeightW-1:0] wmax_i,
  /// Per lane: the packet's running maximum after this link (0 when the lane violates).
  output logic [NumLanes*WeightW-1:0] wmax_o,
  /// Per lane: the lane breaks the contract (combinational).
  output logic [NumLanes-1:0]         bad_o,
  /// W_l and the number of flows announced on the link.
  output logic [WeightW-1:0]          weight_o,
  output logic [CountW-1:0]           flows_o,
  /// Some lane breaks the contract this cycle (combinational).
  output logic                        violation_o,
  /// A violation happened since reset (sticky).
  output logic                        error_o
);

  // Width of the comparison between a weight and a flow count.
  localparam int unsigned CmpW = WeightW > CountW ? WeightW : CountW;

  logic [WeightW-1:0] weight_q, weight_d;
  logic [CountW-1:0]  flows_q, flows_d;
  logic               error_q;

  // ------------------------------------------------------------------------------------------
  // The lanes, in order. violation_o is accumulated here rather than assigned as |bad_o: with
  // NumLanes = 1, Verilator 5.006 left such an assign one evaluation behind its input (the
  // co-simulation caught it).
  always_comb begin : p_lanes
    logic [WeightW-1:0] w, wk, mk, rest;
    logic [WeightW:0]   sum;
    logic [CountW-1:0]  n, left;
    logic               two, zero, add_bad, sub_bad, bad;
    w           = weight_q;
    n           = flows_q;
    wmax_o      = '0;
    bad_o       = '0;
    violation_o = 1'b0;
    for (int unsigned k = 0; k < NumLanes; k++) begin
      wk      = weight_i[k*WeightW +: WeightW];
      mk      = wmax_i[k*WeightW +: WeightW];
      sum     = {1'b0, w} + {1'b0, wk};
      rest    = w - wk;
      left    = n - 1'b1;
      two     = (start_i[k] && end_i[k]) || (start_i[k] && probe_i[k]) || (end_i[k] && probe_i[k]);
      zero    = (start_i[k] || end_i[k]) && wk == '0;
      add_bad = sum[WeightW] || n == {CountW{1'b1}};
      sub_bad = wk > w || n == '0 || CmpW'(rest) < CmpW'(left) || (n == CountW'(1) && rest != '0);
      bad     = two || zero || (start_i[k] && add_bad) || (end_i[k] && sub_bad);
      bad_o[k]    = bad;
      violation_o = violation_o || bad;
      if (bad) begin
        wmax_o[k*WeightW +: WeightW] = '0;
      end else if (start_i[k]) begin
        wmax_o[k*WeightW +: WeightW] = sum[WeightW-1:0] > mk ? sum[WeightW-1:0] : mk;
        w = sum[WeightW-1:0];
        n = n + 1'b1;
      end else if (end_i[k]) begin
        wmax_o[k*WeightW +: WeightW] = mk;
        w = rest;
        n = n - 1'b1;
      end else if (probe_i[k]) begin
        wmax_o[k*WeightW +: WeightW] = w > mk ? w : mk;
      end else begin
        wmax_o[k*WeightW +: WeightW] = mk;
      end
    end
    weight_d = w;
    flows_d  = n;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : p_state
    if (!rst_ni) begin
      weight_q <= '0;
      flows_q  <= '0;
      error_q  <= 1'b0;
    end else begin
      weight_q <= weight_d;
      flows_q  <= flows_d;
      error_q  <= error_q || violation_o;
    end
  end

  assign weight_o = weight_q;
  assign flows_o  = flows_q;
  assign error_o  = error_q;

  // ------------------------------------------------------------------------------------------
  // Assertions (simulation only).
`ifndef SYNTHESIS
  initial begin : p_params
    ParamNumLanes_A: assert (NumLanes >= 1 && NumLanes <= 32) else $fatal(1, "NumLanes out of 1..32");
    ParamWeightW_A: assert (WeightW >= 1 && WeightW <= 64) else $fatal(1, "WeightW out of 1..64");
    ParamCountW_A: assert (CountW >= 1 && CountW <= 32) else $fatal(1, "CountW out of 1..32");
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : p_assert
    if (rst_ni) begin
      LaneLegal_A: assert (!violation_o)
        else $error("SAA link unit: lanes %b break the contract", bad_o);
      WeightHoldsFlows_A: assert (CmpW'(weight_q) >= CmpW'(flows_q) && (weight_q == '0) == (flows_q == '0))
        else $error("W_l %0d does not hold its %0d flows", weight_q, flows_q);
    end
  end
`endif

endmodule

`default_nettype wire
