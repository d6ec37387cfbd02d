// Thin signal-accurate wrapper of MvcmFlowCtrl with the ports of rtl/ccn_mvcm_flow_ctrl.sv (same
// names, Verilator --sc types). Template parameters are the RTL parameters.
//   * eligible_o: MvcmFlowCtrl::eligible() at the current cycle; dw_o, outstanding_o, incs_o: the
//     core's window, outstanding count and ws_increases(); wait_o[f] = max(not_before(f) - now, 0),
//     the RTL's per-flow down-counter; violation_o: MvcmFlowCtrl::violation() of this cycle's
//     lanes; error_o: the core's sticky error;
//   * state: MvcmFlowCtrl::commit(now, lanes) on clk_i's rising edge; rst_ni: asynchronous,
//     active low.
// `now` is this wrapper's cycle count (+1 at every rising edge of clk_i, in reset or not). The core
// only compares it with the times it set itself, so any count advancing by one per cycle gives
// the same behaviour; the RTL needs none (its waits are relative).
// `Mutation` deliberately breaks the model (test-only: the mutation smoke tests).
#pragma once

#include <cstdint>

#include <systemc>

#include "blocks/hw_consts.hpp"
#include "blocks/mvcm_flow_ctrl.hpp"
#include "blocks/vl_port.hpp"

namespace ccnet::blocks {

enum class MvcmFlowCtrlMutation {
  None,
  RestartAfterAck,  // restarts apply after the edge's ACK (a flow the ACK empties is restored)
  ColdKeepsSlots,   // a cold ACK with waiting slots in force acts as a warm one (the slots stay)
  IntervalShort,    // the waiting interval is armed one cycle early (the flow may send a cycle early)
  NoSlotCap,        // number_WS may grow once more than WsIncreases allows
};

template <unsigned NumFlows, unsigned DwMax, unsigned WsFactor, unsigned WsIncreases, unsigned RttMin,
          unsigned NumRestart>
class MvcmFlowCtrlSc : public sc_core::sc_module {
 public:
  static constexpr unsigned kIdxW = hw::index_width(NumFlows);
  static constexpr unsigned kDwW = hw::count_width(DwMax);
  static constexpr unsigned kIncW = hw::count_width(WsIncreases);
  static constexpr unsigned kKindW = hw::kMvcmAckWidth;
  // Longest waiting interval, RttMin * WsFactor^(WsIncreases - 1).
  static constexpr std::uint64_t longest_interval() {
    std::uint64_t v = RttMin;
    for (unsigned e = 1; e < WsIncreases; ++e) v *= WsFactor;
    return v;
  }
  static constexpr std::uint64_t kWaitMax = longest_interval();
  static constexpr unsigned kWaitW = [] {
    unsigned w = 0;
    while ((std::uint64_t{1} << w) < kWaitMax) ++w;
    return w == 0 ? 1u : w;
  }();
  static_assert(NumFlows >= 1 && NumRestart >= 1, "MvcmFlowCtrlSc: NumFlows and NumRestart must be >= 1");
  static_assert(DwMax >= 1 && DwMax <= 255, "MvcmFlowCtrlSc: DwMax out of 1..255");
  static_assert(WsFactor >= 1 && RttMin >= 1, "MvcmFlowCtrlSc: WsFactor and RttMin must be >= 1");
  static_assert(WsIncreases >= 1, "MvcmFlowCtrlSc: the RTL needs a waiting-slot cap (WsIncreases >= 1)");
  static_assert(kWaitMax <= (std::uint64_t{1} << 40), "MvcmFlowCtrlSc: longest waiting interval above 2^40 cycles");

  sc_core::sc_in<bool> clk_i{"clk_i"};
  sc_core::sc_in<bool> rst_ni{"rst_ni"};
  sc_core::sc_in<bool> start_valid_i{"start_valid_i"};
  sc_core::sc_in<vl::port_t<kIdxW>> start_flow_i{"start_flow_i"};
  sc_core::sc_in<bool> ack_valid_i{"ack_valid_i"};
  sc_core::sc_in<vl::port_t<kIdxW>> ack_flow_i{"ack_flow_i"};
  sc_core::sc_in<vl::port_t<kKindW>> ack_kind_i{"ack_kind_i"};
  sc_core::sc_in<vl::port_t<NumRestart>> restart_valid_i{"restart_valid_i"};
  sc_core::sc_in<vl::port_t<NumRestart * kIdxW>> restart_flow_i{"restart_flow_i"};
  sc_core::sc_out<vl::port_t<NumFlows>> eligible_o{"eligible_o"};
  sc_core::sc_out<vl::port_t<NumFlows * kDwW>> dw_o{"dw_o"};
  sc_core::sc_out<vl::port_t<NumFlows * kDwW>> outstanding_o{"outstanding_o"};
  sc_core::sc_out<vl::port_t<NumFlows * kIncW>> incs_o{"incs_o"};
  sc_core::sc_out<vl::port_t<NumFlows * kWaitW>> wait_o{"wait_o"};
  sc_core::sc_out<bool> violation_o{"violation_o"};
  sc_core::sc_out<bool> error_o{"error_o"};

