// MVCM source flow controller: the per-flow dynamic window and waiting slots of paper 001
// (Ferrer et al., IEEE TC 2012, sections 3.2-3.3, Table 1).
//
// Mirrors ccnet::blocks::MvcmFlowCtrl (systemc/blocks/mvcm_flow_ctrl.hpp) cycle for cycle; the
// co-simulation bench tb/mvcm_flow_ctrl_cosim.cpp checks every output every cycle.
//
// One flow per destination. Per flow: the window DW (1 .. DwMax, dw_o), the packets started and not
// yet acknowledged (outstanding_o, never above DW), the number of times number_WS grew since it
// was last 0 (incs_o, 0 .. WsIncreases; number_WS = WsFactor^(incs-1)) and the cycles left before
// the flow may start again (wait_o). A flow may start a packet when outstanding < DW and wait = 0
// (eligible_o). The NIC chooses among its non-empty eligible flows (e.g. round robin) and reports
// the start it made (start_*); this block only keeps the flows' state.
//
// Clock edge, in this order (the state before the edge decides eligibility during the cycle):
//   1. restart lanes: each names a flow that got a packet while nothing of it was queued; a flow
//      with nothing outstanding restarts (DW = DwMax, no waiting slots, wait 0);
//   2. the start: outstanding + 1 (the flow was eligible at the start of the cycle);
//   3. the ACK lane, by its class (ccn_pkg::mvcm_ack_e), outstanding - 1 and:
//        cold: waiting slots in force: all removed, wait 0; else DW + 1 (at most DwMax);
//        warm: DW - 1 (at least 1);
//        hot:  DW - 1 while DW > 1; at DW = 1 incs + 1 (at most WsIncreases);
//      a warm or hot ACK that leaves incs > 0 re-arms the waiting interval from this edge:
//      wait = number_WS * RttMin - 1 (the flow may start again number_WS * RttMin cycles later).
//   Otherwise wait counts down to 0.
// Invariants: outstanding <= DW; incs > 0 implies DW = 1.
//
// Violations (violation_o in their cycle, sticky error_o from the next edge, assertions): a start
// on a flow that was not eligible or names no flow (>= NumFlows), an ACK that names no flow, has
// no class (code 3) or finds nothing outstanding after step 2, a restart lane that names no flow.
// The offending lane changes nothing; the others still apply.
//
// Time: the C++ core keeps each flow's first eligible cycle as an absolute 64-bit time; the RTL
// keeps the down-counter wait_o = max(not_before - now, 0), the same decision without a clock.
//
// Handshake contract: eligible_o and the state outputs are registered; violation_o is
// combinational in the inputs and the state (a NIC must start only eligible flows, so it never
// feeds back into start_valid_i).
`default_nettype none

module ccn_mvcm_flow_ctrl #(
  /// Flows, one per destination (>= 1).
  parameter int unsigned NumFlows = 4,
  /// Largest (and initial) window DW_max, packets (1 .. 255).
  parameter int unsigned DwMax = 2,
  /// Growth factor of number_WS, the switch radix k (>= 1).
  parameter int unsigned WsFactor = 4,
  /// Times number_WS may grow, the 0 -> 1 step included: the stages n (>= 1).
  parameter int unsigned WsIncreases = 3,
  /// One waiting slot, RTT_min cycles (>= 1).
  parameter int unsigned RttMin = 31,
  /// Restart lanes per cycle (>= 1).
  parameter int unsigned NumRestart = 1,
  /// Width of a flow index (derived).
  localparam int unsigned IdxW = NumFlows > 1 ? $clog2(NumFlows) : 1,
  /// Width of a window or outstanding count, 0 .. DwMax (derived).
  localparam int unsigned DwW = $clog2(DwMax + 1),
  /// Width of incs, 0 .. WsIncreases (derived).
  localparam int unsigned IncW = $clog2(WsIncreases + 1),
  /// Longest waiting interval, RttMin * WsFactor^(WsIncreases - 1) cycles (derived).
  localparam logic [63:0] WaitMax = 64'(RttMin) * 64'(WsFactor) ** (WsIncreases - 1),
  /// Width of the remaining wait, 0 .. WaitMax - 1 (derived).
  localparam int unsigned WaitW = WaitMax > 64'd1 ? $clog2(WaitMax) : 1
) (
  input  logic                         clk_i,
  input  logic                         rst_ni,
  /// A packet of flow start_flow_i started this cycle.
  input  logic                         start_valid_i,
  /// Flow of the started packet.
  input  logic [IdxW-1:0]              start_flow_i,
  /// An ACK arrived this cycle.
  input  logic                         ack_valid_i,
  /// Flow (destination) of the ACK.
  input  logic [IdxW-1:0]              ack_flow_i,
  /// Class of the ACK from its marks (ccn_pkg::mvcm_ack_e; code 3 is no class).
  input  logic [ccn_pkg::MvcmAckWidth-1:0] ack_kind_i,
  /// Restart lane k: a packet was generated for a flow with nothing queued.
  input  logic [NumRestart-1:0]        restart_valid_i,
  /// Flow of restart lane k ([k*IdxW +: IdxW]).
  input  logic [NumRestart*IdxW-1:0]   restart_flow_i,
  /// Flow f may start a packet (outstanding < DW and no wait left).
  output logic [NumFlows-1:0]          eligible_o,
  /// Window DW of flow f ([f*DwW +: DwW]).
  output logic [NumFlows*DwW-1:0]      dw_o,
  /// Packets of flow f not yet acknowledged ([f*DwW +: DwW]).
  output logic [NumFlows*DwW-1:0]      outstanding_o,
  /// Growths of number_WS of flow f since it was 0 ([f*IncW +: IncW]; 0 = no waiting slots).
  output logic [NumFlows*IncW-1:0]     incs_o,
  /// Cycles before flow f may start again ([f*WaitW +: WaitW]; 0 = now).
  output logic [NumFlows*WaitW-1:0]    wait_o,
  /// This cycle's lanes break the contract.
  output logic                         violation_o,
  /// A violation happened since reset (sticky).
  output logic                         error_o
);

  // ------------------------------------------------------------------------------------------
  // State.
  logic [NumFlows*DwW-1:0]   dw_q, dw_d;
  logic [NumFlows*DwW-1:0]   out_q, out_d;
  logic [NumFlows*IncW-1:0]  inc_q, inc_d;
  logic [NumFlows*WaitW-1:0] wait_q, wait_d;
  logic                      error_q, error_d;

  // ------------------------------------------------------------------------------------------
  // Waiting interval minus one, by incs (entry 0 unused): RttMin * WsFactor^(incs - 1) - 1.
  logic [(WsIncreases+1)*WaitW-1:0] interval_m1;
  assign interval_m1[0 +: WaitW] = '0;
  for (genvar i = 1; i <= WsIncreases; i++) begin : gen_interval
    localparam logic [63:0] Interval = 64'(RttMin) * 64'(WsFactor) ** (i - 1);
    assign interval_m1[i*WaitW +: WaitW] = WaitW'(Interval - 64'd1);
  end

  // ------------------------------------------------------------------------------------------
  // Eligibility (registered state only).
  logic [NumFlows-1:0] eligible;
  for (genvar f = 0; f < NumFlows; f++) begin : gen_eligible
    assign eligible[f] = out_q[f*DwW +: DwW] < dw_q[f*DwW +: DwW] && wait_q[f*WaitW +: WaitW] == '0;
  end

  // ------------------------------------------------------------------------------------------
  // Lane checks.
  logic              start_ok, ack_kind_ok;
  logic              start_bad, ack_bad;
  logic [NumRestart-1:0] restart_bad;

  // The start's flow, one-hot (all zero when it names no flow); the eligibility check is an
  // AND-OR over the flows, not a chain of multiplexers.
  logic [NumFlows-1:0] start_sel;
  for (genvar f = 0; f < NumFlows; f++) begin : gen_start_sel
    assign start_sel[f] = start_flow_i == IdxW'(f);
  end
  assign start_ok = |(start_sel & eligible);

  assign ack_kind_ok = 32'(ack_kind_i) < ccn_pkg::NumMvcmAcks;
  assign start_bad   = start_valid_i && !start_ok;
  for (genvar k = 0; k < NumRestart; k++) begin : gen_restart_bad
    assign restart_bad[k] = restart_valid_i[k] && 32'(restart_flow_i[k*IdxW +: IdxW]) >= NumFlows;
  end

  // ------------------------------------------------------------------------------------------
  // Next state of every flow: restarts, then the start, then the ACK.
  logic [NumFlows-1:0] ack_empty;  // flow f's ACK finds nothing outstanding after the start

  for (genvar f = 0; f < NumFlows; f++) begin : gen_flow
    logic            restart, ack_here;
    logic [DwW-1:0]  dw_r, out_s;
    logic [IncW-1:0] inc_r;
    logic            restarted;

    always_comb begin : p_restart
      restart = 1'b0;
      for (int unsigned k = 0; k < NumRestart; k++) begin
        if (restart_valid_i[k] && restart_flow_i[k*IdxW +: IdxW] == IdxW'(f)) begin
          restart = 1'b1;
        end
      end
    end

    // 1. Restart; 2. the start.
    assign restarted = restart && out_q[f*DwW +: DwW] == '0;
    assign dw_r      = restarted ? DwW'(DwMax) : dw_q[f*DwW +: DwW];
    assign inc_r     = restarted ? '0 : inc_q[f*IncW +: IncW];
    assign out_s     = out_q[f*DwW +: DwW] + DwW'(start_valid_i && start_sel[f] && eligible[f]);
    assign ack_here  = ack_valid_i && ack_kind_ok && ack_flow_i == IdxW'(f);
    assign ack_empty[f] = ack_here && out_s == '0;

    // 3. The ACK, and the remaining wait: re-armed by a warm or hot ACK with waiting slots in
    // force, gone with a restart or the cold ACK that removes the slots, else one cycle less.
    always_comb begin : p_ack
      logic [DwW-1:0]  dw;
      logic [IncW-1:0] inc;
      logic            ack, cleared;
      dw      = dw_r;
      inc     = inc_r;
      cleared = restarted;
      ack     = ack_here && out_s != '0;
      if (ack) begin
        unique case (ack_kind_i)
          ccn_pkg::MvcmAckCold: begin
            if (inc != '0) begin
              inc     = '0;
              cleared = 1'b1;
            end else if (32'(dw) < DwMax) begin
              dw = dw + 1'b1;
            end
          end
          ccn_pkg::MvcmAckWarm: begin
            if (dw != DwW'(1)) begin  // DW > 1 (DW is never 0)
              dw = dw - 1'b1;
            end
          end
          ccn_pkg::MvcmAckHot: begin
            if (dw != DwW'(1)) begin
              dw = dw - 1'b1;
            end else if (32'(inc) < WsIncreases) begin
              inc = inc + 1'b1;
            end
          end
          default: ;
        endcase
      end
      dw_d[f*DwW +: DwW]    = dw;
      out_d[f*DwW +: DwW]   = ack ? out_s - 1'b1 : out_s;
      inc_d[f*IncW +: IncW] = inc;
      if (ack && ack_kind_i != ccn_pkg::MvcmAckCold && inc != '0) begin
        wait_d[f*WaitW +: WaitW] = '0;
        for (int unsigned i = 1; i <= WsIncreases; i++) begin
          if (inc == IncW'(i)) begin
            wait_d[f*WaitW +: WaitW] = interval_m1[i*WaitW +: WaitW];
          end
        end
      end else if (cleared) begin
        wait_d[f*WaitW +: WaitW] = '0;
      end else if (wait_q[f*WaitW +: WaitW] != '0) begin
        wait_d[f*WaitW +: WaitW] = wait_q[f*WaitW +: WaitW] - 1'b1;
      end else begin
        wait_d[f*WaitW +: WaitW] = '0;
      end
    end
  end

  assign ack_bad = ack_valid_i && (!ack_kind_ok || 32'(ack_flow_i) >= NumFlows || |ack_empty);
  assign violation_o = start_bad || ack_bad || |restart_bad;
  assign error_d     = error_q || violation_o;

  always_ff @(posedge clk_i or negedge rst_ni) begin : p_state
    if (!rst_ni) begin
      dw_q    <= {NumFlows{DwW'(DwMax)}};
      out_q   <= '0;
      inc_q   <= '0;
      wait_q  <= '0;
      error_q <= 1'b0;
    end else begin
      dw_q    <= dw_d;
      out_q   <= out_d;
      inc_q   <= inc_d;
      wait_q  <= wait_d;
      error_q <= error_d;
    end
  end

  assign eligible_o    = eligible;
  assign dw_o          = dw_q;
  assign outstanding_o = out_q;
  assign incs_o        = inc_q;
  assign wait_o        = wait_q;
  assign error_o       = error_q;

  // ------------------------------------------------------------------------------------------
  // Assertions (simulation only).
`ifndef SYNTHESIS
  initial begin : p_params
    ParamNumFlows_A: assert (NumFlows >= 1) else $fatal(1, "NumFlows must be >= 1");
    ParamDwMax_A: assert (DwMax >= 1 && DwMax <= 255) else $fatal(1, "DwMax out of 1..255");
    ParamWsFactor_A: assert (WsFactor >= 1) else $fatal(1, "WsFactor must be >= 1");
    ParamWsIncreases_A: assert (WsIncreases >= 1) else $fatal(1, "WsIncreases must be >= 1");
    ParamRttMin_A: assert (RttMin >= 1) else $fatal(1, "RttMin must be >= 1");
    ParamNumRestart_A: assert (NumRestart >= 1) else $fatal(1, "NumRestart must be >= 1");
    ParamWaitMax_A: assert (WaitMax <= 64'h100_0000_0000)
      else $fatal(1, "RttMin * WsFactor^(WsIncreases - 1) above 2^40 cycles");
  end

  // DwMax = 2^DwW - 1: every window value is in range.
  localparam bit DwFull = DwMax == (1 << DwW) - 1;

  always_ff @(posedge clk_i or negedge rst_ni) begin : p_assert
    if (rst_ni) begin
      StartEligible_A: assert (!start_bad) else $error("start of flow %0d, which is not eligible", start_flow_i);
      AckOutstanding_A: assert (!ack_bad)
        else $error("ACK (class %0d) for flow %0d with nothing outstanding or no such flow", ack_kind_i, ack_flow_i);
      RestartFlow_A: assert (restart_bad == '0) else $error("restart lane names no flow");
      for (int unsigned f = 0; f < NumFlows; f++) begin
        WindowInRange_A: assert (dw_q[f*DwW +: DwW] != '0 && (DwFull || 32'(dw_q[f*DwW +: DwW]) <= DwMax))
          else $error("flow %0d: window out of 1..DwMax", f);
        OutstandingInWindow_A: assert (out_q[f*DwW +: DwW] <= dw_q[f*DwW +: DwW])
          else $error("flow %0d: more packets outstanding than its window", f);
        SlotsAtWindowOne_A: assert (inc_q[f*IncW +: IncW] == '0 || dw_q[f*DwW +: DwW] == DwW'(1))
          else $error("flow %0d: waiting slots with a window above 1", f);
      end
    end
  end
`endif

endmodule

`default_nettype wire
