// Separable input-first switch allocator with speedup.
//
// Mirrors ccnet::blocks::SwitchAllocator (systemc/blocks/switch_allocator.hpp) cycle for cycle;
// the co-simulation bench tb/switch_allocator_cosim.cpp checks every output every cycle. Built
// from ccn_rr_arbiter instances: one per input (NumPass = SpeedupIn, exclusion group = target
// output) and one per output (NumPass = SpeedupOut).
//
// Requesters are numbered per input (0..ReqsPerIn-1: the input's VCs or VOQs); request (i, r)
// is bit i*ReqsPerIn + r of req_i, names output req_out_i and level req_prio_i. One cycle:
//   1. Input stage: input i's arbiter makes up to SpeedupIn proposals from one pointer state;
//      pass k picks among requests not yet picked whose output differs from the outputs this
//      input already proposed to (pass k = crossbar input lane k).
//   2. Output stage: output o's arbiter picks among the inputs that proposed to it (at most one
//      proposal per input), up to SpeedupOut passes, each at the proposal's priority.
//   3. Clock edge, when ack_i (the allocation is used): every output arbiter advances for its
//      grants and every input arbiter for its proposals that won (iSLIP-style), in pass order.
//   A losing proposal is not retried in the same cycle (single iteration).
//
// Outputs (all combinational in the requests and the state; never in ack_i):
//   gnt_o[i*ReqsPerIn + r]           request (i, r) is granted;
//   in_gnt_o[i*SpeedupIn + k]        input lane k of input i carries a granted request,
//   in_gnt_req_o[...]                  namely requester in_gnt_req_o (0 when none);
//   out_gnt_o[o*SpeedupOut + j]      output lane j of output o is granted,
//   out_gnt_in_o[...], out_gnt_lane_o[...]  to input out_gnt_in_o's lane out_gnt_lane_o.
// Handshake contract: req_out_i values are < NumOut, req_prio_i values < NumPrio (asserted).
`default_nettype none

module ccn_switch_allocator #(
  /// Number of inputs, 1 .. ccn_pkg::MaxPorts.
  parameter int unsigned NumIn = 5,
  /// Number of outputs, 1 .. ccn_pkg::MaxPorts.
  parameter int unsigned NumOut = 5,
  /// Requesters per input (VCs or VOQs), 1 .. ccn_pkg::MaxVcs.
  parameter int unsigned ReqsPerIn = 2,
  /// Number of priority levels, 1 .. ccn_pkg::MaxPrioLevels.
  parameter int unsigned NumPrio = 1,
  /// Crossbar input speedup: proposals per input per cycle (>= 1).
  parameter int unsigned SpeedupIn = 1,
  /// Crossbar output speedup: grants per output per cycle (>= 1).
  parameter int unsigned SpeedupOut = 1,
  /// Width of a requester index (derived).
  localparam int unsigned ReqW = ReqsPerIn > 1 ? $clog2(ReqsPerIn) : 1,
  /// Width of an input index (derived).
  localparam int unsigned InW = NumIn > 1 ? $clog2(NumIn) : 1,
  /// Width of an output index (derived).
  localparam int unsigned OutW = NumOut > 1 ? $clog2(NumOut) : 1,
  /// Width of a priority level (derived).
  localparam int unsigned PrioW = NumPrio > 1 ? $clog2(NumPrio) : 1,
  /// Width of an input lane index (derived).
  localparam int unsigned InLaneW = SpeedupIn > 1 ? $clog2(SpeedupIn) : 1
) (
  input  logic                                  clk_i,
  input  logic                                  rst_ni,
  /// Request (i, r) is valid.
  input  logic [NumIn*ReqsPerIn-1:0]            req_i,
  /// Output of request (i, r) ([(i*ReqsPerIn + r)*OutW +: OutW]).
  input  logic [NumIn*ReqsPerIn*OutW-1:0]       req_out_i,
  /// Priority level of request (i, r) ([(i*ReqsPerIn + r)*PrioW +: PrioW]).
  input  logic [NumIn*ReqsPerIn*PrioW-1:0]      req_prio_i,
  /// The allocation is used: advance the arbiters.
  input  logic                                  ack_i,
  /// Request (i, r) is granted.
  output logic [NumIn*ReqsPerIn-1:0]            gnt_o,
  /// Input lane k of input i carries a granted request.
  output logic [NumIn*SpeedupIn-1:0]            in_gnt_o,
  /// Requester on input lane k of input i ([(i*SpeedupIn + k)*ReqW +: ReqW]).
  output logic [NumIn*SpeedupIn*ReqW-1:0]       in_gnt_req_o,
  /// Output lane j of output o is granted.
  output logic [NumOut*SpeedupOut-1:0]          out_gnt_o,
  /// Input granted on output lane j of output o ([(o*SpeedupOut + j)*InW +: InW]).
  output logic [NumOut*SpeedupOut*InW-1:0]      out_gnt_in_o,
  /// Input lane (of that input) granted on output lane j of output o.
  output logic [NumOut*SpeedupOut*InLaneW-1:0]  out_gnt_lane_o
);

  localparam int unsigned NumProp = NumIn * SpeedupIn;  // proposals (input, lane)

  // Proposals of the input stage, proposal p = i*SpeedupIn + k.
  logic [NumProp-1:0]           prop_valid;
  logic [NumProp*ReqsPerIn-1:0] prop_gnt;
  logic [NumProp*ReqW-1:0]      prop_req;
  logic [NumProp*OutW-1:0]      prop_out;
  logic [NumProp*PrioW-1:0]     prop_prio;
  logic [NumProp-1:0]           prop_won;   // granted by its output
  logic [NumProp-1:0]           prop_ack;   // input arbiter advances for it

  // Output stage: won_at[o*NumIn + i] = output o granted input i (on some output lane).
  logic [NumOut*NumIn-1:0]      won_at;

  // ------------------------------------------------------------------------------------------
  // Input stage: one multi-pass arbiter per input; the target output is the exclusion group.
  for (genvar i = 0; i < NumIn; i++) begin : gen_in
    logic [SpeedupIn*ReqsPerIn-1:0] gnt;
    logic [SpeedupIn-1:0]           valid;
    logic [SpeedupIn*ReqW-1:0]      idx;
    logic                           unused_locked;

    ccn_rr_arbiter #(
      .NumReq   (ReqsPerIn),
      .NumPrio  (NumPrio),
      .Lock     (1'b0),
      .NumPass  (SpeedupIn),
      .NumGroup (NumOut)
    ) u_arb (
      .clk_i,
      .rst_ni,
      .req_i       (req_i[i*ReqsPerIn +: ReqsPerIn]),
      .prio_i      (req_prio_i[i*ReqsPerIn*PrioW +: ReqsPerIn*PrioW]),
      .group_i     (req_out_i[i*ReqsPerIn*OutW +: ReqsPerIn*OutW]),
      .last_i      ('1),
      .ack_i       (prop_ack[i*SpeedupIn +: SpeedupIn]),
      .gnt_o       (gnt),
      .gnt_valid_o (valid),
      .gnt_idx_o   (idx),
      .locked_o    (unused_locked)
    );

    assign prop_valid[i*SpeedupIn +: SpeedupIn]                      = valid;
    assign prop_gnt[i*SpeedupIn*ReqsPerIn +: SpeedupIn*ReqsPerIn]    = gnt;
    assign prop_req[i*SpeedupIn*ReqW +: SpeedupIn*ReqW]              = idx;

    // Output and level of each proposal: the winner's request fields.
    always_comb begin : p_prop_fields
      prop_out[i*SpeedupIn*OutW +: SpeedupIn*OutW]    = '0;
      prop_prio[i*SpeedupIn*PrioW +: SpeedupIn*PrioW] = '0;
      for (int unsigned k = 0; k < SpeedupIn; k++) begin
        for (int unsigned r = 0; r < ReqsPerIn; r++) begin
          if (gnt[k*ReqsPerIn + r]) begin
            prop_out[(i*SpeedupIn + k)*OutW +: OutW] =
                req_out_i[(i*ReqsPerIn + r)*OutW +: OutW];
            prop_prio[(i*SpeedupIn + k)*PrioW +: PrioW] =
                req_prio_i[(i*ReqsPerIn + r)*PrioW +: PrioW];
          end
        end
      end
    end
  end

  // ------------------------------------------------------------------------------------------
  // Output stage: one multi-pass arbiter per output over the inputs that proposed to it.
  for (genvar o = 0; o < NumOut; o++) begin : gen_out
    logic [NumIn-1:0]               req;
    logic [NumIn*PrioW-1:0]         prio;
    logic [NumIn*InLaneW-1:0]       lane;
    logic [SpeedupOut*NumIn-1:0]    gnt;
    logic [SpeedupOut-1:0]          valid;
    logic [SpeedupOut*InW-1:0]      idx;
    logic                           unused_locked;

    // Input i's proposal to o (each input proposes at most once to an output).
    always_comb begin : p_collect
      req  = '0;
      prio = '0;
      lane = '0;
      for (int unsigned i = 0; i < NumIn; i++) begin
        for (int unsigned k = 0; k < SpeedupIn; k++) begin
          if (prop_valid[i*SpeedupIn + k] && prop_out[(i*SpeedupIn + k)*OutW +: OutW] == OutW'(o)) begin
            req[i]                        = 1'b1;
            prio[i*PrioW +: PrioW]        = prop_prio[(i*SpeedupIn + k)*PrioW +: PrioW];
            lane[i*InLaneW +: InLaneW]    = InLaneW'(k);
          end
        end
      end
    end

    ccn_rr_arbiter #(
      .NumReq   (NumIn),
      .NumPrio  (NumPrio),
      .Lock     (1'b0),
      .NumPass  (SpeedupOut),
      .NumGroup (0)
    ) u_arb (
      .clk_i,
      .rst_ni,
      .req_i       (req),
      .prio_i      (prio),
      .group_i     ('0),
      .last_i      ('1),
      .ack_i       ({SpeedupOut{ack_i}}),
      .gnt_o       (gnt),
      .gnt_valid_o (valid),
      .gnt_idx_o   (idx),
      .locked_o    (unused_locked)
    );

    always_comb begin : p_out_gnt
      logic [NumIn-1:0] won;
      won = '0;
      out_gnt_lane_o[o*SpeedupOut*InLaneW +: SpeedupOut*InLaneW] = '0;
      for (int unsigned j = 0; j < SpeedupOut; j++) begin
        won = won | gnt[j*NumIn +: NumIn];
        for (int unsigned i = 0; i < NumIn; i++) begin
          if (gnt[j*NumIn + i]) begin
            out_gnt_lane_o[(o*SpeedupOut + j)*InLaneW +: InLaneW] = lane[i*InLaneW +: InLaneW];
          end
        end
      end
      won_at[o*NumIn +: NumIn] = won;
    end

    assign out_gnt_o[o*SpeedupOut +: SpeedupOut]            = valid;
    assign out_gnt_in_o[o*SpeedupOut*InW +: SpeedupOut*InW] = idx;
  end

  // ------------------------------------------------------------------------------------------
  // Which proposals won, the input grants, and what the input arbiters commit.
  always_comb begin : p_won
    prop_won = '0;
    for (int unsigned i = 0; i < NumIn; i++) begin
      for (int unsigned k = 0; k < SpeedupIn; k++) begin
        for (int unsigned o = 0; o < NumOut; o++) begin
          if (prop_valid[i*SpeedupIn + k] && prop_out[(i*SpeedupIn + k)*OutW +: OutW] == OutW'(o)
              && won_at[o*NumIn + i]) begin
            prop_won[i*SpeedupIn + k] = 1'b1;
          end
        end
      end
    end
  end

  assign prop_ack = prop_won & {NumProp{ack_i}};

  always_comb begin : p_in_gnt
    gnt_o        = '0;
    in_gnt_o     = prop_won;
    in_gnt_req_o = '0;
    for (int unsigned i = 0; i < NumIn; i++) begin
      for (int unsigned k = 0; k < SpeedupIn; k++) begin
        if (prop_won[i*SpeedupIn + k]) begin
          gnt_o[i*ReqsPerIn +: ReqsPerIn] = gnt_o[i*ReqsPerIn +: ReqsPerIn]
              | prop_gnt[(i*SpeedupIn + k)*ReqsPerIn +: ReqsPerIn];
          in_gnt_req_o[(i*SpeedupIn + k)*ReqW +: ReqW] = prop_req[(i*SpeedupIn + k)*ReqW +: ReqW];
        end
      end
    end
  end

  // ------------------------------------------------------------------------------------------
  // Assertions (simulation only).
`ifndef SYNTHESIS
  initial begin : p_params
    ParamPorts_A: assert (NumIn >= 1 && NumIn <= ccn_pkg::MaxPorts && NumOut >= 1
                          && NumOut <= ccn_pkg::MaxPorts) else $fatal(1, "ports out of 1..MaxPorts");
    ParamReqs_A: assert (ReqsPerIn >= 1 && ReqsPerIn <= ccn_pkg::MaxVcs)
      else $fatal(1, "ReqsPerIn out of 1..MaxVcs");
    ParamSpeedup_A: assert (SpeedupIn >= 1 && SpeedupOut >= 1) else $fatal(1, "speedup must be >= 1");
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : p_assert
    if (rst_ni) begin
      for (int unsigned q = 0; q < NumIn*ReqsPerIn; q++) begin
        OutputInRange_A: assert (!req_i[q] || 32'(req_out_i[q*OutW +: OutW]) < NumOut)
          else $error("request %0d: output out of range", q);
      end
      GrantRequested_A: assert ((gnt_o & ~req_i) == '0) else $error("grant without request");
      for (int unsigned o = 0; o < NumOut; o++) begin
        OutputSpeedup_A: assert ($countones(won_at[o*NumIn +: NumIn]) <= SpeedupOut)
          else $error("output %0d: more grants than SpeedupOut", o);
      end
    end
  end
`endif

endmodule

`default_nettype wire
