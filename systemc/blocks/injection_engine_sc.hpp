// Thin signal-accurate wrapper of InjectionEngine with the ports of rtl/ccn_injection_engine.sv
// (same names, Verilator --sc types). Template parameters are the RTL parameters.
//   * gnt_*: InjectionEngine::pick() at the current cycle with nonempty_i as the queue bits;
//     ccti_o: the core's CCTIs; wait_o[q] = max(next_ok(q) - now, 0), the RTL's per-queue gap
//     down-counter; tick_o: the core's timer expires at this edge (its next commit ticks);
//   * state: InjectionEngine::commit(now, grant, len_i, BECN lanes in lane order) on clk_i's
//     rising edge; rst_ni: asynchronous, active low.
// `now` is this wrapper's cycle count (+1 at every rising edge of clk_i, in reset or not). The core only
// compares it with the next_ok times it set itself, so any count advancing by one per cycle gives
// the same behaviour; the RTL needs none (its gaps are relative).
// `Mutation` deliberately breaks the model (test-only: the mutation smoke tests).
#pragma once

#include <cstdint>

#include <systemc>

#include "blocks/injection_engine.hpp"
#include "blocks/vl_port.hpp"
#include "blocks/hw_consts.hpp"

namespace ccnet::blocks {

enum class InjectionEngineMutation {
  None,
  LenShort,         // the granted packet counts one flit less (the next packet may start a cycle early)
  EligibleEarly,    // a queue may send one cycle before its gap has elapsed
  LoseBecn,         // the last valid BECN lane is lost
  BecnLateOnTick,   // BECNs arriving on a timer tick are applied one cycle late (after the tick)
};

template <unsigned NumQueues, unsigned LenWidth, unsigned IpdUnit, unsigned CctiIncrease, unsigned CctiLimit,
          unsigned TimerPeriod, unsigned NumBecn>
class InjectionEngineSc : public sc_core::sc_module {
 public:
  static constexpr unsigned kIdxW = hw::index_width(NumQueues);
  static constexpr unsigned kCctiW = CctiLimit > 0 ? hw::count_width(CctiLimit) : 1;
  static constexpr std::uint64_t kWaitMax = ((std::uint64_t{1} << LenWidth) - 1) + std::uint64_t{CctiLimit} * IpdUnit;
  static constexpr unsigned kWaitW = kWaitMax > 1 ? hw::index_width(static_cast<unsigned>(kWaitMax)) : 1;
  static_assert(NumQueues >= 1 && NumBecn >= 1, "InjectionEngineSc: NumQueues and NumBecn must be >= 1");
  static_assert(LenWidth >= 1 && LenWidth <= 16, "InjectionEngineSc: LenWidth out of 1..16");
  static_assert(std::uint64_t{CctiLimit} * IpdUnit + std::uint64_t{CctiIncrease} * NumBecn < (1ull << 30),
                "InjectionEngineSc: gap or CCTI increase too large");

  sc_core::sc_in<bool> clk_i{"clk_i"};
  sc_core::sc_in<bool> rst_ni{"rst_ni"};
  sc_core::sc_in<vl::port_t<NumQueues>> nonempty_i{"nonempty_i"};
  sc_core::sc_in<bool> ready_i{"ready_i"};
  sc_core::sc_in<vl::port_t<LenWidth>> len_i{"len_i"};
  sc_core::sc_in<vl::port_t<NumBecn>> becn_valid_i{"becn_valid_i"};
  sc_core::sc_in<vl::port_t<NumBecn * kIdxW>> becn_queue_i{"becn_queue_i"};
  sc_core::sc_out<vl::port_t<NumQueues>> gnt_o{"gnt_o"};
  sc_core::sc_out<bool> gnt_valid_o{"gnt_valid_o"};
  sc_core::sc_out<vl::port_t<kIdxW>> gnt_idx_o{"gnt_idx_o"};
  sc_core::sc_out<vl::port_t<NumQueues * kCctiW>> ccti_o{"ccti_o"};
  sc_core::sc_out<vl::port_t<NumQueues * kWaitW>> wait_o{"wait_o"};
  sc_core::sc_out<bool> tick_o{"tick_o"};

