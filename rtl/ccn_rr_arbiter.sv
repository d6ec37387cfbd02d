// Round-robin arbiter with priority levels, optional lock and multi-grant passes.
//
// Mirrors ccnet::blocks::RrArbiter (systemc/blocks/rr_arbiter.hpp) cycle for cycle; the
// co-simulation bench tb/rr_arbiter_cosim.cpp checks every output every cycle.
//
// Behaviour (one cycle):
//   * Requester i asks with req_i[i] at level prio_i[i] (a higher value is a higher priority).
//   * Locked (Lock = 1, a transfer in progress): grant the owner if it requests, else nothing.
//   * Otherwise the grant goes to the highest non-empty level and, within it, to the first
//     requester at or after that level's pointer, cyclically.
//   * NumPass > 1 (speedup): pass k grants again over the same pointer state, among the
//     requesters no earlier pass granted and, when NumGroup > 0, whose group_i differs from the
//     group of every earlier pass's winner (a switch allocator input proposes distinct outputs).
//   * Clock edge: for each pass k, in pass order, with gnt_valid_o[k] & ack_i[k] (the grant was
//     used): the winner's level pointer moves to winner + 1 (it has lowest priority next time);
//     with Lock the arbiter locks onto the winner unless last_i[winner] (transfer ends now).
//
// Handshake contract:
//   * gnt_o / gnt_valid_o / gnt_idx_o are combinational in req_i, prio_i, group_i and the
//     state; they never depend on ack_i or last_i, so ack_i may be computed from the grant.
//   * ack_i[k] is ignored when pass k has no grant.
//   * prio_i values are < NumPrio and group_i values < NumGroup (asserted).
`default_nettype none

module ccn_rr_arbiter #(
  /// Number of requesters (>= 1).
  parameter int unsigned NumReq = 4,
  /// Number of priority levels (1 .. ccn_pkg::MaxPrioLevels); prio_i is ignored when 1.
  parameter int unsigned NumPrio = 1,
  /// Hold the grant on its owner until the owner's last_i (multi-flit transfers); NumPass = 1.
  parameter bit Lock = 1'b0,
  /// Grants per cycle, all from one pointer state (crossbar speedup); >= 1.
  parameter int unsigned NumPass = 1,
  /// Exclusion groups across passes (0 = none; group_i is ignored).
  parameter int unsigned NumGroup = 0,
  /// Width of a requester index (derived).
  localparam int unsigned IdxW = NumReq > 1 ? $clog2(NumReq) : 1,
  /// Width of a priority level (derived).
  localparam int unsigned PrioW = NumPrio > 1 ? $clog2(NumPrio) : 1,
  /// Width of a group id (derived).
  localparam int unsigned GroupW = NumGroup > 1 ? $clog2(NumGroup) : 1
) (
  input  logic                       clk_i,
  input  logic                       rst_ni,
  /// Requests, one bit per requester.
  input  logic [NumReq-1:0]          req_i,
  /// Priority level of each requester (requester i in [i*PrioW +: PrioW]).
  input  logic [NumReq*PrioW-1:0]    prio_i,
  /// Exclusion group of each requester (requester i in [i*GroupW +: GroupW]).
  input  logic [NumReq*GroupW-1:0]   group_i,
  /// Requester i's current transfer ends with this grant (Lock only).
  input  logic [NumReq-1:0]          last_i,
  /// Grant of pass k was used: advance the state.
  input  logic [NumPass-1:0]         ack_i,
  /// One-hot grant of each pass (pass k in [k*NumReq +: NumReq]).
  output logic [NumPass*NumReq-1:0]  gnt_o,
  /// Pass k granted someone.
  output logic [NumPass-1:0]         gnt_valid_o,
  /// Index of pass k's winner (0 when none).
  output logic [NumPass*IdxW-1:0]    gnt_idx_o,
  /// A locked transfer is in progress (Lock only; else 0).
  output logic                       locked_o
);

  // ------------------------------------------------------------------------------------------
  // State: one round-robin pointer per level, the lock and its owner.
  logic [NumPrio*IdxW-1:0] ptr_q, ptr_d;
  logic                    locked_q, locked_d;
  logic [IdxW-1:0]         owner_q, owner_d;

  // Per-pass results.
  logic [NumPass*NumReq-1:0] gnt;
  logic [NumPass-1:0]        gnt_valid;
  logic [NumPass*IdxW-1:0]   gnt_idx;
  logic [NumPass*PrioW-1:0]  gnt_prio;
  logic [NumPass-1:0]        gnt_last;

  // Effective priority and group of each requester (0 when the feature is off).
  logic [NumReq*PrioW-1:0]  prio;
  logic [NumReq*GroupW-1:0] group;

  if (NumPrio > 1) begin : gen_prio
    assign prio = prio_i;
  end else begin : gen_no_prio
    assign prio = '0;
    logic unused_prio;
    assign unused_prio = ^prio_i;
  end

  if (NumGroup > 0) begin : gen_group
    assign group = group_i;
  end else begin : gen_no_group
    assign group = '0;
    logic unused_group;
    assign unused_group = ^group_i;
  end

  // ------------------------------------------------------------------------------------------
  // Combinational grant: NumPass passes over the same state.
  always_comb begin : p_grant
    logic [NumReq-1:0] avail;    // not granted by an earlier pass
    logic [NumReq-1:0] cand;     // candidates of this pass
    logic [NumReq-1:0] lvl_req;  // candidates at the selected level
    logic [NumReq-1:0] win;      // one-hot winner of this pass
    logic [PrioW-1:0]  lvl;
    logic [IdxW-1:0]   ptr;
    logic [IdxW-1:0]   idx;
    logic [PrioW-1:0]  win_prio;
    logic [GroupW-1:0] win_group;
    logic [NumPass*GroupW-1:0] pass_group;
    logic              found;

    gnt        = '0;
    gnt_valid  = '0;
    gnt_idx    = '0;
    gnt_prio   = '0;
    gnt_last   = '0;
    pass_group = '0;
    avail      = req_i;

    for (int unsigned k = 0; k < NumPass; k++) begin
      lvl       = '0;
      lvl_req   = '0;
      ptr       = '0;
      found     = 1'b0;
      win       = '0;
      // Candidates: still available and, with groups, not in an earlier winner's group.
      cand = avail;
      if (NumGroup > 0) begin
        for (int unsigned j = 0; j < k; j++) begin
          for (int unsigned i = 0; i < NumReq; i++) begin
            if (gnt_valid[j] && group[i*GroupW +: GroupW] == pass_group[j*GroupW +: GroupW]) begin
              cand[i] = 1'b0;
            end
          end
        end
      end

      if (Lock && locked_q) begin
        // Locked: only the owner may win.
        for (int unsigned i = 0; i < NumReq; i++) begin
          if (cand[i] && owner_q == IdxW'(i)) begin
            win[i] = 1'b1;
          end
        end
      end else begin
        // Highest non-empty level (ascending scan: the last hit is the highest).
        for (int unsigned l = 0; l < NumPrio; l++) begin
          for (int unsigned i = 0; i < NumReq; i++) begin
            if (cand[i] && prio[i*PrioW +: PrioW] == PrioW'(l)) begin
              lvl = PrioW'(l);
            end
          end
        end
        for (int unsigned i = 0; i < NumReq; i++) begin
          lvl_req[i] = cand[i] && prio[i*PrioW +: PrioW] == lvl;
        end
        for (int unsigned l = 0; l < NumPrio; l++) begin
          if (lvl == PrioW'(l)) begin
            ptr = ptr_q[l*IdxW +: IdxW];
          end
        end
        // First requester at or after the pointer, else the first one overall (wrap-around).
        for (int unsigned i = 0; i < NumReq; i++) begin
          if (!found && lvl_req[i] && 32'(ptr) <= i) begin
            win[i] = 1'b1;
            found  = 1'b1;
          end
        end
        for (int unsigned i = 0; i < NumReq; i++) begin
          if (!found && lvl_req[i]) begin
            win[i] = 1'b1;
            found  = 1'b1;
          end
        end
      end

      // Encode the winner.
      idx       = '0;
      win_prio  = '0;
      win_group = '0;
      for (int unsigned i = 0; i < NumReq; i++) begin
        if (win[i]) begin
          idx       = IdxW'(i);
          win_prio  = prio[i*PrioW +: PrioW];
          win_group = group[i*GroupW +: GroupW];
        end
      end
      gnt[k*NumReq +: NumReq]         = win;
      gnt_valid[k]                    = |win;
      gnt_idx[k*IdxW +: IdxW]         = idx;
      gnt_prio[k*PrioW +: PrioW]      = win_prio;
      gnt_last[k]                     = |(win & last_i);
      pass_group[k*GroupW +: GroupW]  = win_group;
      avail                           = avail & ~win;
    end
  end

  assign gnt_o       = gnt;
  assign gnt_valid_o = gnt_valid;
  assign gnt_idx_o   = gnt_idx;
  assign locked_o    = locked_q;

  // ------------------------------------------------------------------------------------------
  // Next state: commit the used grants in pass order (a later pass overrides its level).
  always_comb begin : p_next
    logic [IdxW-1:0] nxt;
    nxt      = '0;
    ptr_d    = ptr_q;
    locked_d = locked_q;
    owner_d  = owner_q;
    for (int unsigned k = 0; k < NumPass; k++) begin
      if (gnt_valid[k] && ack_i[k]) begin
        nxt = (gnt_idx[k*IdxW +: IdxW] == IdxW'(NumReq - 1)) ? '0 : gnt_idx[k*IdxW +: IdxW] + 1'b1;
        for (int unsigned l = 0; l < NumPrio; l++) begin
          if (gnt_prio[k*PrioW +: PrioW] == PrioW'(l)) begin
            ptr_d[l*IdxW +: IdxW] = nxt;
          end
        end
        if (Lock) begin
          locked_d = !gnt_last[k];
          owner_d  = gnt_idx[k*IdxW +: IdxW];
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : p_state
    if (!rst_ni) begin
      ptr_q    <= '0;
      locked_q <= 1'b0;
      owner_q  <= '0;
    end else begin
      ptr_q    <= ptr_d;
      locked_q <= locked_d;
      owner_q  <= owner_d;
    end
  end

  // last_i only matters with a lock.
  if (!Lock) begin : gen_no_lock
    logic unused_last;
    assign unused_last = ^{last_i, gnt_last};
  end

  // ------------------------------------------------------------------------------------------
  // Assertions (simulation only).
`ifndef SYNTHESIS
  initial begin : p_params
    ParamNumReq_A: assert (NumReq >= 1) else $fatal(1, "NumReq must be >= 1");
    ParamNumPrio_A: assert (NumPrio >= 1 && NumPrio <= ccn_pkg::MaxPrioLevels)
      else $fatal(1, "NumPrio out of 1..MaxPrioLevels");
    ParamNumPass_A: assert (NumPass >= 1) else $fatal(1, "NumPass must be >= 1");
    ParamLockOnePass_A: assert (!Lock || NumPass == 1) else $fatal(1, "Lock needs NumPass == 1");
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : p_assert
    if (rst_ni) begin
      for (int unsigned i = 0; i < NumReq; i++) begin
        PrioInRange_A: assert (!req_i[i] || 32'(prio[i*PrioW +: PrioW]) < NumPrio)
          else $error("requester %0d: prio %0d >= NumPrio", i, prio[i*PrioW +: PrioW]);
        GroupInRange_A: assert (!req_i[i] || NumGroup == 0 || 32'(group[i*GroupW +: GroupW]) < NumGroup)
          else $error("requester %0d: group out of range", i);
      end
      for (int unsigned k = 0; k < NumPass; k++) begin
        GrantOneHot_A: assert ($onehot0(gnt[k*NumReq +: NumReq]))
          else $error("pass %0d: grant not one-hot", k);
        GrantRequested_A: assert ((gnt[k*NumReq +: NumReq] & ~req_i) == '0)
          else $error("pass %0d: grant without request", k);
      end
      LockedOwnerOnly_A: assert (!locked_q || (gnt & ~((NumPass*NumReq)'(1) << owner_q)) == '0)
        else $error("locked: grant to a non-owner");
    end
  end
`endif

endmodule

`default_nettype wire
