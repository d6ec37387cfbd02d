// Co-simulation of ccn_switch_allocator (RTL) against SwitchAllocator
// (systemc/blocks/switch_allocator_sc.hpp).
//
// Stimulus: every requester (input VC / VOQ) holds a request for a packet of 1..4 flits to one
// output until all its flits are granted, with bubbles; outputs follow a traffic pattern that
// changes with the phase (uniform, hotspot on output 0, a fixed permutation); a class priority
// per packet; ack_i withheld by back-pressure (the allocation is then not used and the arbiters
// must not move); chaos phases with independent random requests every cycle; random resets;
// garbage (including out-of-range outputs) in the fields of idle requesters.
#include <cstdint>

#include "blocks/switch_allocator_sc.hpp"
#include "ccn_switch_allocator_sets.hpp"
#include "cosim.hpp"

namespace {

using namespace ccnet::blocks;
namespace vl = ccnet::blocks::vl;

template <class Set>
class SwitchAllocatorBench : public cosim::Harness {
  static constexpr unsigned NI = Set::NumIn;
  static constexpr unsigned NO = Set::NumOut;
  static constexpr unsigned R = Set::ReqsPerIn;
  static constexpr unsigned P = Set::NumPrio;
  static constexpr unsigned SI = Set::SpeedupIn;
  static constexpr unsigned SO = Set::SpeedupOut;
  using Model = SwitchAllocatorSc<NI, NO, R, P, SI, SO>;
  static constexpr unsigned NR = Model::kNumReqs;
  template <unsigned W>
  using Sig = sc_core::sc_signal<vl::port_t<W>>;

 public:
  SwitchAllocatorBench(const sc_core::sc_module_name& name, const cosim::Options& opt)
      : cosim::Harness(name, opt, Set::kName), model_("model", mutation(opt)), rtl_("rtl") {
    model_.clk_i(clk);
    model_.rst_ni(rst_n);
    model_.req_i(req_);
    model_.req_out_i(req_out_);
    model_.req_prio_i(req_prio_);
    model_.ack_i(ack_);
    model_.gnt_o(m_gnt_);
    model_.in_gnt_o(m_in_gnt_);
    model_.in_gnt_req_o(m_in_req_);
    model_.out_gnt_o(m_out_gnt_);
    model_.out_gnt_in_o(m_out_in_);
    model_.out_gnt_lane_o(m_out_lane_);
    rtl_.clk_i(clk);
    rtl_.rst_ni(rst_n);
    rtl_.req_i(req_);
    rtl_.req_out_i(req_out_);
    rtl_.req_prio_i(req_prio_);
    rtl_.ack_i(ack_);
    rtl_.gnt_o(r_gnt_);
    rtl_.in_gnt_o(r_in_gnt_);
    rtl_.in_gnt_req_o(r_in_req_);
    rtl_.out_gnt_o(r_out_gnt_);
    rtl_.out_gnt_in_o(r_out_in_);
    rtl_.out_gnt_lane_o(r_out_lane_);
    input("req_i", req_);
    input("req_out_i", req_out_);
    input("req_prio_i", req_prio_);
    input("ack_i", ack_);
    compare("gnt_o", r_gnt_, m_gnt_);
    compare("in_gnt_o", r_in_gnt_, m_in_gnt_);
    compare("in_gnt_req_o", r_in_req_, m_in_req_);
    compare("out_gnt_o", r_out_gnt_, m_out_gnt_);
    compare("out_gnt_in_o", r_out_in_, m_out_in_);
    compare("out_gnt_lane_o", r_out_lane_, m_out_lane_);
  }

 private:
  static SwitchAllocatorMutation mutation(const cosim::Options& opt) {
    static const std::pair<const char*, SwitchAllocatorMutation> kNames[] = {
        {"none", SwitchAllocatorMutation::None},
        {"commit_reversed", SwitchAllocatorMutation::CommitReversed},
        {"drop_last_grant", SwitchAllocatorMutation::DropLastGrant},
        {"flat_priority", SwitchAllocatorMutation::FlatPriority},
    };
    return cosim::mutation(opt, kNames);
  }

  struct Requester {
    bool active = false;
    std::uint32_t out = 0;
    std::uint32_t prio = 0;
    std::uint32_t left = 0;
  };

  std::uint32_t pick_output(cosim::Rng& rng, unsigned input) {
    switch (pattern_) {
      case 1:  // hotspot
        return rng.chance(0.7) ? 0u : rng.below(NO);
      case 2:  // permutation, with some background
        return rng.chance(0.8) ? (input + shift_) % NO : rng.below(NO);
      default:
        return rng.below(NO);
    }
  }

