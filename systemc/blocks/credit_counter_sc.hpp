// Thin signal-accurate wrapper of CreditCounter with the ports of rtl/ccn_credit_counter.sv (same
// names, Verilator --sc types). Template parameters are the RTL parameters.
//   * count_o / empty_o / full_o / error_o: the core's state; violation_o: CreditCounter::next()
//     of this cycle's give_i / take_i (combinational, like the RTL);
//   * state: CreditCounter::commit() on clk_i's rising edge; rst_ni: asynchronous, active low.
// `Mutation` deliberately breaks the model (test-only: the mutation smoke tests).
#pragma once

#include <cstdint>

#include <systemc>

#include "blocks/credit_counter.hpp"
#include "blocks/vl_port.hpp"
#include "blocks/hw_consts.hpp"

namespace ccnet::blocks {

enum class CreditCounterMutation {
  None,
  SameCycleCredit,  // a credit arriving while the counter is empty may be taken in the same cycle
  LaneCheckOffByOne,  // MaxGive + 1 credits per cycle pass the lane check
};

template <unsigned Init, unsigned MaxGive = 1>
class CreditCounterSc : public sc_core::sc_module {
 public:
  static constexpr unsigned kCntW = hw::count_width(Init);
  static constexpr unsigned kGiveW = hw::count_width(MaxGive);
  static_assert(Init >= 1, "CreditCounterSc: Init must be >= 1");
  static_assert(MaxGive >= 1 && MaxGive <= hw::kMaxCreditLanes, "CreditCounterSc: MaxGive out of range");

  sc_core::sc_in<bool> clk_i{"clk_i"};
  sc_core::sc_in<bool> rst_ni{"rst_ni"};
  sc_core::sc_in<vl::port_t<kGiveW>> give_i{"give_i"};
  sc_core::sc_in<bool> take_i{"take_i"};
  sc_core::sc_out<vl::port_t<kCntW>> count_o{"count_o"};
  sc_core::sc_out<bool> empty_o{"empty_o"};
  sc_core::sc_out<bool> full_o{"full_o"};
  sc_core::sc_out<bool> violation_o{"violation_o"};
  sc_core::sc_out<bool> error_o{"error_o"};

  SC_HAS_PROCESS(CreditCounterSc);
  explicit CreditCounterSc(const sc_core::sc_module_name& name,
                           CreditCounterMutation mutation = CreditCounterMutation::None)
      : sc_core::sc_module(name),
        core_(CreditCounterParams{Init, mutation == CreditCounterMutation::LaneCheckOffByOne ? MaxGive + 1 : MaxGive}),
        mutation_(mutation) {
    SC_METHOD(comb);
    sensitive << give_i << take_i << state_changed_;
    SC_METHOD(seq);
    sensitive << clk_i.pos() << rst_ni.neg();
    dont_initialize();
  }

  const CreditCounter& core() const { return core_; }

 private:
  struct Inputs {
    std::uint32_t give;
    bool take;
  };
  Inputs inputs() const {
    Inputs in{static_cast<std::uint32_t>(vl::get(give_i.read(), 0, kGiveW)), take_i.read()};
    if (mutation_ == CreditCounterMutation::SameCycleCredit && in.take && in.give > 0 && core_.count() == 0) {
      in.take = false;  // use the arriving credit at once
      --in.give;
    }
    return in;
  }

  void comb() {
    const Inputs in = inputs();
    auto count = vl::zero<vl::port_t<kCntW>>();
    vl::set(count, 0, kCntW, core_.count());
    count_o.write(count);
    empty_o.write(core_.empty());
    full_o.write(core_.full());
    violation_o.write(!core_.next(in.give, in.take).ok);
    error_o.write(core_.error());
  }

  void seq() {
    if (!rst_ni.read()) {
      core_.reset();
    } else {
      const Inputs in = inputs();
      core_.commit(in.give, in.take);
    }
    state_changed_.notify(sc_core::SC_ZERO_TIME);
  }

  CreditCounter core_;
  CreditCounterMutation mutation_;
  sc_core::sc_event state_changed_;
};

}  // namespace ccnet::blocks
