// MVCM marker and validator: the switch side of paper 001's MVPM for one router port.
//
// Mirrors ccnet::blocks::MvcmMarker (systemc/blocks/mvcm_marker.hpp) cycle for cycle; the
// co-simulation bench tb/mvcm_marker_cosim.cpp checks every output every cycle.
//
// Behaviour (combinational, no state):
//   * Input lane (in_valid_i: a packet head accepted into the port's input buffer): a data packet
//     (in_data_i) gets the Marking Bit (in_mark_o) when the input buffer, counted with the whole
//     packet (in_occupancy_i), holds more than InThreshold flits and the packet was not marked
//     yet (in_mb_i). in_mb_o = in_mb_i | in_mark_o.
//   * Output lane (out_valid_i: a packet head entering the port's output queue): a data packet
//     (out_data_i) that carries MB (out_mb_i) and not yet VB (out_vb_i) gets the Validation Bit
//     (out_validate_o) when the output queue, with the whole packet, holds more than
//     OutThreshold flits. out_vb_o = out_vb_i | out_validate_o. out_above_o is the output
//     comparator alone (output packet marking of Pfister's implementation).
//   * A header with VB and without MB at the output lane breaks the header contract (VB only
//     follows MB): out_violation_o, and the packet passes unchanged.
//   * Idle lanes pass their bits unchanged and decide nothing; their other inputs are ignored.
// Bits are never cleared. InThreshold and OutThreshold are whole flits (floor of the fraction of
// the buffer's capacity: "more than floor(f x C)" is "more than f x C" for whole flits).
`default_nettype none

module ccn_mvcm_marker #(
  /// Width of the occupancy inputs (1 .. 32).
  parameter int unsigned OccWidth = 7,
  /// MB when the input occupancy > InThreshold (flits); paper: 66% of the input buffer.
  parameter int unsigned InThreshold = 42,
  /// VB when the output occupancy > OutThreshold (flits); paper: 33% of the output queue.
  parameter int unsigned OutThreshold = 21
) (
  /// A packet head is accepted into the input buffer this cycle.
  input  logic                in_valid_i,
  /// It is a data packet (ACKs are never marked).
  input  logic                in_data_i,
  /// Its Marking Bit as it arrives.
  input  logic                in_mb_i,
  /// Input buffer occupancy in flits, with the whole packet.
  input  logic [OccWidth-1:0] in_occupancy_i,
  /// The packet gets MB now.
  output logic                in_mark_o,
  /// Its Marking Bit as it leaves the lane.
  output logic                in_mb_o,
  /// A packet head enters the output queue this cycle.
  input  logic                out_valid_i,
  /// It is a data packet.
  input  logic                out_data_i,
  /// Its Marking Bit.
  input  logic                out_mb_i,
  /// Its Validation Bit as it arrives.
  input  logic                out_vb_i,
  /// Output queue occupancy in flits, with the whole packet.
  input  logic [OccWidth-1:0] out_occupancy_i,
  /// The output queue holds more than OutThreshold flits.
  output logic                out_above_o,
  /// The packet gets VB now.
  output logic                out_validate_o,
  /// Its Validation Bit as it leaves the lane.
  output logic                out_vb_o,
  /// The header carries VB without MB (contract violation; the packet passes unchanged).
  output logic                out_violation_o
);

  logic in_above, out_above;

  // A threshold at or above the largest occupancy value is never exceeded.
  if (64'(InThreshold) >= (64'd1 << OccWidth) - 64'd1) begin : gen_in_never
    assign in_above = 1'b0;
  end else begin : gen_in_compare
    assign in_above = in_occupancy_i > OccWidth'(InThreshold);
  end
  if (64'(OutThreshold) >= (64'd1 << OccWidth) - 64'd1) begin : gen_out_never
    assign out_above = 1'b0;
  end else begin : gen_out_compare
    assign out_above = out_occupancy_i > OccWidth'(OutThreshold);
  end

  assign in_mark_o       = in_valid_i && in_data_i && !in_mb_i && in_above;
  assign in_mb_o         = in_mb_i || in_mark_o;
  assign out_above_o     = out_above;
  assign out_validate_o  = out_valid_i && out_data_i && out_mb_i && !out_vb_i && out_above;
  assign out_vb_o        = out_vb_i || out_validate_o;
  assign out_violation_o = out_valid_i && out_vb_i && !out_mb_i;

  // Occupancies compared with a threshold no value exceeds are not read.
  logic unused_occupancy;
  assign unused_occupancy = ^{in_occupancy_i, out_occupancy_i};

`ifndef SYNTHESIS
  initial begin : p_params
    ParamOccWidth_A: assert (OccWidth >= 1 && OccWidth <= 32) else $fatal(1, "OccWidth out of 1..32");
  end
`endif

endmodule

`default_nettype wire
