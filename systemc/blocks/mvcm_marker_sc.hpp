// Thin signal-accurate wrapper of MvcmMarker with the ports of rtl/ccn_mvcm_marker.sv (same names,
// Verilator --sc types). Template parameters are the RTL parameters. Every output is
// combinational in this cycle's inputs, like the RTL (the block has no clock and no state):
//   * in_mark_o / in_mb_o: MvcmMarker::mark() / mb_out() of the input lane;
//   * out_above_o, out_validate_o / out_vb_o, out_violation_o: MvcmMarker::out_above(),
//     validate() / vb_out() and violation() of the output lane.
// `Mutation` deliberately breaks the model (test-only: the mutation smoke tests).
#pragma once

#include <cstdint>

#include <systemc>

#include "blocks/mvcm_marker.hpp"
#include "blocks/vl_port.hpp"

namespace ccnet::blocks {

enum class MvcmMarkerMutation {
  None,
  ThresholdInclusive,  // marks at an input occupancy equal to InThreshold too (>= instead of >)
  ValidateUnmarked,    // the AND with MB is dropped: packets without MB are validated
  MarkControl,         // the input lane marks every packet kind, not only data packets
};

template <unsigned OccWidth, std::uint32_t InThreshold, std::uint32_t OutThreshold>
class MvcmMarkerSc : public sc_core::sc_module {
 public:
  static_assert(OccWidth >= 1 && OccWidth <= 32, "MvcmMarkerSc: OccWidth out of 1..32");

  sc_core::sc_in<bool> in_valid_i{"in_valid_i"};
  sc_core::sc_in<bool> in_data_i{"in_data_i"};
  sc_core::sc_in<bool> in_mb_i{"in_mb_i"};
  sc_core::sc_in<vl::port_t<OccWidth>> in_occupancy_i{"in_occupancy_i"};
  sc_core::sc_out<bool> in_mark_o{"in_mark_o"};
  sc_core::sc_out<bool> in_mb_o{"in_mb_o"};
  sc_core::sc_in<bool> out_valid_i{"out_valid_i"};
  sc_core::sc_in<bool> out_data_i{"out_data_i"};
  sc_core::sc_in<bool> out_mb_i{"out_mb_i"};
  sc_core::sc_in<bool> out_vb_i{"out_vb_i"};
  sc_core::sc_in<vl::port_t<OccWidth>> out_occupancy_i{"out_occupancy_i"};
  sc_core::sc_out<bool> out_above_o{"out_above_o"};
  sc_core::sc_out<bool> out_validate_o{"out_validate_o"};
  sc_core::sc_out<bool> out_vb_o{"out_vb_o"};
  sc_core::sc_out<bool> out_violation_o{"out_violation_o"};

  SC_HAS_PROCESS(MvcmMarkerSc);
  explicit MvcmMarkerSc(const sc_core::sc_module_name& name, MvcmMarkerMutation mutation = MvcmMarkerMutation::None)
      : sc_core::sc_module(name), core_(params(mutation)), mutation_(mutation) {
    SC_METHOD(comb);
    sensitive << in_valid_i << in_data_i << in_mb_i << in_occupancy_i << out_valid_i << out_data_i << out_mb_i
              << out_vb_i << out_occupancy_i;
  }

  const MvcmMarker& core() const { return core_; }

 private:
  static MvcmMarkerParams params(MvcmMarkerMutation m) {
    MvcmMarkerParams p{InThreshold, OutThreshold};
    if (m == MvcmMarkerMutation::ThresholdInclusive && p.in_threshold > 0) --p.in_threshold;
    return p;
  }
  static std::uint32_t occupancy(const sc_core::sc_in<vl::port_t<OccWidth>>& port) {
    return static_cast<std::uint32_t>(vl::get(port.read(), 0, OccWidth));
  }

  void comb() {
    const bool in_valid = in_valid_i.read();
    const bool in_data = in_data_i.read() || mutation_ == MvcmMarkerMutation::MarkControl;
    const bool in_mb = in_mb_i.read();
    const std::uint32_t in_occ = occupancy(in_occupancy_i);
    in_mark_o.write(core_.mark(in_valid, in_data, in_mb, in_occ));
    in_mb_o.write(core_.mb_out(in_valid, in_data, in_mb, in_occ));
    const bool out_valid = out_valid_i.read();
    const bool out_data = out_data_i.read();
    const bool out_mb = out_mb_i.read() || mutation_ == MvcmMarkerMutation::ValidateUnmarked;
    const bool out_vb = out_vb_i.read();
    const std::uint32_t out_occ = occupancy(out_occupancy_i);
    out_above_o.write(core_.out_above(out_occ));
    out_validate_o.write(core_.validate(out_valid, out_data, out_mb, out_vb, out_occ));
    out_vb_o.write(core_.vb_out(out_valid, out_data, out_mb, out_vb, out_occ));
    out_violation_o.write(core_.violation(out_valid, out_mb_i.read(), out_vb));
  }

  MvcmMarker core_;
  MvcmMarkerMutation mutation_;
};

}  // namespace ccnet::blocks
