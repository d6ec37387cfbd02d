// CRP reservation table (paper 000 section 2.3; notes rules R1-R9).
//
// Mirrors ccnet::blocks::CrpTable (systemc/blocks/crp_table.hpp) cycle for cycle; the
// co-simulation bench tb/crp_table_cosim.cpp checks every output every cycle.
//
// State: Cells counters t[i] of free cycles (cells_o), cell i covering the slot (epoch) E + i,
// where E (epoch_o, modulo 2^EpochWidth) counts the table's epochs of Cmax cycles; phase_o is the
// cycle within the epoch. Counters reset to Cmax. At the clock edge that ends an epoch (phase
// Cmax - 1) the table shifts after the cycle's operation: t[0] leaves, t[i] takes t[i + 1], the
// top cell enters at Cmax. A cell beyond the table reads as 0 (notes G3).
//
// One operation per cycle (op_i, a ccn_pkg::crp_op_e code); its results are combinational and
// its effect on the cells lands at the clock edge:
//   CrpOpRequest (R1-R3, R7): the request vector vec_i, whose bit b stands for epoch
//     vec_epoch_i + b, is aligned to E (shifted down by E - vec_epoch_i, ones entering at the
//     top) and ANDed with accept(i) = t[i] > 0 && t[i] + t[i+1] >= size_i (vec_o). With
//     reserve_i, the slot slot_i (with prefer_i, if still in the result and not below lead_i) or
//     else the lowest set bit at or above cell lead_i is reserved: d = min(t[i], x) from cell i,
//     x - d from i + 1 (take0_o, take1_o), reserved_o, slot_o = E + i, offset_o = Cmax - t[i]
//     (the reservation's first cycle in its slot). Nothing to reserve: retry_o = CrpRetryLong
//     when no cell at or above lead_i accepts x at all, else CrpRetryShort.
//   CrpOpGrant (R5, G5): a grant for slot slot_i of size_i cycles: cell i = slot_i - E (a slot
//     already past: cell 0) passes (pass_o) when t[i] + t[i+1] >= size_i, taking take0_o =
//     min(t[i], x) and take1_o = x - take0_o; otherwise nothing changes.
//   CrpOpRelease (R7, G4): take0_i cycles back to slot slot_i, take1_i to slot_i + 1 (cells
//     already past are skipped).
//   CrpOpCharge (R9, G6): size_i flits charged to the earliest non-zero cell, the excess spilling
//     into the following non-zero cells with spill_i; charged_o says how much was taken.
// Slots and vector epochs are compared modulo 2^EpochWidth: one 1 to 2^(EpochWidth-1) epochs
// behind E is past, one 1 to 2^(EpochWidth-1) - 1 ahead of it is in the future.
// Violations (violation_o in their cycle: every other output 0 and no effect; sticky error_o from
// the next edge; assertions): an op code >= NumCrpOps; a Request or Grant with size_i = 0 or
// > 2 Cmax (R8: N_max <= 2 C_max); a request vector from a future epoch; a Grant or Release slot
// at or beyond cell Cells; a Release that would raise a cell above Cmax or give cycles to the
// cell after the last. Invariant (asserted): every t[i] <= Cmax.
// Handshake: every input is sampled every cycle (CrpOpNop: nothing to do); vec_o .. charged_o,
// violation_o are combinational in the inputs and the state; cells_o, epoch_o, phase_o, error_o
// are registered.
`default_nettype none

module ccn_crp_table #(
  /// Cells per table (2 .. 64): the request vector has one bit per cell.
  parameter int unsigned Cells = 32,
  /// Cycles per cell (1 .. 65535); a counter resets to it.
  parameter int unsigned Cmax = 269,
  /// Width of an epoch (slot) number, modulo 2^EpochWidth (2 .. 32).
  parameter int unsigned EpochWidth = 8,
  /// Width of a cell counter (derived).
  localparam int unsigned CellW = $clog2(Cmax + 1),
  /// Width of a size (reservation length or flits; derived: holds 2 Cmax).
  localparam int unsigned SizeW = $clog2(2 * Cmax + 1),
  /// Width of the cycle within an epoch (derived).
  localparam int unsigned PhaseW = Cmax > 1 ? $clog2(Cmax) : 1,
  /// Width of lead_i, 0 .. Cells (derived).
  localparam int unsigned LeadW = $clog2(Cells + 1),
  /// Width of an op code and a retry kind (derived).
  localparam int unsigned OpW = ccn_pkg::CrpOpWidth,
  localparam int unsigned RetryW = ccn_pkg::CrpRetryWidth
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  /// The operation, a ccn_pkg::crp_op_e code (CrpOpNop: none).
  input  logic [OpW-1:0]           op_i,
  /// Request, Grant: the reservation length x; Charge: flits.
  input  logic [SizeW-1:0]         size_i,
  /// Request: bit b = epoch vec_epoch_i + b still available.
  input  logic [Cells-1:0]         vec_i,
  /// Request: the epoch vec_i is aligned to.
  input  logic [EpochWidth-1:0]    vec_epoch_i,
  /// Request: also reserve a slot.
  input  logic                     reserve_i,
  /// Request with reserve_i: try slot_i first.
  input  logic                     prefer_i,
  /// Request with reserve_i: cells below lead_i are not reserved.
  input  logic [LeadW-1:0]         lead_i,
  /// Request (preferred), Grant, Release: a slot (epoch number).
  input  logic [EpochWidth-1:0]    slot_i,
  /// Release: cycles given back to slot_i and to slot_i + 1.
  input  logic [CellW-1:0]         take0_i,
  input  logic [CellW-1:0]         take1_i,
  /// Charge: the excess spills into later cells.
  input  logic                     spill_i,
  /// Request: the aligned vector ANDed with the table.
  output logic [Cells-1:0]         vec_o,
  /// Request: a slot was reserved: slot_o, offset_o (Cmax - t[i] before), take0_o, take1_o.
  output logic                     reserved_o,
  output logic [EpochWidth-1:0]    slot_o,
  output logic [CellW-1:0]         offset_o,
  /// Request (reserved), Grant (passed): cycles taken from the slot's cell and from the next.
  output logic [CellW-1:0]         take0_o,
  output logic [CellW-1:0]         take1_o,
  /// Request with reserve_i and nothing reserved: a ccn_pkg::crp_retry_e code.
  output logic [RetryW-1:0]        retry_o,
  /// Grant: passed (0: convert it into a retry).
  output logic                     pass_o,
  /// Charge: flits taken from the cells.
  output logic [SizeW-1:0]         charged_o,
  /// t[i] ([i*CellW +: CellW]), the epoch, the cycle within it.
  output logic [Cells*CellW-1:0]   cells_o,
  output logic [EpochWidth-1:0]    epoch_o,
  output logic [PhaseW-1:0]        phase_o,
  /// This cycle's operation breaks the contract (combinational).
  output logic                     violation_o,
  /// A violation happened since reset (sticky).
  output logic                     error_o
);

  localparam int unsigned SumW = (CellW > SizeW ? CellW : SizeW) + 1;
  // A cell index and the one after it (0 .. Cells), and a vector shift (0 .. Cells).
  localparam int unsigned IdxW = $clog2(Cells + 1);
  localparam logic [CellW-1:0] CmaxC = CellW'(Cmax);
  localparam logic [SizeW-1:0] TwoCmax = SizeW'(2 * Cmax);
  localparam logic [PhaseW-1:0] LastPhase = PhaseW'(Cmax - 1);

  // ------------------------------------------------------------------------------------------
  // State.
  logic [Cells*CellW-1:0] cells_q, cells_d;
  logic [EpochWidth-1:0]  epoch_q, epoch_d;
  logic [PhaseW-1:0]      phase_q, phase_d;
  logic                   error_q, error_d;

  // Cell i of t, 0 beyond the table (a multiplexer: no select out of range).
  function automatic logic [CellW-1:0] cell_at(input logic [Cells*CellW-1:0] t, input logic [IdxW-1:0] i);
    cell_at = '0;
    for (int unsigned k = 0; k < Cells; k++) begin
      if (i == IdxW'(k)) cell_at = t[k*CellW +: CellW];
    end
  endfunction

  // t with cell i set to a and cell i + 1 (if in the table) to b.
  function automatic logic [Cells*CellW-1:0] put2(input logic [Cells*CellW-1:0] t, input logic [IdxW-1:0] i,
                                                  input logic [CellW-1:0] a, input logic [CellW-1:0] b);
    put2 = t;
    for (int unsigned k = 0; k < Cells; k++) begin
      if (i == IdxW'(k)) put2[k*CellW +: CellW] = a;
      if (i + 1'b1 == IdxW'(k)) put2[k*CellW +: CellW] = b;
    end
  endfunction

  // ------------------------------------------------------------------------------------------
  // The operation.
  logic [Cells*CellW-1:0] after_op;  // the cells after the operation's effect
  logic                   bad;

  always_comb begin : p_op
    logic [Cells-1:0]      acc, aligned, pickable, pick, at_rel;
    logic [EpochWidth-1:0] age, ahead, rel;
    logic [IdxW-1:0]       shift, sel;
    logic [SumW-1:0]       sum;
    logic [SizeW-1:0]      x, rem;
    logic [CellW-1:0]      ti, tn, take, g0, g1;
    logic                  past, found, size_ok, in_table;
    logic [1:0]            back;  // Release: epochs the slot is behind E (0, 1, 2 = 2 or more)
    // Defaults: nothing happens.
    acc        = '0;
    aligned    = '0;
    pickable   = '0;
    pick       = '0;
    at_rel     = '0;
    age        = '0;
    ahead      = '0;
    shift      = '0;
    sum        = '0;
    rem        = '0;
    ti         = '0;
    tn         = '0;
    take       = '0;
    g0         = '0;
    g1         = '0;
    found      = 1'b0;
    back       = 2'd0;
    vec_o      = '0;
    reserved_o = 1'b0;
    slot_o     = '0;
    offset_o   = '0;
    take0_o    = '0;
    take1_o    = '0;
    retry_o    = ccn_pkg::CrpRetryNone;
    pass_o     = 1'b0;
    charged_o  = '0;
    after_op   = cells_q;
    bad        = 1'b0;
    x          = size_i;
    size_ok    = x != '0 && x <= TwoCmax;
    rel        = slot_i - epoch_q;
    past       = rel[EpochWidth-1];
    in_table   = !past && 32'(rel) < 32'(Cells);
    sel        = '0;
    // accept(i) for every cell (R1), and the cell slot_i names.
    for (int unsigned i = 0; i < Cells; i++) begin
      sum       = SumW'(cells_q[i*CellW +: CellW]) + (i + 1 < Cells ? SumW'(cells_q[((i+1)%Cells)*CellW +: CellW]) : '0);
      acc[i]    = cells_q[i*CellW +: CellW] != '0 && sum >= SumW'(x);
      at_rel[i] = in_table && 32'(rel) == 32'(i);
    end
    unique case (op_i)
      ccn_pkg::CrpOpNop: ;
      ccn_pkg::CrpOpRequest: begin
        // A vector epoch up to 2^(EpochWidth-1) behind E is past, one ahead of it in the future.
        age   = epoch_q - vec_epoch_i;
        ahead = vec_epoch_i - epoch_q;
        if (!size_ok || (ahead != '0 && !ahead[EpochWidth-1])) begin
          bad = 1'b1;
        end else begin
          // Align: bit b is epoch vec_epoch_i + age + b; epochs above the vector are available.
          shift   = 32'(age) < 32'(Cells) ? IdxW'(age) : IdxW'(Cells);
          aligned = Cells'({{Cells{1'b1}}, vec_i} >> shift);
          for (int unsigned b = 0; b < Cells; b++) begin
            pickable[b] = 32'(b) >= 32'(lead_i);
          end
          vec_o = aligned & acc;
          pick  = vec_o & pickable;
          if (reserve_i) begin
            if (pick == '0) begin
              retry_o = (acc & pickable) == '0 ? ccn_pkg::CrpRetryLong : ccn_pkg::CrpRetryShort;
            end else begin
              // The lowest set bit, or the preferred slot if it is still there.
              found = 1'b0;
              for (int unsigned i = 0; i < Cells; i++) begin
                if (!found && pick[i]) begin
                  sel   = IdxW'(i);
                  found = 1'b1;
                end
              end
              if (prefer_i && (pick & at_rel) != '0) begin
                sel = IdxW'(rel);
              end
              ti         = cell_at(cells_q, sel);
              tn         = cell_at(cells_q, sel + 1'b1);
              take       = SizeW'(ti) < x ? ti : CellW'(x);
              reserved_o = 1'b1;
              slot_o     = epoch_q + EpochWidth'(sel);
              offset_o   = CmaxC - ti;
              take0_o    = take;
              take1_o    = CellW'(x - SizeW'(take));
              after_op   = put2(cells_q, sel, ti - take, tn - take1_o);
            end
          end
        end
      end
      ccn_pkg::CrpOpGrant: begin
        if (!size_ok || (!past && !in_table)) begin
          bad = 1'b1;
        end else begin
          sel = past ? '0 : IdxW'(rel);  // a slot already past: the data follows at once
          ti  = cell_at(cells_q, sel);
          tn  = cell_at(cells_q, sel + 1'b1);
          sum = SumW'(ti) + SumW'(tn);
          if (sum >= SumW'(x)) begin
            take     = SizeW'(ti) < x ? ti : CellW'(x);
            pass_o   = 1'b1;
            take0_o  = take;
            take1_o  = CellW'(x - SizeW'(take));
            after_op = put2(cells_q, sel, ti - take, tn - take1_o);
          end
        end
      end
      ccn_pkg::CrpOpRelease: begin
        // Cell of slot_i: rel (>= 0), or 1 or 2+ cells behind E (past).
        back = !past ? 2'd0 : ((EpochWidth'(0) - rel) == EpochWidth'(1) ? 2'd1 : 2'd2);
        sel  = past ? '0 : IdxW'(rel);
        g0   = !past ? take0_i : '0;
        g1   = back != 2'd2 ? take1_i : '0;
        ti   = cell_at(cells_q, sel);
        tn   = cell_at(cells_q, sel + 1'b1);
        if (!past && !in_table) begin
          bad = 1'b1;
        end else if (back == 2'd1) begin
          // Only slot_i + 1 (cell 0) is still in the table.
          if (SumW'(ti) + SumW'(g1) > SumW'(CmaxC)) begin
            bad = 1'b1;
          end else begin
            after_op[0 +: CellW] = ti + g1;
          end
        end else if (back == 2'd0) begin
          if ((32'(sel) + 1 >= Cells && g1 != '0) || SumW'(ti) + SumW'(g0) > SumW'(CmaxC) ||
              (32'(sel) + 1 < Cells && SumW'(tn) + SumW'(g1) > SumW'(CmaxC))) begin
            bad = 1'b1;
          end else begin
            after_op = put2(cells_q, sel, ti + g0, tn + g1);
          end
        end
      end
      ccn_pkg::CrpOpCharge: begin
        // Earliest non-zero cells first; without spill_i only the first of them.
        rem   = x;
        found = 1'b0;
        for (int unsigned i = 0; i < Cells; i++) begin
          ti = cells_q[i*CellW +: CellW];
          if (ti != '0 && (spill_i || !found)) begin
            found = 1'b1;
            take  = SizeW'(ti) < rem ? ti : CellW'(rem);
            rem   = rem - SizeW'(take);
            after_op[i*CellW +: CellW] = ti - take;
          end
        end
        charged_o = x - rem;
      end
      default: bad = 1'b1;
    endcase
    if (bad) begin
      vec_o      = '0;
      reserved_o = 1'b0;
      slot_o     = '0;
      offset_o   = '0;
      take0_o    = '0;
      take1_o    = '0;
      retry_o    = ccn_pkg::CrpRetryNone;
      pass_o     = 1'b0;
      charged_o  = '0;
      after_op   = cells_q;
    end
  end

  // ------------------------------------------------------------------------------------------
  // Clock edge: the operation's effect, then the shift at the end of an epoch.
  always_comb begin : p_next
    cells_d = after_op;
    epoch_d = epoch_q;
    phase_d = phase_q + 1'b1;
    if (phase_q == LastPhase) begin
      phase_d = '0;
      epoch_d = epoch_q + 1'b1;
      for (int unsigned i = 0; i < Cells; i++) begin
        cells_d[i*CellW +: CellW] = i + 1 < Cells ? after_op[(i+1)*CellW +: CellW] : CmaxC;
      end
    end
  end

  assign violation_o = bad;
  assign error_d     = error_q || bad;

  always_ff @(posedge clk_i or negedge rst_ni) begin : p_state
    if (!rst_ni) begin
      cells_q <= {Cells{CmaxC}};
      epoch_q <= '0;
      phase_q <= '0;
      error_q <= 1'b0;
    end else begin
      cells_q <= cells_d;
      epoch_q <= epoch_d;
      phase_q <= phase_d;
      error_q <= error_d;
    end
  end

  assign cells_o = cells_q;
  assign epoch_o = epoch_q;
  assign phase_o = phase_q;
  assign error_o = error_q;

  // ------------------------------------------------------------------------------------------
  // Assertions (simulation only).
`ifndef SYNTHESIS
  initial begin : p_params
    ParamCells_A: assert (Cells >= 2 && Cells <= 64) else $fatal(1, "Cells out of 2..64");
    ParamCmax_A: assert (Cmax >= 1 && Cmax <= 65535) else $fatal(1, "Cmax out of 1..65535");
    ParamEpochWidth_A: assert (EpochWidth >= 2 && EpochWidth <= 32) else $fatal(1, "EpochWidth out of 2..32");
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : p_assert
    if (rst_ni) begin
      OpLegal_A: assert (!bad) else $error("CRP table operation breaks the contract (op %0d)", op_i);
      for (int unsigned i = 0; i < Cells; i++) begin
        // Compared as t + 1 <= Cmax + 1: no parameter value makes it constant.
        CellBound_A: assert (SumW'(cells_q[i*CellW +: CellW]) + 1'b1 <= SumW'(CmaxC) + 1'b1)
          else $error("cell %0d holds %0d > Cmax", i, cells_q[i*CellW +: CellW]);
      end
    end
  end
`endif

endmodule

`default_nettype wire
