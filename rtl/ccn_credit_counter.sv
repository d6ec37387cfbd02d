// Per-VC credit counter.
//
// Mirrors ccnet::blocks::CreditCounter (systemc/blocks/credit_counter.hpp) cycle for cycle; the
// co-simulation bench tb/credit_counter_cosim.cpp checks every output every cycle.
//
// Counts the free buffer slots of one downstream VC, Init after reset. Each cycle give_i credits
// come back (0..MaxGive, one per credit lane) and take_i consumes one for a flit sent.
// Clock edge: count <= count - take + give, where
//   * a credit given in a cycle is usable from the next cycle only, so take_i at count 0 is an
//     underflow even when credits arrive in the same cycle (the take is then not applied);
//   * a result above Init is an overflow (saturates at Init);
//   * give_i > MaxGive is a lane violation (the credits are still added).
// Any violation raises violation_o in its cycle and the sticky error_o from the next edge on,
// and fires an assertion: never a silent wrap.
//
// Handshake contract: inputs are sampled at the rising edge; count_o / empty_o / full_o /
// error_o are registered state; violation_o is combinational in give_i, take_i and the count
// (a sender must not take when empty_o, so violation_o never feeds back into take_i).
`default_nettype none

module ccn_credit_counter #(
  /// Credits after reset: buffer depth of the downstream VC (>= 1).
  parameter int unsigned Init = 4,
  /// Credit lanes: most credits returned per cycle (1 .. ccn_pkg::MaxCreditLanes).
  parameter int unsigned MaxGive = 1,
  /// Width of the count (derived).
  localparam int unsigned CntW = $clog2(Init + 1),
  /// Width of give_i (derived).
  localparam int unsigned GiveW = $clog2(MaxGive + 1)
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  /// Credits returned this cycle.
  input  logic [GiveW-1:0] give_i,
  /// One credit consumed this cycle.
  input  logic             take_i,
  /// Free slots downstream.
  output logic [CntW-1:0]  count_o,
  /// No credit left.
  output logic             empty_o,
  /// All Init credits present.
  output logic             full_o,
  /// This cycle's give_i / take_i break the contract (combinational).
  output logic             violation_o,
  /// A violation happened since reset (sticky).
  output logic             error_o
);

  // Wide enough for count + give without wrapping.
  localparam int unsigned SumW = (CntW > GiveW ? CntW : GiveW) + 1;

  logic [CntW-1:0] count_q, count_d;
  logic            error_q, error_d;
  logic            underflow, overflow, lane_violation;

  always_comb begin : p_next
    logic [SumW-1:0] sum;
    underflow      = take_i && count_q == '0;
    lane_violation = {1'b0, give_i} > (GiveW + 1)'(MaxGive);
    sum            = SumW'(count_q) + SumW'(give_i) - SumW'(take_i && !underflow);
    overflow       = sum > SumW'(Init);
    count_d        = overflow ? CntW'(Init) : sum[CntW-1:0];
    error_d        = error_q || underflow || overflow || lane_violation;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : p_state
    if (!rst_ni) begin
      count_q <= CntW'(Init);
      error_q <= 1'b0;
    end else begin
      count_q <= count_d;
      error_q <= error_d;
    end
  end

  assign count_o     = count_q;
  assign empty_o     = count_q == '0;
  assign full_o      = count_q == CntW'(Init);
  assign violation_o = underflow || overflow || lane_violation;
  assign error_o     = error_q;

  // ------------------------------------------------------------------------------------------
  // Assertions (simulation only). A violation is a model error in C++ and an assertion here.
`ifndef SYNTHESIS
  initial begin : p_params
    ParamInit_A: assert (Init >= 1) else $fatal(1, "Init must be >= 1");
    ParamMaxGive_A: assert (MaxGive >= 1 && MaxGive <= ccn_pkg::MaxCreditLanes)
      else $fatal(1, "MaxGive out of 1..MaxCreditLanes");
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : p_assert
    if (rst_ni) begin
      NoUnderflow_A: assert (!underflow) else $error("credit underflow: take at count 0");
      NoOverflow_A: assert (!overflow)
        else $error("credit overflow: count %0d + give %0d > Init %0d", count_q, give_i, Init);
      GiveInRange_A: assert (!lane_violation) else $error("give %0d > MaxGive %0d", give_i, MaxGive);
    end
  end
`endif

endmodule

`default_nettype wire
