// Thin signal-accurate wrapper of CreditArbiter with the ports of rtl/ccn_credit_arbiter.sv (same
// names, Verilator --sc types). Template parameters are the RTL parameters.
//   * gnt_valid_o / gnt_input_o / gnt_path_o / violation_o: combinational: a copy of the core
//     takes this cycle's requests (ports in order) and credit, skipping any that breaks the
//     contract (violation_o), and pick()s;
//   * ptr_o / pending_o / taken_o / error_o: the core's registered state;
//   * clock edge: the same requests and credit, then commit() of the grant if gnt_ready_i;
//     rst_ni (asynchronous, active low): a fresh core with the visiting order and weights on
//     order_i / weight_i (configuration inputs, stable after reset).
// `Mutation` deliberately breaks the model (test-only: the mutation smoke tests).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <systemc>

#include "blocks/credit_arbiter.hpp"
#include "blocks/hw_consts.hpp"
#include "blocks/vl_port.hpp"

namespace ccnet::blocks {

enum class CreditArbiterMutation {
  None,
  NotStrict,       // the model ignores StrictPath (takes any path with a credit)
  Unweighted,      // the model ignores Weighted (plain round robin)
  CreditTooLate,   // an arriving credit is not seen by the same cycle's choice
  OrderIgnored,    // the model visits inputs in index order
};

template <unsigned NumIn, unsigned NumPath, unsigned Credits, unsigned MaxReq, unsigned NumReq, bool StrictPath,
          bool Weighted, unsigned WeightW, unsigned DistOffset>
class CreditArbiterSc : public sc_core::sc_module {
 public:
  static constexpr unsigned kInW = hw::index_width(NumIn);
  static constexpr unsigned kPathW = hw::index_width(NumPath);
  static constexpr unsigned kCntW = hw::count_width(MaxReq);
  static constexpr unsigned kPendW = hw::count_width(NumIn * MaxReq);
  static constexpr unsigned kTakenW = hw::count_width(NumPath * Credits);
  static_assert(NumIn >= 1 && NumPath >= 1 && Credits >= 1 && MaxReq >= 1 && NumReq >= 1, "CreditArbiterSc: sizes >= 1");
  static_assert(WeightW >= 1 && WeightW <= 16, "CreditArbiterSc: WeightW out of 1..16");

  sc_core::sc_in<bool> clk_i{"clk_i"};
  sc_core::sc_in<bool> rst_ni{"rst_ni"};
  sc_core::sc_in<vl::port_t<NumReq>> req_valid_i{"req_valid_i"};
  sc_core::sc_in<vl::port_t<NumReq * kInW>> req_input_i{"req_input_i"};
  sc_core::sc_in<vl::port_t<NumReq * kCntW>> req_count_i{"req_count_i"};
  sc_core::sc_in<bool> cred_valid_i{"cred_valid_i"};
  sc_core::sc_in<vl::port_t<kPathW>> cred_path_i{"cred_path_i"};
  sc_core::sc_in<vl::port_t<NumIn * kInW>> order_i{"order_i"};
  sc_core::sc_in<vl::port_t<NumIn * WeightW>> weight_i{"weight_i"};
  sc_core::sc_in<bool> gnt_ready_i{"gnt_ready_i"};
  sc_core::sc_out<bool> gnt_valid_o{"gnt_valid_o"};
  sc_core::sc_out<vl::port_t<kInW>> gnt_input_o{"gnt_input_o"};
  sc_core::sc_out<vl::port_t<kPathW>> gnt_path_o{"gnt_path_o"};
  sc_core::sc_out<vl::port_t<kInW>> ptr_o{"ptr_o"};
  sc_core::sc_out<vl::port_t<kPendW>> pending_o{"pending_o"};
  sc_core::sc_out<vl::port_t<kTakenW>> taken_o{"taken_o"};
  sc_core::sc_out<bool> violation_o{"violation_o"};
  sc_core::sc_out<bool> error_o{"error_o"};

  SC_HAS_PROCESS(CreditArbiterSc);
  explicit CreditArbiterSc(const sc_core::sc_module_name& name, CreditArbiterMutation mutation = CreditArbiterMutation::None)
      : sc_core::sc_module(name), mutation_(mutation) {
    std::vector<std::uint32_t> order(NumIn);
    for (unsigned i = 0; i < NumIn; ++i) order[i] = i;
    core_ = make_core(order, std::vector<std::uint32_t>(NumIn, 1));
    SC_METHOD(comb);
    sensitive << req_valid_i << req_input_i << req_count_i << cred_valid_i << cred_path_i << gnt_ready_i << state_changed_;
    SC_METHOD(seq);
    sensitive << clk_i.pos() << rst_ni.neg();
    dont_initialize();
  }

  const CreditArbiter& core() const { return *core_; }