  SC_HAS_PROCESS(MvcmFlowCtrlSc);
  explicit MvcmFlowCtrlSc(const sc_core::sc_module_name& name, MvcmFlowCtrlMutation mutation = MvcmFlowCtrlMutation::None)
      : sc_core::sc_module(name),
        core_(MvcmFlowCtrlParams{NumFlows, DwMax, WsFactor,
                                 mutation == MvcmFlowCtrlMutation::NoSlotCap ? WsIncreases + 1 : WsIncreases, RttMin}),
        mutation_(mutation) {
    SC_METHOD(comb);
    sensitive << start_valid_i << start_flow_i << ack_valid_i << ack_flow_i << ack_kind_i << restart_valid_i
              << restart_flow_i << state_changed_;
    SC_METHOD(seq);
    sensitive << clk_i.pos() << rst_ni.neg();
    dont_initialize();
  }

  const MvcmFlowCtrl& core() const { return core_; }

 private:
  // This cycle's lanes as the core's events (restart_ holds the flows of the valid restart lanes).
  MvcmFlowCtrl::Events events() {
    MvcmFlowCtrl::Events e;
    if (start_valid_i.read()) e.sent = static_cast<int>(vl::get(start_flow_i.read(), 0, kIdxW));
    if (ack_valid_i.read()) {
      e.ack.valid = true;
      e.ack.flow = static_cast<std::uint32_t>(vl::get(ack_flow_i.read(), 0, kIdxW));
      e.ack.kind = static_cast<MvcmAck>(vl::get(ack_kind_i.read(), 0, kKindW));
    }
    const auto valid = restart_valid_i.read();
    const auto flows = restart_flow_i.read();
    std::size_t n = 0;
    for (unsigned k = 0; k < NumRestart; ++k)
      if (vl::bit(valid, k)) restart_[n++] = static_cast<std::uint32_t>(vl::get(flows, k * kIdxW, kIdxW));
    e.restarts = restart_;
    e.num_restarts = n;
    return e;
  }

  void comb() {
    auto eligible = vl::zero<vl::port_t<NumFlows>>();
    auto dw = vl::zero<vl::port_t<NumFlows * kDwW>>();
    auto out = vl::zero<vl::port_t<NumFlows * kDwW>>();
    auto incs = vl::zero<vl::port_t<NumFlows * kIncW>>();
    auto wait = vl::zero<vl::port_t<NumFlows * kWaitW>>();
    for (unsigned f = 0; f < NumFlows; ++f) {
      vl::set(eligible, f, 1, core_.eligible(f, now_));
      vl::set(dw, f * kDwW, kDwW, core_.window(f));
      vl::set(out, f * kDwW, kDwW, core_.outstanding(f));
      vl::set(incs, f * kIncW, kIncW, core_.ws_increases(f));
      const Cycle nb = core_.not_before(f);
      vl::set(wait, f * kWaitW, kWaitW, nb > now_ ? nb - now_ : 0);
    }
    eligible_o.write(eligible);
    dw_o.write(dw);
    outstanding_o.write(out);
    incs_o.write(incs);
    wait_o.write(wait);
    violation_o.write(core_.violation(now_, events()));
    error_o.write(core_.error());
  }

  void seq() {
    if (!rst_ni.read()) {
      core_.reset();
    } else {
      MvcmFlowCtrl::Events e = events();
      if (mutation_ == MvcmFlowCtrlMutation::ColdKeepsSlots && e.ack.valid && e.ack.kind == MvcmAck::Cold &&
          e.ack.flow < NumFlows && core_.ws_increases(e.ack.flow) > 0)
        e.ack.kind = MvcmAck::Warm;
      if (mutation_ == MvcmFlowCtrlMutation::RestartAfterAck || mutation_ == MvcmFlowCtrlMutation::IntervalShort) {
        // Split the edge: the restarts and the start, then the ACK (IntervalShort: armed a cycle
        // early), or (RestartAfterAck) the start and the ACK, then the restarts.
        MvcmFlowCtrl::Events first = e, second;
        const bool restarts_last = mutation_ == MvcmFlowCtrlMutation::RestartAfterAck;
        if (restarts_last) {
          first.num_restarts = 0;
          second.restarts = e.restarts;
          second.num_restarts = e.num_restarts;
        } else {
          first.ack = {};
          second.ack = e.ack;
        }
        core_.commit(now_, first);
        core_.commit(restarts_last || now_ == 0 ? now_ : now_ - 1, second);
      } else {
        core_.commit(now_, e);
      }
    }
    if (clk_i.posedge()) ++now_;
    state_changed_.notify(sc_core::SC_ZERO_TIME);
  }

  MvcmFlowCtrl core_;
  MvcmFlowCtrlMutation mutation_;
  sc_core::sc_event state_changed_;
  Cycle now_ = 0;
  std::uint32_t restart_[NumRestart] = {};
};

}  // namespace ccnet::blocks
