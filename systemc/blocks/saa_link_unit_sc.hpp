// Thin signal-accurate wrapper of SaaLinkUnit with the ports of rtl/ccn_saa_link_unit.sv (same
// names, Verilator --sc types). Template parameters are the RTL parameters.
//   * wmax_o, bad_o, violation_o: SaaLinkUnit::eval() of each lane on a copy of the core that the
//     earlier lanes of the cycle were applied to (pure: the core itself is not touched);
//   * weight_o, flows_o, error_o: the core's state (registered);
//   * state: SaaLinkUnit::apply() of every lane in lane order on clk_i's rising edge; rst_ni:
//     asynchronous, active low.
// `Mutation` deliberately breaks the model (test-only: the mutation smoke tests).
#pragma once

#include <algorithm>
#include <cstdint>

#include <systemc>

#include "blocks/saa_link_unit.hpp"
#include "blocks/vl_port.hpp"

namespace ccnet::blocks {

enum class SaaLinkUnitMutation {
  None,
  LanesSeeCycleStart,  // every lane's wmax_o is computed from the state at the cycle's start
  StartMaxBeforeAdd,   // an announce-start's wmax_o takes W_l before its own addition
  TwoOpsFirstWins,     // a lane with several operations does the first (start, end, probe) instead of violating
};

template <unsigned NumLanes, unsigned WeightW, unsigned CountW>
class SaaLinkUnitSc : public sc_core::sc_module {
 public:
  static_assert(NumLanes >= 1 && NumLanes <= 32, "SaaLinkUnitSc: NumLanes out of 1..32");
  static_assert(WeightW >= 1 && WeightW <= 64, "SaaLinkUnitSc: WeightW out of 1..64");
  static_assert(CountW >= 1 && CountW <= 32, "SaaLinkUnitSc: CountW out of 1..32");

  sc_core::sc_in<bool> clk_i{"clk_i"};
  sc_core::sc_in<bool> rst_ni{"rst_ni"};
  sc_core::sc_in<vl::port_t<NumLanes>> start_i{"start_i"};
  sc_core::sc_in<vl::port_t<NumLanes>> end_i{"end_i"};
  sc_core::sc_in<vl::port_t<NumLanes>> probe_i{"probe_i"};
  sc_core::sc_in<vl::port_t<NumLanes * WeightW>> weight_i{"weight_i"};
  sc_core::sc_in<vl::port_t<NumLanes * WeightW>> wmax_i{"wmax_i"};
  sc_core::sc_out<vl::port_t<NumLanes * WeightW>> wmax_o{"wmax_o"};
  sc_core::sc_out<vl::port_t<NumLanes>> bad_o{"bad_o"};
  sc_core::sc_out<vl::port_t<WeightW>> weight_o{"weight_o"};
  sc_core::sc_out<vl::port_t<CountW>> flows_o{"flows_o"};
  sc_core::sc_out<bool> violation_o{"violation_o"};
  sc_core::sc_out<bool> error_o{"error_o"};

  SC_HAS_PROCESS(SaaLinkUnitSc);
  explicit SaaLinkUnitSc(const sc_core::sc_module_name& name, SaaLinkUnitMutation mutation = SaaLinkUnitMutation::None)
      : sc_core::sc_module(name), core_(SaaLinkUnitParams{WeightW, CountW}), mutation_(mutation) {
    SC_METHOD(comb);
    sensitive << start_i << end_i << probe_i << weight_i << wmax_i << state_changed_;
    SC_METHOD(seq);
    sensitive << clk_i.pos() << rst_ni.neg();
    dont_initialize();
  }

  const SaaLinkUnit& core() const { return core_; }

 private:
  SaaLinkLane lane(unsigned k) const {
    SaaLinkLane l;
    l.start = vl::get(start_i.read(), k, 1) != 0;
    l.end = vl::get(end_i.read(), k, 1) != 0;
    l.probe = vl::get(probe_i.read(), k, 1) != 0;
    l.weight = vl::get(weight_i.read(), k * WeightW, WeightW);
    l.wmax = vl::get(wmax_i.read(), k * WeightW, WeightW);
    if (mutation_ == SaaLinkUnitMutation::TwoOpsFirstWins) {
      l.end = l.end && !l.start;
      l.probe = l.probe && !l.start && !l.end;
    }
    return l;
  }

  void comb() {
    SaaLinkUnit unit = core_;  // the earlier lanes' effects
    auto wmax = vl::zero<vl::port_t<NumLanes * WeightW>>();
    auto bad = vl::zero<vl::port_t<NumLanes>>();
    bool any = false;
    for (unsigned k = 0; k < NumLanes; ++k) {
      const SaaLinkLane l = lane(k);
      SaaLinkResult r = (mutation_ == SaaLinkUnitMutation::LanesSeeCycleStart ? core_ : unit).eval(l);
      if (mutation_ == SaaLinkUnitMutation::StartMaxBeforeAdd && l.start && !r.bad())
        r.wmax = std::max(l.wmax, unit.weight());
      unit.apply(l);
      vl::set(wmax, k * WeightW, WeightW, r.wmax);
      vl::set(bad, k, 1, r.bad() ? 1u : 0u);
      any = any || r.bad();
    }
    auto weight = vl::zero<vl::port_t<WeightW>>();
    vl::set(weight, 0, WeightW, core_.weight());
    auto flows = vl::zero<vl::port_t<CountW>>();
    vl::set(flows, 0, CountW, core_.flows());
    wmax_o.write(wmax);
    bad_o.write(bad);
    weight_o.write(weight);
    flows_o.write(flows);
    violation_o.write(any);
    error_o.write(core_.error());
  }

  void seq() {
    if (!rst_ni.read()) {
      core_.reset();
    } else {
      for (unsigned k = 0; k < NumLanes; ++k) core_.apply(lane(k));
    }
    state_changed_.notify(sc_core::SC_ZERO_TIME);
  }

  SaaLinkUnit core_;
  SaaLinkUnitMutation mutation_;
  sc_core::sc_event state_changed_;
};

}  // namespace ccnet::blocks