 private:
  std::unique_ptr<CreditArbiter> make_core(std::vector<std::uint32_t> order, std::vector<std::uint32_t> weights) const {
    if (mutation_ == CreditArbiterMutation::OrderIgnored)
      for (unsigned i = 0; i < NumIn; ++i) order[i] = i;
    for (auto& w : weights)
      if (w == 0) w = 1;  // ignored unless Weighted (the contract: >= 1)
    std::vector<std::uint32_t> dist0(NumIn);
    for (unsigned i = 0; i < NumIn; ++i) dist0[i] = (i + DistOffset) % NumPath;
    const CreditArbiterParams p{NumIn, NumPath, Credits, MaxReq,
                                mutation_ == CreditArbiterMutation::NotStrict ? false : StrictPath,
                                mutation_ == CreditArbiterMutation::Unweighted ? false : Weighted};
    return std::make_unique<CreditArbiter>(p, std::move(order), std::move(dist0), std::move(weights));
  }

  // This cycle's requests and credit applied to `c` (ports in order; one breaking the contract is
  // skipped). `credits` false: requests only. Returns whether anything broke the contract.
  bool arrivals(CreditArbiter& c, bool requests, bool credits) const {
    bool viol = false;
    if (requests) {
      const auto valid = req_valid_i.read();
      const auto input = req_input_i.read();
      const auto count = req_count_i.read();
      for (unsigned p = 0; p < NumReq; ++p) {
        if (!vl::bit(valid, p)) continue;
        const auto i = static_cast<std::uint32_t>(vl::get(input, p * kInW, kInW));
        const auto n = static_cast<std::uint32_t>(vl::get(count, p * kCntW, kCntW));
        if (c.request_ok(i, n)) c.add_request(i, n);
        else viol = true;
      }
    }
    if (credits && cred_valid_i.read()) {
      const auto b = static_cast<std::uint32_t>(vl::get(cred_path_i.read(), 0, kPathW));
      if (c.credit_ok(b)) c.add_credit(b);
      else viol = true;
    }
    return viol;
  }

  bool credit_late() const { return mutation_ == CreditArbiterMutation::CreditTooLate; }

  void comb() {
    CreditArbiter c = *core_;
    bool viol = arrivals(c, true, !credit_late());
    const CreditArbiter::Grant g = c.pick();
    if (credit_late()) viol = arrivals(c, false, true) || viol;
    auto in = vl::zero<vl::port_t<kInW>>();
    auto path = vl::zero<vl::port_t<kPathW>>();
    if (g.valid()) {
      vl::set(in, 0, kInW, static_cast<std::uint32_t>(g.input));
      vl::set(path, 0, kPathW, g.path);
    }
    gnt_valid_o.write(g.valid());
    gnt_input_o.write(in);
    gnt_path_o.write(path);
    auto ptr = vl::zero<vl::port_t<kInW>>();
    vl::set(ptr, 0, kInW, core_->pointer());
    ptr_o.write(ptr);
    auto pend = vl::zero<vl::port_t<kPendW>>();
    vl::set(pend, 0, kPendW, core_->pending());
    pending_o.write(pend);
    auto taken = vl::zero<vl::port_t<kTakenW>>();
    vl::set(taken, 0, kTakenW, core_->credits_taken());
    taken_o.write(taken);
    violation_o.write(viol);
    error_o.write(error_);
  }

  void seq() {
    if (!rst_ni.read()) {
      std::vector<std::uint32_t> order(NumIn), weights(NumIn);
      const auto o = order_i.read();
      const auto w = weight_i.read();
      for (unsigned i = 0; i < NumIn; ++i) {
        order[i] = static_cast<std::uint32_t>(vl::get(o, i * kInW, kInW));
        weights[i] = static_cast<std::uint32_t>(vl::get(w, i * WeightW, WeightW));
      }
      bool permutation = true;
      std::vector<bool> seen(NumIn, false);
      for (std::uint32_t i : order) {
        if (i >= NumIn || seen[i]) permutation = false;
        else seen[i] = true;
      }
      if (!permutation)  // not yet configured (the first reset cycle): identity
        for (unsigned i = 0; i < NumIn; ++i) order[i] = i;
      core_ = make_core(order, weights);
      error_ = false;
    } else {
      bool viol = arrivals(*core_, true, !credit_late());
      const CreditArbiter::Grant g = core_->pick();
      if (g.valid() && gnt_ready_i.read()) core_->commit(g);
      if (credit_late()) viol = arrivals(*core_, false, true) || viol;
      error_ = error_ || viol;
    }
    state_changed_.notify(sc_core::SC_ZERO_TIME);
  }

  CreditArbiterMutation mutation_;
  std::unique_ptr<CreditArbiter> core_;
  bool error_ = false;
  sc_core::sc_event state_changed_;
};

}  // namespace ccnet::blocks
