// Separable input-first switch allocator with speedup.
//
// Mirrors ccnet::blocks::SwitchAllocator (systemc/blocks/switch_allocator.hpp) cycle for cycle;
// the co-simulation bench tb/switch_allocator_cosim.cpp checks every output every cycle. One
// round-robin arbiter per input (SpeedupIn passes, the target output as exclusion group) and one
// per output (SpeedupOut passes), each ccn_rr_arbiter's semantics (priority levels, a pointer per
// level) written inline with vector expressions (a masked find-first-set per pass) instead of
// per-bit loops: Verilator's model evaluates several times cheaper, which RTL in the loop pays
// at every call (docs/rtl-verification.md, "Speed").
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

  // Round robin over a request vector: the first request at or after the pointer, else the first
  // one (wrap-around), one-hot. Vector expressions, not per-bit loops: Verilator evaluates the
  // allocator at every call in the network (RTL in the loop), and this is its inner loop.
  function automatic logic [ReqsPerIn-1:0] rr_pick_in(logic [ReqsPerIn-1:0] req, logic [ReqW-1:0] ptr);
    logic [ReqsPerIn-1:0] from_ptr;
    from_ptr = req & ({ReqsPerIn{1'b1}} << ptr);
    if (from_ptr == '0) from_ptr = req;
    rr_pick_in = from_ptr & (~from_ptr + ReqsPerIn'(1));
  endfunction

  function automatic logic [NumIn-1:0] rr_pick_out(logic [NumIn-1:0] req, logic [InW-1:0] ptr);
    logic [NumIn-1:0] from_ptr;
    from_ptr = req & ({NumIn{1'b1}} << ptr);
    if (from_ptr == '0) from_ptr = req;
    rr_pick_out = from_ptr & (~from_ptr + NumIn'(1));
  endfunction

  // Proposals of the input stage, proposal p = i*SpeedupIn + k.
  logic [NumProp-1:0]           prop_valid;
  logic [NumProp*ReqsPerIn-1:0] prop_gnt;   // one-hot requester of the input
  logic [NumProp*ReqW-1:0]      prop_req;
  logic [NumProp*OutW-1:0]      prop_out;
  logic [NumProp*PrioW-1:0]     prop_prio;  // the level it won at (0 when NumPrio = 1)
  logic [NumProp-1:0]           prop_won;   // granted by its output

  // Output stage: won_at[o*NumIn + i] = output o granted input i (on some output lane).
  logic [NumOut*NumIn-1:0]      won_at;

  // ------------------------------------------------------------------------------------------
  // Input stage: one round-robin arbiter per input over its requesters, one pointer per level,
  // SpeedupIn passes from one pointer state; pass k picks among the requests no earlier pass
  // picked whose output differs from the outputs of the earlier passes' proposals.
  for (genvar i = 0; i < NumIn; i++) begin : gen_in
    logic [ReqsPerIn-1:0]         req;
    logic [NumPrio*ReqsPerIn-1:0] at_lvl;   // [l*ReqsPerIn + r]: request r is at level l
    logic [NumPrio*ReqW-1:0]      ptr_q, ptr_d;
    logic [SpeedupIn*ReqsPerIn-1:0] gnt;
    logic [SpeedupIn-1:0]         valid;
    logic [SpeedupIn*ReqW-1:0]    idx;
    logic [SpeedupIn*OutW-1:0]    out;
    logic [SpeedupIn*PrioW-1:0]   lvl;

    assign req = req_i[i*ReqsPerIn +: ReqsPerIn];

    if (NumPrio == 1) begin : gen_one_level
      assign at_lvl = '1;
      logic unused_prio;
      assign unused_prio = ^req_prio_i[i*ReqsPerIn*PrioW +: ReqsPerIn*PrioW];
    end else if (NumPrio == 2) begin : gen_two_levels  // PrioW = 1: req_prio_i is level 1's mask
      assign at_lvl = {req_prio_i[i*ReqsPerIn +: ReqsPerIn], ~req_prio_i[i*ReqsPerIn +: ReqsPerIn]};
    end else begin : gen_levels
      always_comb begin : p_levels
        for (int unsigned l = 0; l < NumPrio; l++) begin
          for (int unsigned r = 0; r < ReqsPerIn; r++) begin
            at_lvl[l*ReqsPerIn + r] = req_prio_i[(i*ReqsPerIn + r)*PrioW +: PrioW] == PrioW'(l);
          end
        end
      end
    end

    always_comb begin : p_propose
      logic [ReqsPerIn-1:0] avail, cand, lvl_req, win;
      logic [ReqW-1:0]      ptr, wi;
      logic [OutW-1:0]      wo;
      logic [PrioW-1:0]     wl;
      gnt   = '0;
      valid = '0;
      idx   = '0;
      out   = '0;
      lvl   = '0;
      avail = req;
      for (int unsigned k = 0; k < SpeedupIn; k++) begin
        cand = avail;
        for (int unsigned j = 0; j < k; j++) begin
          for (int unsigned r = 0; r < ReqsPerIn; r++) begin
            if (valid[j] && req_out_i[(i*ReqsPerIn + r)*OutW +: OutW] == out[j*OutW +: OutW]) begin
              cand[r] = 1'b0;
            end
          end
        end
        // The highest level with a candidate, and its pointer.
        lvl_req = '0;
        ptr     = '0;
        wl      = '0;
        for (int unsigned l = 0; l < NumPrio; l++) begin
          if ((cand & at_lvl[l*ReqsPerIn +: ReqsPerIn]) != '0) begin
            lvl_req = cand & at_lvl[l*ReqsPerIn +: ReqsPerIn];
            ptr     = ptr_q[l*ReqW +: ReqW];
            wl      = PrioW'(l);
          end
        end
        win = rr_pick_in(lvl_req, ptr);
        wi  = '0;
        wo  = '0;
        for (int unsigned r = 0; r < ReqsPerIn; r++) begin
          if (win[r]) begin
            wi = ReqW'(r);
            wo = req_out_i[(i*ReqsPerIn + r)*OutW +: OutW];
          end
        end
        gnt[k*ReqsPerIn +: ReqsPerIn] = win;
        valid[k]                      = win != '0;
        idx[k*ReqW +: ReqW]           = wi;
        out[k*OutW +: OutW]           = wo;
        lvl[k*PrioW +: PrioW]         = wl;
        avail                         = avail & ~win;
      end
    end

    // Clock edge with ack_i: each proposal that won moves its level's pointer past the winner,
    // in pass order.
    always_comb begin : p_next
      logic [ReqW-1:0] wi;
      wi    = '0;
      ptr_d = ptr_q;
      for (int unsigned k = 0; k < SpeedupIn; k++) begin
        if (ack_i && prop_won[i*SpeedupIn + k]) begin
          wi = idx[k*ReqW +: ReqW];
          for (int unsigned l = 0; l < NumPrio; l++) begin
            if (lvl[k*PrioW +: PrioW] == PrioW'(l)) begin
              ptr_d[l*ReqW +: ReqW] = (wi == ReqW'(ReqsPerIn - 1)) ? '0 : wi + 1'b1;
            end
          end
        end
      end
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin : p_state
      if (!rst_ni) ptr_q <= '0;
      else         ptr_q <= ptr_d;
    end

    assign prop_valid[i*SpeedupIn +: SpeedupIn]                   = valid;
    assign prop_gnt[i*SpeedupIn*ReqsPerIn +: SpeedupIn*ReqsPerIn] = gnt;
    assign prop_req[i*SpeedupIn*ReqW +: SpeedupIn*ReqW]           = idx;
    assign prop_out[i*SpeedupIn*OutW +: SpeedupIn*OutW]           = out;
    assign prop_prio[i*SpeedupIn*PrioW +: SpeedupIn*PrioW]        = lvl;
  end

  // ------------------------------------------------------------------------------------------
  // Output stage: one round-robin arbiter per output over the inputs that proposed to it (at
  // most one proposal per input), one pointer per level, SpeedupOut passes.
  for (genvar o = 0; o < NumOut; o++) begin : gen_out
    logic [NumIn-1:0]         req;
    logic [NumPrio*NumIn-1:0] at_lvl;  // [l*NumIn + i]: input i's proposal is at level l
    logic [NumIn*InLaneW-1:0] lane;
    logic [NumPrio*InW-1:0]   ptr_q, ptr_d;
    logic [SpeedupOut-1:0]    valid;
    logic [SpeedupOut*InW-1:0] idx;
    logic [SpeedupOut*PrioW-1:0] lvl;

    always_comb begin : p_collect
      req    = '0;
      at_lvl = '0;
      lane   = '0;
      for (int unsigned i = 0; i < NumIn; i++) begin
        for (int unsigned k = 0; k < SpeedupIn; k++) begin
          if (prop_valid[i*SpeedupIn + k] && prop_out[(i*SpeedupIn + k)*OutW +: OutW] == OutW'(o)) begin
            req[i]                     = 1'b1;
            lane[i*InLaneW +: InLaneW] = InLaneW'(k);
            for (int unsigned l = 0; l < NumPrio; l++) begin
              at_lvl[l*NumIn + i] = prop_prio[(i*SpeedupIn + k)*PrioW +: PrioW] == PrioW'(l);
            end
          end
        end
      end
    end

    always_comb begin : p_grant
      logic [NumIn-1:0]   avail, lvl_req, win, won;
      logic [InW-1:0]     ptr, wi;
      logic [PrioW-1:0]   wl;
      logic [InLaneW-1:0] wlane;
      valid = '0;
      idx   = '0;
      lvl   = '0;
      won   = '0;
      out_gnt_lane_o[o*SpeedupOut*InLaneW +: SpeedupOut*InLaneW] = '0;
      avail = req;
      for (int unsigned j = 0; j < SpeedupOut; j++) begin
        lvl_req = '0;
        ptr     = '0;
        wl      = '0;
        for (int unsigned l = 0; l < NumPrio; l++) begin
          if ((avail & at_lvl[l*NumIn +: NumIn]) != '0) begin
            lvl_req = avail & at_lvl[l*NumIn +: NumIn];
            ptr     = ptr_q[l*InW +: InW];
            wl      = PrioW'(l);
          end
        end
        win   = rr_pick_out(lvl_req, ptr);
        wi    = '0;
        wlane = '0;
        for (int unsigned i = 0; i < NumIn; i++) begin
          if (win[i]) begin
            wi    = InW'(i);
            wlane = lane[i*InLaneW +: InLaneW];
          end
        end
        valid[j]              = win != '0;
        idx[j*InW +: InW]     = wi;
        lvl[j*PrioW +: PrioW] = wl;
        out_gnt_lane_o[(o*SpeedupOut + j)*InLaneW +: InLaneW] = wlane;
        won   = won | win;
        avail = avail & ~win;
      end
      won_at[o*NumIn +: NumIn] = won;
    end

    always_comb begin : p_next
      logic [InW-1:0] wi;
      wi    = '0;
      ptr_d = ptr_q;
      for (int unsigned j = 0; j < SpeedupOut; j++) begin
        if (ack_i && valid[j]) begin
          wi = idx[j*InW +: InW];
          for (int unsigned l = 0; l < NumPrio; l++) begin
            if (lvl[j*PrioW +: PrioW] == PrioW'(l)) begin
              ptr_d[l*InW +: InW] = (wi == InW'(NumIn - 1)) ? '0 : wi + 1'b1;
            end
          end
        end
      end
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin : p_state
      if (!rst_ni) ptr_q <= '0;
      else         ptr_q <= ptr_d;
    end

    assign out_gnt_o[o*SpeedupOut +: SpeedupOut]            = valid;
    assign out_gnt_in_o[o*SpeedupOut*InW +: SpeedupOut*InW] = idx;
  end

  // ------------------------------------------------------------------------------------------
  // Which proposals won, and the input grants.
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
        PrioInRange_A: assert (!req_i[q] || NumPrio == 1 || 32'(req_prio_i[q*PrioW +: PrioW]) < NumPrio)
          else $error("request %0d: priority level out of range", q);
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
