// Thin signal-accurate wrapper of SwitchAllocator with the ports of rtl/ccn_switch_allocator.sv
// (same names, Verilator --sc types). Template parameters are the RTL parameters.
//   * outputs: SwitchAllocator::allocate() of the dense requests, as the RTL encodes the grants
//     (per request, per input lane = Grant::in_rank, per output lane = Grant::out_rank);
//   * state: SwitchAllocator::commit() on clk_i's rising edge when ack_i; rst_ni: asynchronous,
//     active low.
// `Mutation` deliberately breaks the model (test-only: the mutation smoke tests).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include <systemc>

#include "blocks/switch_allocator.hpp"
#include "blocks/vl_port.hpp"
#include "blocks/hw_consts.hpp"

namespace ccnet::blocks {

enum class SwitchAllocatorMutation {
  None,
  CommitReversed,  // arbiters committed in reverse grant order (wrong final pointer)
  DropLastGrant,   // the last grant does not advance its arbiters
  FlatPriority,    // priority levels ignored
};

template <unsigned NumIn, unsigned NumOut, unsigned ReqsPerIn, unsigned NumPrio = 1, unsigned SpeedupIn = 1,
          unsigned SpeedupOut = 1>
class SwitchAllocatorSc : public sc_core::sc_module {
 public:
  static constexpr unsigned kNumReqs = NumIn * ReqsPerIn;
  static constexpr unsigned kReqW = hw::index_width(ReqsPerIn);
  static constexpr unsigned kInW = hw::index_width(NumIn);
  static constexpr unsigned kOutW = hw::index_width(NumOut);
  static constexpr unsigned kPrioW = hw::index_width(NumPrio);
  static constexpr unsigned kInLaneW = hw::index_width(SpeedupIn);
  static_assert(NumIn >= 1 && NumIn <= hw::kMaxPorts && NumOut >= 1 && NumOut <= hw::kMaxPorts,
                "SwitchAllocatorSc: ports out of range");
  static_assert(ReqsPerIn >= 1 && ReqsPerIn <= hw::kMaxVcs, "SwitchAllocatorSc: ReqsPerIn out of range");
  static_assert(NumPrio >= 1 && NumPrio <= hw::kMaxPrioLevels, "SwitchAllocatorSc: NumPrio out of range");
  static_assert(SpeedupIn >= 1 && SpeedupOut >= 1, "SwitchAllocatorSc: speedup must be >= 1");

  sc_core::sc_in<bool> clk_i{"clk_i"};
  sc_core::sc_in<bool> rst_ni{"rst_ni"};
  sc_core::sc_in<vl::port_t<kNumReqs>> req_i{"req_i"};
  sc_core::sc_in<vl::port_t<kNumReqs * kOutW>> req_out_i{"req_out_i"};
  sc_core::sc_in<vl::port_t<kNumReqs * kPrioW>> req_prio_i{"req_prio_i"};
  sc_core::sc_in<bool> ack_i{"ack_i"};
  sc_core::sc_out<vl::port_t<kNumReqs>> gnt_o{"gnt_o"};
  sc_core::sc_out<vl::port_t<NumIn * SpeedupIn>> in_gnt_o{"in_gnt_o"};
  sc_core::sc_out<vl::port_t<NumIn * SpeedupIn * kReqW>> in_gnt_req_o{"in_gnt_req_o"};
  sc_core::sc_out<vl::port_t<NumOut * SpeedupOut>> out_gnt_o{"out_gnt_o"};
  sc_core::sc_out<vl::port_t<NumOut * SpeedupOut * kInW>> out_gnt_in_o{"out_gnt_in_o"};
  sc_core::sc_out<vl::port_t<NumOut * SpeedupOut * kInLaneW>> out_gnt_lane_o{"out_gnt_lane_o"};