  SC_HAS_PROCESS(InjectionEngineSc);
  explicit InjectionEngineSc(const sc_core::sc_module_name& name,
                             InjectionEngineMutation mutation = InjectionEngineMutation::None)
      : sc_core::sc_module(name),
        core_(InjectionEngineParams{NumQueues, IpdUnit, CctiIncrease, CctiLimit, TimerPeriod}),
        mutation_(mutation) {
    SC_METHOD(comb);
    sensitive << nonempty_i << ready_i << state_changed_;
    SC_METHOD(seq);
    sensitive << clk_i.pos() << rst_ni.neg();
    dont_initialize();
  }

  const InjectionEngine& core() const { return core_; }
  Cycle now() const { return now_; }

 private:
  // Does the core's next commit tick its timer?
  bool ticks() const { return TimerPeriod > 0 && core_.timer() + 1 >= TimerPeriod; }

  int evaluate() {
    const auto bits = nonempty_i.read();
    for (unsigned q = 0; q < NumQueues; ++q) core_.set_nonempty(q, vl::bit(bits, q));
    const Cycle at = mutation_ == InjectionEngineMutation::EligibleEarly ? now_ + 1 : now_;
    return core_.pick(at, ready_i.read());
  }

  void comb() {
    const int g = evaluate();
    auto gnt = vl::zero<vl::port_t<NumQueues>>();
    auto idx = vl::zero<vl::port_t<kIdxW>>();
    if (g >= 0) {
      vl::set(gnt, static_cast<unsigned>(g), 1, 1);
      vl::set(idx, 0, kIdxW, static_cast<std::uint64_t>(g));
    }
    auto ccti = vl::zero<vl::port_t<NumQueues * kCctiW>>();
    auto wait = vl::zero<vl::port_t<NumQueues * kWaitW>>();
    for (unsigned q = 0; q < NumQueues; ++q) {
      vl::set(ccti, q * kCctiW, kCctiW, core_.ccti(q));
      const Cycle ok = core_.next_ok(q);
      vl::set(wait, q * kWaitW, kWaitW, ok > now_ ? ok - now_ : 0);
    }
    gnt_o.write(gnt);
    gnt_valid_o.write(g >= 0);
    gnt_idx_o.write(idx);
    ccti_o.write(ccti);
    wait_o.write(wait);
    tick_o.write(ticks());
  }

  void seq() {
    if (!rst_ni.read()) {
      core_.reset();
      held_ = 0;
    } else {
      const int g = evaluate();
      std::uint32_t len = static_cast<std::uint32_t>(vl::get(len_i.read(), 0, LenWidth));
      if (mutation_ == InjectionEngineMutation::LenShort && len > 0) --len;
      // BECN lanes in lane order, after any held over by the BecnLateOnTick mutation.
      std::uint32_t becn[2 * NumBecn];
      std::size_t n = 0;
      for (std::size_t k = 0; k < held_; ++k) becn[n++] = held_becn_[k];
      held_ = 0;
      const auto valid = becn_valid_i.read();
      const auto queue = becn_queue_i.read();
      std::size_t lanes = 0;
      for (unsigned k = 0; k < NumBecn; ++k)
        if (vl::bit(valid, k)) becn_lane_[lanes++] = static_cast<std::uint32_t>(vl::get(queue, k * kIdxW, kIdxW));
      if (mutation_ == InjectionEngineMutation::LoseBecn && lanes > 0) --lanes;
      if (mutation_ == InjectionEngineMutation::BecnLateOnTick && ticks()) {
        for (std::size_t k = 0; k < lanes; ++k) held_becn_[held_++] = becn_lane_[k];
        lanes = 0;
      }
      for (std::size_t k = 0; k < lanes; ++k) becn[n++] = becn_lane_[k];
      core_.commit(now_, g, len, becn, n);
    }
    if (clk_i.posedge()) ++now_;
    state_changed_.notify(sc_core::SC_ZERO_TIME);
  }

  InjectionEngine core_;
  InjectionEngineMutation mutation_;
  sc_core::sc_event state_changed_;
  Cycle now_ = 0;
  std::uint32_t becn_lane_[NumBecn] = {};
  std::uint32_t held_becn_[NumBecn] = {};
  std::size_t held_ = 0;
};

}  // namespace ccnet::blocks
