// Thin signal-accurate wrapper of OutputArbiter with the ports of rtl/ccn_output_arbiter.sv (same
// names, Verilator --sc types). Template parameters are the RTL parameters that set port widths;
// per-VC depths (RTL parameter VcDepths) are a constructor argument.
//   * gnt_* from OutputArbiter::pick(); credits_o / error_o from its state; violation_o from
//     OutputArbiter::check_commit() of this cycle's grant and credit lanes;
//   * state: OutputArbiter::commit() on clk_i's rising edge; rst_ni: asynchronous, active low.
// `Mutation` deliberately breaks the model (test-only: the mutation smoke tests).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <vector>

#include <systemc>

#include "blocks/output_arbiter.hpp"
#include "blocks/vl_port.hpp"
#include "blocks/hw_consts.hpp"

namespace ccnet::blocks {

enum class OutputArbiterMutation {
  None,
  VctOffByOne,    // a head flit of 2+ flits needs one credit less than its packet length
  IgnoreEnable,   // grants while the link is stalled
  LoseCreditLane, // the highest valid credit lane is dropped
};

template <unsigned NumVc, unsigned NumPrio, unsigned Credits, unsigned MaxGive, bool Vct, unsigned LenW>
class OutputArbiterSc : public sc_core::sc_module {
 public:
  static constexpr unsigned kVcW = hw::index_width(NumVc);
  static constexpr unsigned kPrioW = hw::index_width(NumPrio);
  static constexpr unsigned kCntW = hw::count_width(Credits);
  static_assert(NumVc >= 1 && NumVc <= hw::kMaxVcs, "OutputArbiterSc: NumVc out of range");
  static_assert(NumPrio >= 1 && NumPrio <= hw::kMaxPrioLevels, "OutputArbiterSc: NumPrio out of range");
  static_assert(MaxGive >= 1 && MaxGive <= hw::kMaxCreditLanes, "OutputArbiterSc: MaxGive out of range");
  static_assert(Credits >= 1 && LenW >= 1 && LenW <= 32, "OutputArbiterSc: bad Credits / LenW");

  sc_core::sc_in<bool> clk_i{"clk_i"};
  sc_core::sc_in<bool> rst_ni{"rst_ni"};
  sc_core::sc_in<bool> enable_i{"enable_i"};
  sc_core::sc_in<vl::port_t<NumVc>> req_i{"req_i"};
  sc_core::sc_in<vl::port_t<NumVc>> head_i{"head_i"};
  sc_core::sc_in<vl::port_t<NumVc * kPrioW>> prio_i{"prio_i"};
  sc_core::sc_in<vl::port_t<NumVc * LenW>> len_i{"len_i"};
  sc_core::sc_in<vl::port_t<MaxGive>> give_valid_i{"give_valid_i"};
  sc_core::sc_in<vl::port_t<MaxGive * kVcW>> give_vc_i{"give_vc_i"};
  sc_core::sc_out<vl::port_t<NumVc>> gnt_o{"gnt_o"};
  sc_core::sc_out<bool> gnt_valid_o{"gnt_valid_o"};
  sc_core::sc_out<vl::port_t<kVcW>> gnt_vc_o{"gnt_vc_o"};
  sc_core::sc_out<vl::port_t<NumVc * kCntW>> credits_o{"credits_o"};
  sc_core::sc_out<bool> violation_o{"violation_o"};
  sc_core::sc_out<bool> error_o{"error_o"};

  SC_HAS_PROCESS(OutputArbiterSc);
  // `depths`: per-VC downstream depth (empty: Credits for every VC), the RTL's VcDepths.
  OutputArbiterSc(const sc_core::sc_module_name& name, const std::vector<std::uint32_t>& depths = {},
                  OutputArbiterMutation mutation = OutputArbiterMutation::None)
      : sc_core::sc_module(name),
        core_(OutputArbiterParams{NumVc, NumPrio, Credits, MaxGive, Vct},
              depths.empty() ? std::vector<std::uint32_t>(NumVc, Credits) : depths),
        mutation_(mutation) {
    for (std::uint32_t d : depths)
      if (d < 1 || d > Credits) throw std::invalid_argument("OutputArbiterSc: depth out of 1..Credits");
    SC_METHOD(comb);
    sensitive << enable_i << req_i << head_i << prio_i << len_i << give_valid_i << give_vc_i << state_changed_;
    SC_METHOD(seq);
    sensitive << clk_i.pos() << rst_ni.neg();
    dont_initialize();
  }

  const OutputArbiter& core() const { return core_; }

 private:
  // Decode the inputs; returns the grant.
  int evaluate() {
    const auto req = req_i.read();
    const auto head = head_i.read();
    const auto prio = prio_i.read();
    const auto len = len_i.read();
    num_reqs_ = 0;
    for (unsigned v = 0; v < NumVc; ++v) {
      prio_[v] = NumPrio > 1 ? static_cast<std::uint32_t>(vl::get(prio, v * kPrioW, kPrioW)) : 0u;
      if (!vl::bit(req, v)) continue;
      OutputArbiter::Request r{v, prio_[v], static_cast<std::uint32_t>(vl::get(len, v * LenW, LenW)), vl::bit(head, v)};
      // (A 1-flit head keeps its length: the mutation must not break the request contract.)
      if (mutation_ == OutputArbiterMutation::VctOffByOne && r.len > 1) --r.len;
      reqs_[num_reqs_++] = r;
    }
    const auto valid = give_valid_i.read();
    const auto vc = give_vc_i.read();
    num_gives_ = 0;
    for (unsigned k = 0; k < MaxGive; ++k)
      if (vl::bit(valid, k)) gives_[num_gives_++] = static_cast<std::uint16_t>(vl::get(vc, k * kVcW, kVcW));
    if (mutation_ == OutputArbiterMutation::LoseCreditLane && num_gives_ > 0) --num_gives_;
    const bool enable = mutation_ == OutputArbiterMutation::IgnoreEnable || enable_i.read();
    return core_.pick(reqs_, num_reqs_, enable);
  }

  void comb() {
    const int g = evaluate();
    auto gnt = vl::zero<vl::port_t<NumVc>>();
    auto gnt_vc = vl::zero<vl::port_t<kVcW>>();
    if (g >= 0) {
      vl::set(gnt, static_cast<unsigned>(g), 1, 1);
      vl::set(gnt_vc, 0, kVcW, static_cast<std::uint64_t>(g));
    }
    auto credits = vl::zero<vl::port_t<NumVc * kCntW>>();
    for (unsigned v = 0; v < NumVc; ++v) vl::set(credits, v * kCntW, kCntW, core_.credits(v));
    gnt_o.write(gnt);
    gnt_valid_o.write(g >= 0);
    gnt_vc_o.write(gnt_vc);
    credits_o.write(credits);
    violation_o.write(!core_.check_commit(g, gives_, num_gives_));
    error_o.write(core_.error());
  }

  void seq() {
    if (!rst_ni.read()) {
      core_.reset();
    } else {
      const int g = evaluate();
      core_.commit(g, g >= 0 ? prio_[g] : 0u, gives_, num_gives_);
    }
    state_changed_.notify(sc_core::SC_ZERO_TIME);
  }

  OutputArbiter core_;
  OutputArbiterMutation mutation_;
  sc_core::sc_event state_changed_;
  OutputArbiter::Request reqs_[NumVc] = {};
  std::uint32_t prio_[NumVc] = {};
  std::size_t num_reqs_ = 0;
  std::uint16_t gives_[MaxGive] = {};
  std::uint32_t num_gives_ = 0;
};

}  // namespace ccnet::blocks