  SC_HAS_PROCESS(SwitchAllocatorSc);
  explicit SwitchAllocatorSc(const sc_core::sc_module_name& name,
                             SwitchAllocatorMutation mutation = SwitchAllocatorMutation::None)
      : sc_core::sc_module(name),
        core_(SwitchAllocatorParams{NumIn, NumOut, ReqsPerIn, NumPrio, SpeedupIn, SpeedupOut}),
        mutation_(mutation) {
    reqs_.reserve(kNumReqs);
    grants_.reserve(NumOut * SpeedupOut);
    SC_METHOD(comb);
    sensitive << req_i << req_out_i << req_prio_i << state_changed_;
    SC_METHOD(seq);
    sensitive << clk_i.pos() << rst_ni.neg();
    dont_initialize();
  }

  const SwitchAllocator& core() const { return core_; }

 private:
  void evaluate() {
    const auto req = req_i.read();
    const auto out = req_out_i.read();
    const auto prio = req_prio_i.read();
    reqs_.clear();
    for (unsigned i = 0; i < NumIn; ++i)
      for (unsigned r = 0; r < ReqsPerIn; ++r) {
        const unsigned q = i * ReqsPerIn + r;
        if (!vl::bit(req, q)) continue;
        std::uint32_t p = NumPrio > 1 ? static_cast<std::uint32_t>(vl::get(prio, q * kPrioW, kPrioW)) : 0u;
        if (mutation_ == SwitchAllocatorMutation::FlatPriority) p = 0;
        reqs_.push_back(SwitchAllocator::Request{i, r, static_cast<std::uint32_t>(vl::get(out, q * kOutW, kOutW)), p});
      }
    core_.allocate(reqs_.data(), reqs_.size(), grants_);
  }

  void comb() {
    evaluate();
    auto gnt = vl::zero<vl::port_t<kNumReqs>>();
    auto in_gnt = vl::zero<vl::port_t<NumIn * SpeedupIn>>();
    auto in_req = vl::zero<vl::port_t<NumIn * SpeedupIn * kReqW>>();
    auto out_gnt = vl::zero<vl::port_t<NumOut * SpeedupOut>>();
    auto out_in = vl::zero<vl::port_t<NumOut * SpeedupOut * kInW>>();
    auto out_lane = vl::zero<vl::port_t<NumOut * SpeedupOut * kInLaneW>>();
    for (const auto& g : grants_) {
      vl::set(gnt, g.input * ReqsPerIn + g.req, 1, 1);
      const unsigned il = g.input * SpeedupIn + g.in_rank;
      vl::set(in_gnt, il, 1, 1);
      vl::set(in_req, il * kReqW, kReqW, g.req);
      const unsigned ol = g.output * SpeedupOut + g.out_rank;
      vl::set(out_gnt, ol, 1, 1);
      vl::set(out_in, ol * kInW, kInW, g.input);
      vl::set(out_lane, ol * kInLaneW, kInLaneW, g.in_rank);
    }
    gnt_o.write(gnt);
    in_gnt_o.write(in_gnt);
    in_gnt_req_o.write(in_req);
    out_gnt_o.write(out_gnt);
    out_gnt_in_o.write(out_in);
    out_gnt_lane_o.write(out_lane);
  }

  void seq() {
    if (!rst_ni.read()) {
      core_.reset();
    } else if (ack_i.read()) {
      evaluate();
      if (mutation_ == SwitchAllocatorMutation::CommitReversed) std::reverse(grants_.begin(), grants_.end());
      if (mutation_ == SwitchAllocatorMutation::DropLastGrant && !grants_.empty()) grants_.pop_back();
      core_.commit(grants_);
    }
    state_changed_.notify(sc_core::SC_ZERO_TIME);
  }

  SwitchAllocator core_;
  SwitchAllocatorMutation mutation_;
  sc_core::sc_event state_changed_;
  std::vector<SwitchAllocator::Request> reqs_;
  std::vector<SwitchAllocator::Grant> grants_;
};

}  // namespace ccnet::blocks
