// Thin signal-accurate wrapper of PsPacer with the ports of rtl/ccn_ps_pacer.sv (same names,
// Verilator --sc types). Template parameters are the RTL parameters.
//   * grant_valid_o, grant_o: PsPacer::pick(now_i) (the slot that may send this cycle);
//   * violation_o: PsPacer::check() of the cycle's inputs (pure);
//   * next_o, vtime_o, rate_o, error_o: the core's state (registered);
//   * state: PsPacer::cycle() on clk_i's rising edge; rst_ni: asynchronous, active low.
// `Mutation` deliberately breaks the model (test-only: the mutation smoke tests).
#pragma once

#include <cstdint>

#include <systemc>

#include "blocks/ps_pacer.hpp"
#include "blocks/vl_port.hpp"

namespace ccnet::blocks {

enum class PsPacerMutation {
  None,
  JoinAtZero,     // a fresh flow starts at V = 0 whatever Join says
  TieHigherDst,   // ties in V go to the higher destination
  LenOffByOne,    // V and the period are charged one flit less than the packet (len > 1)
  DivFaster,      // the model's divider takes one quotient bit per cycle more than DivBits
};

template <unsigned NumFlows, unsigned DstW, unsigned TimeW, unsigned LenW, bool Join, unsigned DivBits = 0>
class PsPacerSc : public sc_core::sc_module {
 public:
  static_assert(NumFlows >= 1 && NumFlows <= 32, "PsPacerSc: NumFlows out of 1..32");
  static_assert(DstW >= 1 && DstW <= 32, "PsPacerSc: DstW out of 1..32");
  static_assert(TimeW >= 17 && TimeW <= 64, "PsPacerSc: TimeW out of 17..64");
  static_assert(LenW >= 1 && LenW <= 16, "PsPacerSc: LenW out of 1..16");
  static_assert(DivBits <= LenW + 32, "PsPacerSc: DivBits out of 0..LenW + 32");
  static constexpr unsigned SlotW = NumFlows > 1 ? 32 - __builtin_clz(NumFlows - 1) : 1;
  static constexpr unsigned NowW = TimeW - PsPacer::kFrac;
  static constexpr unsigned RateW = PsPacer::kFrac + 1;

  sc_core::sc_in<bool> clk_i{"clk_i"};
  sc_core::sc_in<bool> rst_ni{"rst_ni"};
  sc_core::sc_in<vl::port_t<NowW>> now_i{"now_i"};
  sc_core::sc_in<bool> open_i{"open_i"};
  sc_core::sc_in<vl::port_t<SlotW>> open_slot_i{"open_slot_i"};
  sc_core::sc_in<vl::port_t<DstW>> open_dst_i{"open_dst_i"};
  sc_core::sc_in<bool> rate_we_i{"rate_we_i"};
  sc_core::sc_in<vl::port_t<SlotW>> rate_slot_i{"rate_slot_i"};
  sc_core::sc_in<vl::port_t<RateW>> rate_i{"rate_i"};
  sc_core::sc_in<vl::port_t<NumFlows>> ready_i{"ready_i"};
  sc_core::sc_in<bool> send_i{"send_i"};
  sc_core::sc_in<vl::port_t<LenW>> len_i{"len_i"};
  sc_core::sc_out<bool> grant_valid_o{"grant_valid_o"};
  sc_core::sc_out<vl::port_t<SlotW>> grant_o{"grant_o"};
  sc_core::sc_out<vl::port_t<TimeW>> next_o{"next_o"};
  sc_core::sc_out<vl::port_t<NumFlows * TimeW>> vtime_o{"vtime_o"};
  sc_core::sc_out<vl::port_t<NumFlows * RateW>> rate_o{"rate_o"};
  sc_core::sc_out<bool> violation_o{"violation_o"};
  sc_core::sc_out<bool> error_o{"error_o"};

  SC_HAS_PROCESS(PsPacerSc);
  explicit PsPacerSc(const sc_core::sc_module_name& name, PsPacerMutation mutation = PsPacerMutation::None)
      : sc_core::sc_module(name),
        core_(PsPacerParams{NumFlows, DstW, TimeW, LenW, mutation == PsPacerMutation::JoinAtZero ? false : Join,
                            mutation == PsPacerMutation::DivFaster && DivBits > 0 && DivBits < LenW + 32 ? DivBits + 1 : DivBits}),
        mutation_(mutation) {
    SC_METHOD(comb);
    sensitive << now_i << open_i << open_slot_i << open_dst_i << rate_we_i << rate_slot_i << rate_i << ready_i << send_i
              << len_i << state_changed_;
    SC_METHOD(seq);
    sensitive << clk_i.pos() << rst_ni.neg();
    dont_initialize();
  }

  const PsPacer& core() const { return core_; }

 private:
  PsPacerInputs inputs() const {
    PsPacerInputs in;
    in.now = vl::get(now_i.read(), 0, NowW);
    in.open = open_i.read();
    in.open_slot = static_cast<std::uint32_t>(vl::get(open_slot_i.read(), 0, SlotW));
    in.open_dst = static_cast<std::uint32_t>(vl::get(open_dst_i.read(), 0, DstW));
    if (mutation_ == PsPacerMutation::TieHigherDst) in.open_dst = ~in.open_dst & static_cast<std::uint32_t>(vl::field_mask(DstW));
    in.rate_we = rate_we_i.read();
    in.rate_slot = static_cast<std::uint32_t>(vl::get(rate_slot_i.read(), 0, SlotW));
    in.rate = static_cast<std::uint32_t>(vl::get(rate_i.read(), 0, RateW));
    in.ready.resize(NumFlows);
    for (unsigned k = 0; k < NumFlows; ++k) in.ready[k] = vl::get(ready_i.read(), k, 1) != 0;
    in.send = send_i.read();
    in.len = static_cast<std::uint32_t>(vl::get(len_i.read(), 0, LenW));
    if (mutation_ == PsPacerMutation::LenOffByOne && in.len > 1) --in.len;
    return in;
  }

  void comb() {
    const PsPacerInputs in = inputs();
    const int g = core_.pick(in.now);
    auto grant = vl::zero<vl::port_t<SlotW>>();
    vl::set(grant, 0, SlotW, g < 0 ? 0u : static_cast<std::uint64_t>(g));
    auto next = vl::zero<vl::port_t<TimeW>>();
    vl::set(next, 0, TimeW, core_.next());
    auto vtime = vl::zero<vl::port_t<NumFlows * TimeW>>();
    auto rate = vl::zero<vl::port_t<NumFlows * RateW>>();
    for (unsigned k = 0; k < NumFlows; ++k) {
      vl::set(vtime, k * TimeW, TimeW, core_.slot(k).vtime);
      vl::set(rate, k * RateW, RateW, core_.slot(k).rate);
    }
    grant_valid_o.write(g >= 0);
    grant_o.write(grant);
    next_o.write(next);
    vtime_o.write(vtime);
    rate_o.write(rate);
    violation_o.write(core_.check(in) != PsPacerViolation::None);
    error_o.write(core_.error());
  }

  void seq() {
    if (!rst_ni.read()) core_.reset();
    else core_.cycle(inputs());
    state_changed_.notify(sc_core::SC_ZERO_TIME);
  }

  PsPacer core_;
  PsPacerMutation mutation_;
  sc_core::sc_event state_changed_;
};

}  // namespace ccnet::blocks