  void stimulus(cosim::Rng& rng, bool /*in_reset*/) override {
    const std::uint32_t before = phase_.left;
    phase_.step(rng);
    if (phase_.left > before || cycle() == 0) {  // new phase: new pattern
      pattern_ = rng.below(3);
      shift_ = rng.below(NO);
    }
    auto req = vl::zero<vl::port_t<NR>>();
    auto out = vl::zero<vl::port_t<NR * Model::kOutW>>();
    auto prio = vl::zero<vl::port_t<NR * Model::kPrioW>>();
    for (unsigned i = 0; i < NI; ++i)
      for (unsigned r = 0; r < R; ++r) {
        const unsigned q = i * R + r;
        Requester& rq = reqs_[q];
        bool on;
        std::uint64_t o = rng.bits(Model::kOutW), p = rng.bits(Model::kPrioW);  // garbage unless requesting
        if (phase_.chaos) {
          on = rng.chance(phase_.load);
          if (on) {
            o = pick_output(rng, i);
            p = rng.below(P);
          }
        } else {
          if (!rq.active && rng.chance(phase_.load * 0.5)) {
            rq.active = true;
            rq.out = pick_output(rng, i);
            rq.prio = rng.below(P);
            rq.left = 1 + rng.below(4);
          }
          on = rq.active && !rng.chance(0.03);
          if (rq.active) {
            o = rq.out;
            p = rq.prio;
          }
        }
        vl::set(req, q, 1, on);
        vl::set(out, q * Model::kOutW, Model::kOutW, o);
        vl::set(prio, q * Model::kPrioW, Model::kPrioW, p);
      }
    req_.write(req);
    req_out_.write(out);
    req_prio_.write(prio);
    ack_.write(!rng.chance(phase_.stall));
  }

  void sampled() override {
    if (!rst_n.read()) return;
    const auto gnt = m_gnt_.read();
    {
      const auto req = req_.read();
      const auto out_gnt = m_out_gnt_.read();
      const auto in_gnt = m_in_gnt_.read();
      unsigned n = 0, g = 0;
      for (unsigned q = 0; q < NR; ++q) {
        n += vl::bit(req, q);
        g += vl::bit(gnt, q);
      }
      for (unsigned o = 0; o < NO; ++o) {
        unsigned lanes = 0;
        for (unsigned j = 0; j < SO; ++j) lanes += vl::bit(out_gnt, o * SO + j);
        cov_.output_multi += lanes > 1;
      }
      for (unsigned i = 0; i < NI; ++i) {
        unsigned lanes = 0;
        for (unsigned k = 0; k < SI; ++k) lanes += vl::bit(in_gnt, i * SI + k);
        cov_.input_multi += lanes > 1;
      }
      cov_.requests += n;
      cov_.grants += g;
      cov_.unserved += n - g;
      cov_.unacked += !ack_.read() && g > 0;
    }
    if (!ack_.read()) return;
    for (unsigned q = 0; q < NR; ++q) {
      Requester& rq = reqs_[q];
      if (rq.active && vl::bit(gnt, q) && --rq.left == 0) rq.active = false;
    }
  }

  std::string coverage() const override {
    return cosim::counts({{"requests", cov_.requests},
                          {"grants", cov_.grants},
                          {"requests_not_granted", cov_.unserved},
                          {"outputs_granted_twice_or_more", cov_.output_multi},
                          {"inputs_granted_twice_or_more", cov_.input_multi},
                          {"unacked_allocations", cov_.unacked}});
  }

  void trace_rtl(VerilatedFstSc* tfp) override { rtl_.trace(tfp, 99); }

  struct Coverage {
    std::uint64_t requests = 0, grants = 0, unserved = 0, output_multi = 0, input_multi = 0, unacked = 0;
  } cov_;

  cosim::Phase phase_;
  std::uint32_t pattern_ = 0;
  std::uint32_t shift_ = 0;
  Requester reqs_[NR];
  Sig<NR> req_{"req_i"};
  Sig<NR * Model::kOutW> req_out_{"req_out_i"};
  Sig<NR * Model::kPrioW> req_prio_{"req_prio_i"};
  sc_core::sc_signal<bool> ack_{"ack_i"};
  Sig<NR> m_gnt_{"model_gnt_o"}, r_gnt_{"rtl_gnt_o"};
  Sig<NI * SI> m_in_gnt_{"model_in_gnt_o"}, r_in_gnt_{"rtl_in_gnt_o"};
  Sig<NI * SI * Model::kReqW> m_in_req_{"model_in_gnt_req_o"}, r_in_req_{"rtl_in_gnt_req_o"};
  Sig<NO * SO> m_out_gnt_{"model_out_gnt_o"}, r_out_gnt_{"rtl_out_gnt_o"};
  Sig<NO * SO * Model::kInW> m_out_in_{"model_out_gnt_in_o"}, r_out_in_{"rtl_out_gnt_in_o"};
  Sig<NO * SO * Model::kInLaneW> m_out_lane_{"model_out_gnt_lane_o"}, r_out_lane_{"rtl_out_gnt_lane_o"};
  Model model_;
  typename Set::Rtl rtl_;
};

}  // namespace

int sc_main(int argc, char* argv[]) {
  const cosim::Options opt = cosim::parse(argc, argv, "switch_allocator");
  return cosim::dispatch<ccn_sets::switch_allocator_sets, SwitchAllocatorBench>(opt);
}
