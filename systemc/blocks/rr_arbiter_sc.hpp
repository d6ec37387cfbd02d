// Thin signal-accurate wrapper of RrArbiter with the ports of rtl/ccn_rr_arbiter.sv (same names,
// Verilator --sc types). Template parameters are the RTL parameters; the behaviour is the core's.
//   * combinational outputs: an SC_METHOD sensitive to the inputs and to state changes;
//   * state: on clk_i's rising edge, the used grants (ack_i) are committed in pass order;
//   * rst_ni: asynchronous, active low.
// The co-simulation bench tb/rr_arbiter_cosim.cpp binds this and the Verilated RTL to the same
// signals. `Mutation` deliberately breaks the model (test-only: the mutation smoke tests).
#pragma once

#include <cstdint>

#include <systemc>

#include "blocks/rr_arbiter.hpp"
#include "blocks/vl_port.hpp"
#include "blocks/hw_consts.hpp"

namespace ccnet::blocks {

enum class RrArbiterMutation {
  None,
  PointerStays,      // the winner keeps the head of the round-robin order (ptr = winner)
  PriorityInverted,  // the lowest level wins
  LockIgnoresLast,   // a locked transfer never ends
};

template <unsigned NumReq, unsigned NumPrio = 1, bool Lock = false, unsigned NumPass = 1, unsigned NumGroup = 0>
class RrArbiterSc : public sc_core::sc_module {
 public:
  static constexpr unsigned kIdxW = hw::index_width(NumReq);
  static constexpr unsigned kPrioW = hw::index_width(NumPrio);
  static constexpr unsigned kGroupW = NumGroup > 1 ? hw::index_width(NumGroup) : 1;
  static_assert(NumReq >= 1 && NumReq <= 256, "RrArbiterSc: NumReq out of range");
  static_assert(NumPrio >= 1 && NumPrio <= hw::kMaxPrioLevels, "RrArbiterSc: NumPrio out of range");
  static_assert(NumPass >= 1 && (!Lock || NumPass == 1), "RrArbiterSc: Lock needs NumPass == 1");

  sc_core::sc_in<bool> clk_i{"clk_i"};
  sc_core::sc_in<bool> rst_ni{"rst_ni"};
  sc_core::sc_in<vl::port_t<NumReq>> req_i{"req_i"};
  sc_core::sc_in<vl::port_t<NumReq * kPrioW>> prio_i{"prio_i"};
  sc_core::sc_in<vl::port_t<NumReq * kGroupW>> group_i{"group_i"};
  sc_core::sc_in<vl::port_t<NumReq>> last_i{"last_i"};
  sc_core::sc_in<vl::port_t<NumPass>> ack_i{"ack_i"};
  sc_core::sc_out<vl::port_t<NumPass * NumReq>> gnt_o{"gnt_o"};
  sc_core::sc_out<vl::port_t<NumPass>> gnt_valid_o{"gnt_valid_o"};
  sc_core::sc_out<vl::port_t<NumPass * kIdxW>> gnt_idx_o{"gnt_idx_o"};
  sc_core::sc_out<bool> locked_o{"locked_o"};

  SC_HAS_PROCESS(RrArbiterSc);
  explicit RrArbiterSc(const sc_core::sc_module_name& name, RrArbiterMutation mutation = RrArbiterMutation::None)
      : sc_core::sc_module(name), core_(RrArbiterParams{NumReq, NumPrio, Lock}), mutation_(mutation) {
    SC_METHOD(comb);
    sensitive << req_i << prio_i << group_i << state_changed_;
    SC_METHOD(seq);
    sensitive << clk_i.pos() << rst_ni.neg();
    dont_initialize();
  }

  const RrArbiter& core() const { return core_; }

 private:
  // Decode the inputs and run the passes.
  void evaluate(int* winners) {
    const auto req = req_i.read();
    const auto prio = prio_i.read();
    const auto group = group_i.read();
    for (unsigned i = 0; i < NumReq; ++i) {
      req_[i] = vl::bit(req, i) ? 1 : 0;
      prio_[i] = NumPrio > 1 ? static_cast<std::uint32_t>(vl::get(prio, i * kPrioW, kPrioW)) : 0u;
      if (mutation_ == RrArbiterMutation::PriorityInverted && prio_[i] < NumPrio) prio_[i] = NumPrio - 1 - prio_[i];
      group_[i] = static_cast<std::uint32_t>(vl::get(group, i * kGroupW, kGroupW));
    }
    core_.comb_passes(req_, prio_, NumGroup > 0 ? group_ : nullptr, NumPass, winners);
  }

  void comb() {
    int w[NumPass];
    evaluate(w);
    auto gnt = vl::zero<vl::port_t<NumPass * NumReq>>();
    auto valid = vl::zero<vl::port_t<NumPass>>();
    auto idx = vl::zero<vl::port_t<NumPass * kIdxW>>();
    for (unsigned k = 0; k < NumPass; ++k) {
      if (w[k] < 0) continue;
      vl::set(gnt, k * NumReq + static_cast<unsigned>(w[k]), 1, 1);
      vl::set(valid, k, 1, 1);
      vl::set(idx, k * kIdxW, kIdxW, static_cast<std::uint64_t>(w[k]));
    }
    gnt_o.write(gnt);
    gnt_valid_o.write(valid);
    gnt_idx_o.write(idx);
    locked_o.write(core_.locked());
  }

  void seq() {
    if (!rst_ni.read()) {
      core_.reset();
    } else {
      int w[NumPass];
      evaluate(w);
      const auto ack = ack_i.read();
      const auto last = last_i.read();
      for (unsigned k = 0; k < NumPass; ++k) {
        if (w[k] < 0 || !vl::bit(ack, k)) continue;
        const auto g = static_cast<unsigned>(w[k]);
        int committed = w[k];
        if (mutation_ == RrArbiterMutation::PointerStays) committed = g == 0 ? static_cast<int>(NumReq - 1) : w[k] - 1;
        const bool is_last = mutation_ == RrArbiterMutation::LockIgnoresLast ? false : vl::bit(last, g);
        core_.commit(committed, prio_[g], is_last);
      }
    }
    state_changed_.notify(sc_core::SC_ZERO_TIME);
  }

  RrArbiter core_;
  RrArbiterMutation mutation_;
  sc_core::sc_event state_changed_;
  std::uint8_t req_[NumReq] = {};
  std::uint32_t prio_[NumReq] = {};
  std::uint32_t group_[NumReq] = {};
};

}  // namespace ccnet::blocks
