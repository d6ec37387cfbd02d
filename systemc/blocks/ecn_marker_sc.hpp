// Thin signal-accurate wrapper of EcnMarker with the ports of rtl/ccn_ecn_marker.sv (same names,
// Verilator --sc types). Template parameters are the RTL parameters.
//   * eligible_o / mark_o: EcnMarker::eligible() / mark() of this cycle's inputs (combinational,
//     like the RTL); skip_o: the core's skip counter;
//   * state: EcnMarker::commit() on clk_i's rising edge; rst_ni: asynchronous, active low.
// `Mutation` deliberately breaks the model (test-only: the mutation smoke tests).
#pragma once

#include <cstdint>

#include <systemc>

#include "blocks/ecn_marker.hpp"
#include "blocks/vl_port.hpp"
#include "blocks/hw_consts.hpp"

namespace ccnet::blocks {

enum class EcnMarkerMutation {
  None,
  ThresholdInclusive,  // marks at occupancy == threshold too (>= instead of >)
  RateOffByOne,        // skips MarkingRate + 1 eligible packets after each mark
  SkipCountsAll,       // every valid packet, eligible or not, advances the skip counter
};

template <unsigned OccWidth, std::uint32_t Threshold, std::uint32_t MarkingRate>
class EcnMarkerSc : public sc_core::sc_module {
 public:
  static constexpr unsigned kSkipW = MarkingRate > 0 ? hw::count_width(MarkingRate) : 1;
  static_assert(OccWidth >= 1 && OccWidth <= 32, "EcnMarkerSc: OccWidth out of 1..32");

  sc_core::sc_in<bool> clk_i{"clk_i"};
  sc_core::sc_in<bool> rst_ni{"rst_ni"};
  sc_core::sc_in<bool> valid_i{"valid_i"};
  sc_core::sc_in<bool> data_i{"data_i"};
  sc_core::sc_in<vl::port_t<OccWidth>> occupancy_i{"occupancy_i"};
  sc_core::sc_out<bool> eligible_o{"eligible_o"};
  sc_core::sc_out<bool> mark_o{"mark_o"};
  sc_core::sc_out<vl::port_t<kSkipW>> skip_o{"skip_o"};

  SC_HAS_PROCESS(EcnMarkerSc);
  explicit EcnMarkerSc(const sc_core::sc_module_name& name, EcnMarkerMutation mutation = EcnMarkerMutation::None)
      : sc_core::sc_module(name), core_(params(mutation)), mutation_(mutation) {
    SC_METHOD(comb);
    sensitive << valid_i << data_i << occupancy_i << state_changed_;
    SC_METHOD(seq);
    sensitive << clk_i.pos() << rst_ni.neg();
    dont_initialize();
  }

  const EcnMarker& core() const { return core_; }

 private:
  static EcnMarkerParams params(EcnMarkerMutation m) {
    EcnMarkerParams p{Threshold, MarkingRate};
    if (m == EcnMarkerMutation::ThresholdInclusive && p.threshold > 0) --p.threshold;
    if (m == EcnMarkerMutation::RateOffByOne) ++p.marking_rate;
    return p;
  }
  std::uint32_t occupancy() const { return static_cast<std::uint32_t>(vl::get(occupancy_i.read(), 0, OccWidth)); }

  void comb() {
    const bool valid = valid_i.read();
    const bool data = data_i.read();
    const std::uint32_t occ = occupancy();
    eligible_o.write(core_.eligible(valid, data, occ));
    mark_o.write(core_.mark(valid, data, occ));
    auto skip = vl::zero<vl::port_t<kSkipW>>();
    vl::set(skip, 0, kSkipW, core_.skip());
    skip_o.write(skip);
  }

  void seq() {
    if (!rst_ni.read()) {
      core_.reset();
    } else {
      const bool valid = valid_i.read();
      bool data = data_i.read();
      std::uint32_t occ = occupancy();
      if (mutation_ == EcnMarkerMutation::SkipCountsAll && valid) {
        data = true;
        occ = core_.params().threshold + 1;  // counted as if eligible
      }
      core_.commit(valid, data, occ);
    }
    state_changed_.notify(sc_core::SC_ZERO_TIME);
  }

  EcnMarker core_;
  EcnMarkerMutation mutation_;
  sc_core::sc_event state_changed_;
};

}  // namespace ccnet::blocks
