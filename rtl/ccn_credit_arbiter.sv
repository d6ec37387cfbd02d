// Per-output credit arbiter of a request/grant scheduler (paper 002, Chrysos et al., section 5.1;
// weighted mode: section 6.6).
//
// Mirrors ccnet::blocks::CreditArbiter (systemc/blocks/credit_arbiter.hpp) cycle for cycle; the
// co-simulation bench tb/credit_arbiter_cosim.cpp checks every output every cycle.
//
// One arbiter guards one fabric output. State: a request counter and a distribution pointer (the
// middle switch of the flow's next packet) per input, a credit counter per middle switch (free
// slots of the last-stage crosspoint behind it, Credits after reset), the round-robin position in
// the visiting order, and in weighted mode a smooth-weighted-round-robin balance per input.
//
// Behaviour (one cycle):
//   * Requests: each valid request port p adds req_count_i[p] to input req_input_i[p]'s counter,
//     ports in order; a credit (cred_valid_i) adds one to cred_path_i's counter. Both are seen by
//     this cycle's choice (the core applies them before pick()).
//   * Choice: an input is eligible when its counter is non-zero and the crosspoint its pointer
//     names has a credit (StrictPath; otherwise the first path from its pointer with a credit is
//     taken). Round robin: the first eligible input in visiting order (order_i) from the position
//     ptr_o. Weighted: the eligible input with the largest balance + weight; a tie goes to the
//     first in visiting order from ptr_o.
//   * Clock edge, when the grant is used (gnt_valid_o && gnt_ready_i): the winner's counter and
//     its path's credit drop by one, its pointer moves to the path after the one taken, the
//     position moves after the winner; weighted: every eligible input gains its weight, the winner
//     loses the sum of the eligible inputs' weights, and a winner whose counter reaches 0 drops
//     its balance to 0.
// Contract: a request names an input < NumIn and keeps its counter <= MaxReq; a credit names a
// path < NumPath whose counter is below Credits. A request or credit breaking it is ignored,
// raises violation_o in its cycle and the sticky error_o, and fires an assertion.
// order_i (a permutation of the inputs, InW bits per position, position 0 in the low bits) and
// weight_i (>= 1 each, WeightW bits per input) are configuration: stable after reset.
//
// Handshake contract: gnt_valid_o, gnt_input_o, gnt_path_o and violation_o are combinational in
// the request and credit inputs and the state; gnt_ready_i may depend on gnt_valid_o. ptr_o,
// pending_o (requests waiting), taken_o (credits taken) and error_o are registered state.
`default_nettype none

module ccn_credit_arbiter #(
  /// Inputs (flows) requesting this output (>= 1).
  parameter int unsigned NumIn = 4,
  /// Middle switches: one credit counter each (>= 1).
  parameter int unsigned NumPath = 2,
  /// Slots of each last-stage crosspoint buffer (>= 1).
  parameter int unsigned Credits = 2,
  /// Largest value of a request counter: the sources' throttle u (>= 1).
  parameter int unsigned MaxReq = 4,
  /// Request ports per cycle (>= 1).
  parameter int unsigned NumReq = 1,
  /// Only the path the distribution pointer names makes an input eligible (notes G5).
  parameter bit StrictPath = 1'b1,
  /// Smooth weighted round robin by weight_i instead of round robin in visiting order.
  parameter bit Weighted = 1'b0,
  /// Width of one weight (>= 1).
  parameter int unsigned WeightW = 4,
  /// Input i's first path is (i + DistOffset) mod NumPath.
  parameter int unsigned DistOffset = 0,
  /// Width of an input index (derived).
  localparam int unsigned InW = NumIn > 1 ? $clog2(NumIn) : 1,
  /// Width of a path index (derived).
  localparam int unsigned PathW = NumPath > 1 ? $clog2(NumPath) : 1,
  /// Width of a request counter and of a request count (derived).
  localparam int unsigned CntW = $clog2(MaxReq + 1),
  /// Width of a credit counter (derived).
  localparam int unsigned CredW = $clog2(Credits + 1),
  /// Width of pending_o (derived).
  localparam int unsigned PendW = $clog2(NumIn * MaxReq + 1),
  /// Width of taken_o (derived).
  localparam int unsigned TakenW = $clog2(NumPath * Credits + 1)
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,
  /// Request port p carries a request this cycle.
  input  logic [NumReq-1:0]         req_valid_i,
  /// Input of request port p (bits p*InW .. p*InW+InW-1).
  input  logic [NumReq*InW-1:0]     req_input_i,
  /// Packets asked for by request port p (bits p*CntW ..).
  input  logic [NumReq*CntW-1:0]    req_count_i,
  /// An end-to-end credit comes back this cycle.
  input  logic                      cred_valid_i,
  /// The path (middle switch) of the credit.
  input  logic [PathW-1:0]          cred_path_i,
  /// Visiting order: the input at each position (configuration).
  input  logic [NumIn*InW-1:0]      order_i,
  /// Weight of each input (configuration; weighted mode only).
  input  logic [NumIn*WeightW-1:0]  weight_i,
  /// The grant is used this cycle.
  input  logic                      gnt_ready_i,
  /// A grant is offered.
  output logic                      gnt_valid_o,
  /// Its input.
  output logic [InW-1:0]            gnt_input_o,
  /// Its path (the crosspoint reserved).
  output logic [PathW-1:0]          gnt_path_o,
  /// Round-robin position: the next search starts at this position of the visiting order.
  output logic [InW-1:0]            ptr_o,
  /// Sum of the request counters.
  output logic [PendW-1:0]          pending_o,
  /// Credits taken: sum over paths of Credits - credit counter.
  output logic [TakenW-1:0]         taken_o,
  /// This cycle's requests or credit break the contract.
  output logic                      violation_o,
  /// A violation happened since reset (sticky).
  output logic                      error_o
);

  // Balances, signed: WeightW + InW bits for a sum of NumIn weights, and 4 more of margin (the
  // smooth-WRR balances stay within a few times the weight sum; no proof here: the co-simulation
  // compares every grant, which a wrapped balance would change).
  localparam int unsigned BalW = WeightW + InW + 4;
  localparam int unsigned SumW = CntW + 1;
  localparam int unsigned PosW = InW + 1;

  // State, one field per input or path (input i at bits i*W .. i*W+W-1).
  logic [NumIn*CntW-1:0]    req_q, req_d;
  logic [NumIn*PathW-1:0]   dist_q, dist_d;
  logic [NumPath*CredW-1:0] cred_q, cred_d;
  logic [NumIn*BalW-1:0]    bal_q, bal_d;
  logic [InW-1:0]           ptr_q, ptr_d;
  logic [PendW-1:0]         pend_q, pend_d;
  logic                     error_q, error_d;

  // Combinational results.
  logic [NumIn*CntW-1:0]    req_eff;
  logic [NumPath*CredW-1:0] cred_eff;
  logic [NumIn-1:0]         elig;
  logic [NumIn*PathW-1:0]   elig_path;
  logic                     found;
  logic [InW-1:0]           win;
  logic [PathW-1:0]         win_path;
  logic [InW-1:0]           win_pos;
  logic                     viol;
  logic [PendW-1:0]         accepted;

  // Weights zero-extended to a balance's width (non-negative as signed values).
  logic [NumIn*BalW-1:0]    wext;
  always_comb begin : p_weights
    for (int unsigned i = 0; i < NumIn; i++) wext[i*BalW +: BalW] = BalW'(weight_i[i*WeightW +: WeightW]);
  end

  // ---- arrivals: requests in port order, then the credit ---------------------------------------
  always_comb begin : p_arrivals
    logic [InW-1:0]  in;
    logic [CntW-1:0] n;
    logic [SumW-1:0] sum;
    logic            cred_ok;
    in       = '0;
    n        = '0;
    sum      = '0;
    viol     = 1'b0;
    accepted = '0;
    req_eff  = req_q;
    for (int unsigned p = 0; p < NumReq; p++) begin
      in = req_input_i[p*InW +: InW];
      n  = req_count_i[p*CntW +: CntW];
      if (req_valid_i[p]) begin
        if (PosW'(in) >= PosW'(NumIn)) begin
          viol = 1'b1;
        end else begin
          sum = SumW'(req_eff[32'(in)*CntW +: CntW]) + SumW'(n);
          if (sum > SumW'(MaxReq)) begin
            viol = 1'b1;
          end else begin
            req_eff[32'(in)*CntW +: CntW] = sum[CntW-1:0];
            accepted = accepted + PendW'(n);
          end
        end
      end
    end
    cred_ok = 1'b0;
    if (cred_valid_i) begin
      if ((PathW + 1)'(cred_path_i) >= (PathW + 1)'(NumPath)) begin
        viol = 1'b1;
      end else if (cred_q[32'(cred_path_i)*CredW +: CredW] >= CredW'(Credits)) begin
        viol = 1'b1;
      end else begin
        cred_ok = 1'b1;
      end
    end
    for (int unsigned b = 0; b < NumPath; b++) begin
      cred_eff[b*CredW +: CredW] = cred_q[b*CredW +: CredW] + CredW'(cred_ok && cred_path_i == PathW'(b));
    end
  end

  // ---- eligibility per input -------------------------------------------------------------------
  always_comb begin : p_eligible
    logic [PathW:0]   b;
    logic [PathW-1:0] d0;
    b = '0;
    d0 = '0;
    for (int unsigned i = 0; i < NumIn; i++) begin
      d0 = dist_q[i*PathW +: PathW];
      elig[i] = 1'b0;
      elig_path[i*PathW +: PathW] = d0;
      if (req_eff[i*CntW +: CntW] != '0) begin
        if (StrictPath) begin
          elig[i] = cred_eff[32'(d0)*CredW +: CredW] != '0;
        end else begin
          for (int unsigned d = 0; d < NumPath; d++) begin
            b = (PathW + 1)'(d0) + (PathW + 1)'(d);
            if (b >= (PathW + 1)'(NumPath)) b = b - (PathW + 1)'(NumPath);
            if (!elig[i] && cred_eff[32'(b[PathW-1:0])*CredW +: CredW] != '0) begin
              elig[i] = 1'b1;
              elig_path[i*PathW +: PathW] = b[PathW-1:0];
            end
          end
        end
      end
    end
  end

  // ---- choice: first eligible in visiting order from ptr, or the largest balance + weight ---------
  always_comb begin : p_choose
    logic [PosW-1:0]        pos;
    logic [InW-1:0]         cand;
    logic signed [BalW-1:0] v, best;
    pos      = '0;
    cand     = '0;
    v        = '0;
    found    = 1'b0;
    win      = '0;
    win_path = '0;
    win_pos  = '0;
    best     = '0;
    for (int unsigned k = 0; k < NumIn; k++) begin
      pos = PosW'(ptr_q) + PosW'(k);
      if (pos >= PosW'(NumIn)) pos = pos - PosW'(NumIn);
      cand = order_i[32'(pos[InW-1:0])*InW +: InW];
      v    = $signed(bal_q[32'(cand)*BalW +: BalW]) + $signed(wext[32'(cand)*BalW +: BalW]);
      if (elig[cand] && (!found || (Weighted && v > best))) begin
        found    = 1'b1;
        win      = cand;
        win_path = elig_path[32'(cand)*PathW +: PathW];
        win_pos  = pos[InW-1:0];
        best     = v;
      end
    end
  end

  // ---- next state --------------------------------------------------------------------------------
  always_comb begin : p_next
    logic signed [BalW-1:0] total;
    logic [PosW-1:0]        np;
    logic [PathW:0]         nb;
    np      = '0;
    nb      = '0;
    total   = '0;
    req_d   = req_eff;
    dist_d  = dist_q;
    bal_d   = bal_q;
    cred_d  = cred_eff;
    ptr_d   = ptr_q;
    pend_d  = pend_q + accepted;
    error_d = error_q || viol;
    if (found && gnt_ready_i) begin
      if (Weighted) begin
        for (int unsigned i = 0; i < NumIn; i++) begin
          if (elig[i]) begin
            bal_d[i*BalW +: BalW] = $signed(bal_q[i*BalW +: BalW]) + $signed(wext[i*BalW +: BalW]);
            total = total + $signed(wext[i*BalW +: BalW]);
          end
        end
        bal_d[32'(win)*BalW +: BalW] = $signed(bal_d[32'(win)*BalW +: BalW]) - total;
        if (req_eff[32'(win)*CntW +: CntW] == CntW'(1)) bal_d[32'(win)*BalW +: BalW] = '0;
      end
      req_d[32'(win)*CntW +: CntW]        = req_eff[32'(win)*CntW +: CntW] - 1'b1;
      cred_d[32'(win_path)*CredW +: CredW] = cred_eff[32'(win_path)*CredW +: CredW] - 1'b1;
      nb = (PathW + 1)'(win_path) + 1'b1;
      dist_d[32'(win)*PathW +: PathW] = nb >= (PathW + 1)'(NumPath) ? '0 : nb[PathW-1:0];
      np = PosW'(win_pos) + 1'b1;
      ptr_d  = np >= PosW'(NumIn) ? '0 : np[InW-1:0];
      pend_d = pend_q + accepted - 1'b1;
    end
  end

  // Reset values of the distribution pointers: input i starts at (i + DistOffset) mod NumPath.
  logic [NumIn*PathW-1:0] dist_init;
  always_comb begin : p_dist_init
    for (int unsigned i = 0; i < NumIn; i++) dist_init[i*PathW +: PathW] = PathW'((i + DistOffset) % NumPath);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : p_state
    if (!rst_ni) begin
      req_q   <= '0;
      dist_q  <= dist_init;
      cred_q  <= {NumPath{CredW'(Credits)}};
      bal_q   <= '0;
      ptr_q   <= '0;
      pend_q  <= '0;
      error_q <= 1'b0;
    end else begin
      req_q   <= req_d;
      dist_q  <= dist_d;
      cred_q  <= cred_d;
      bal_q   <= bal_d;
      ptr_q   <= ptr_d;
      pend_q  <= pend_d;
      error_q <= error_d;
    end
  end

  always_comb begin : p_taken
    taken_o = '0;
    for (int unsigned b = 0; b < NumPath; b++) taken_o = taken_o + TakenW'(Credits) - TakenW'(cred_q[b*CredW +: CredW]);
  end

  assign gnt_valid_o = found;
  assign gnt_input_o = win;
  assign gnt_path_o  = win_path;
  assign ptr_o       = ptr_q;
  assign pending_o   = pend_q;
  assign violation_o = viol;
  assign error_o     = error_q;

  // ------------------------------------------------------------------------------------------
  // Assertions (simulation only). A violation is a model error in C++ and an assertion here.
`ifndef SYNTHESIS
  initial begin : p_params
    ParamNumIn_A: assert (NumIn >= 1) else $fatal(1, "NumIn must be >= 1");
    ParamNumPath_A: assert (NumPath >= 1) else $fatal(1, "NumPath must be >= 1");
    ParamCredits_A: assert (Credits >= 1) else $fatal(1, "Credits must be >= 1");
    ParamMaxReq_A: assert (MaxReq >= 1) else $fatal(1, "MaxReq must be >= 1");
    ParamNumReq_A: assert (NumReq >= 1) else $fatal(1, "NumReq must be >= 1");
    ParamWeightW_A: assert (WeightW >= 1 && WeightW <= 16) else $fatal(1, "WeightW out of 1..16");
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : p_assert
    if (rst_ni) begin
      NoViolation_A: assert (!viol)
        else $error("credit arbiter contract violation: a request beyond MaxReq %0d or an input >= %0d, or a credit to a full path or a path >= %0d",
                    MaxReq, NumIn, NumPath);
    end
  end
`endif

endmodule

`default_nettype wire
