// Co-simulation of ccn_output_arbiter (RTL) against OutputArbiter
// (systemc/blocks/output_arbiter_sc.hpp).
//
// Stimulus: per VC, packets of 1..2^LenW-1 flits (under virtual cut-through mostly no longer
// than the VC's depth, sometimes longer: such a head never becomes eligible and is dropped after
// a while) with a class priority, sent flit by flit when granted, with bubbles; the link stalls
// (enable_i low) in back-pressure phases; the downstream router returns, on up to MaxGive lanes,
// only credits it owes (depth - credits), late in back-pressure phases. Chaos phases drive
// random heads, lengths and levels every cycle. With --violate P > 0 each run starts with
// directed violations (credits returned at full on every lane, a lane naming a VC >= NumVc when
// the VC field can express it) and then, with probability P per cycle, returns an unowed credit
// or names a nonexistent VC. violation_o / error_o are compared every cycle and the RTL
// assertions must fire exactly in the cycles the model reports a violation.
#include <cstdint>
#include <vector>

#include "blocks/output_arbiter_sc.hpp"
#include "ccn_output_arbiter_sets.hpp"
#include "cosim.hpp"

namespace {

using namespace ccnet::blocks;
namespace vl = ccnet::blocks::vl;

template <class Set>
class OutputArbiterBench : public cosim::Harness {
  static constexpr unsigned V = Set::NumVc;
  static constexpr unsigned P = Set::NumPrio;
  static constexpr unsigned Lanes = Set::MaxGive;
  static constexpr unsigned LenW = Set::LenW;
  using Model = OutputArbiterSc<V, P, Set::Credits, Lanes, Set::Vct, LenW>;
  static constexpr unsigned kVcW = Model::kVcW;
  static constexpr unsigned kPrioW = Model::kPrioW;
  static constexpr unsigned kCntW = Model::kCntW;
  static constexpr std::uint32_t kMaxLen = (1u << LenW) - 1;
  template <unsigned W>
  using Sig = sc_core::sc_signal<vl::port_t<W>>;

  static std::vector<std::uint32_t> depths() {
    std::vector<std::uint32_t> d;
    for (unsigned v = 0; v < V; ++v) d.push_back(Set::VcDepths[v] != 0 ? Set::VcDepths[v] : Set::Credits);
    return d;
  }

 public:
  OutputArbiterBench(const sc_core::sc_module_name& name, const cosim::Options& opt)
      : cosim::Harness(name, opt, Set::kName), depth_(depths()), model_("model", depth_, mutation(opt)), rtl_("rtl") {
    model_.clk_i(clk);
    model_.rst_ni(rst_n);
    model_.enable_i(enable_);
    model_.req_i(req_);
    model_.head_i(head_);
    model_.prio_i(prio_);
    model_.len_i(len_);
    model_.give_valid_i(give_valid_);
    model_.give_vc_i(give_vc_);
    model_.gnt_o(m_gnt_);
    model_.gnt_valid_o(m_valid_);
    model_.gnt_vc_o(m_vc_);
    model_.credits_o(m_credits_);
    model_.violation_o(m_violation_);
    model_.error_o(m_error_);
    rtl_.clk_i(clk);
    rtl_.rst_ni(rst_n);
    rtl_.enable_i(enable_);
    rtl_.req_i(req_);
    rtl_.head_i(head_);
    rtl_.prio_i(prio_);
    rtl_.len_i(len_);
    rtl_.give_valid_i(give_valid_);
    rtl_.give_vc_i(give_vc_);
    rtl_.gnt_o(r_gnt_);
    rtl_.gnt_valid_o(r_valid_);
    rtl_.gnt_vc_o(r_vc_);
    rtl_.credits_o(r_credits_);
    rtl_.violation_o(r_violation_);
    rtl_.error_o(r_error_);
    input("enable_i", enable_);
    input("req_i", req_);
    input("head_i", head_);
    input("prio_i", prio_);
    input("len_i", len_);
    input("give_valid_i", give_valid_);
    input("give_vc_i", give_vc_);
    compare("gnt_o", r_gnt_, m_gnt_);
    compare("gnt_valid_o", r_valid_, m_valid_);
    compare("gnt_vc_o", r_vc_, m_vc_);
    compare("credits_o", r_credits_, m_credits_);
    compare("violation_o", r_violation_, m_violation_);
    compare("error_o", r_error_, m_error_);
    expect_assertions_when(m_violation_);
  }

 private:
  static OutputArbiterMutation mutation(const cosim::Options& opt) {
    static const std::pair<const char*, OutputArbiterMutation> kNames[] = {
        {"none", OutputArbiterMutation::None},
        {"vct_off_by_one", OutputArbiterMutation::VctOffByOne},
        {"ignore_enable", OutputArbiterMutation::IgnoreEnable},
        {"lose_credit_lane", OutputArbiterMutation::LoseCreditLane},
    };
    return cosim::mutation(opt, kNames);
  }

  struct Queue {
    bool active = false;
    bool head = true;
    std::uint32_t len = 1;
    std::uint32_t left = 0;
    std::uint32_t prio = 0;
    std::uint32_t waited = 0;  // cycles the head has waited
  };

  std::uint32_t new_length(cosim::Rng& rng, unsigned v) {
    const std::uint32_t fit = depth_[v] < kMaxLen ? depth_[v] : kMaxLen;
    if (!Set::Vct) return 1 + rng.below(kMaxLen < 8 ? kMaxLen : 8);
    if (fit < kMaxLen && rng.chance(0.02)) return fit + 1 + rng.below(kMaxLen - fit);  // never fits
    return 1 + rng.below(fit);
  }

  void stimulus(cosim::Rng& rng, bool /*in_reset*/) override {
    phase_.step(rng);
    auto req = vl::zero<vl::port_t<V>>();
    auto head = vl::zero<vl::port_t<V>>();
    auto prio = vl::zero<vl::port_t<V * kPrioW>>();
    auto len = vl::zero<vl::port_t<V * LenW>>();
    for (unsigned v = 0; v < V; ++v) {
      Queue& q = q_[v];
      bool on, is_head;
      std::uint64_t l = rng.bits(LenW), p = rng.bits(kPrioW);  // garbage unless requesting
      if (phase_.chaos) {
        on = rng.chance(phase_.load);
        is_head = rng.chance(0.5);
        if (on) {
          l = 1 + rng.below(kMaxLen);
          p = rng.below(P);
        }
      } else {
        if (!q.active && rng.chance(phase_.load * 0.5)) {
          q.active = true;
          q.head = true;
          q.len = new_length(rng, v);
          q.left = q.len;
          q.prio = rng.below(P);
          q.waited = 0;
        }
        on = q.active && !rng.chance(0.05);
        is_head = q.active ? q.head : rng.chance(0.5);
        if (q.active) {
          l = q.len;
          p = q.prio;
        }
      }
      vl::set(req, v, 1, on);
      vl::set(head, v, 1, is_head);
      vl::set(len, v * LenW, LenW, l);
      vl::set(prio, v * kPrioW, kPrioW, p);
    }

    // Credit lanes: only credits the downstream owes, unless breaking the contract on purpose.
    const auto credits = m_credits_.read();
    std::uint32_t owed[V];
    for (unsigned v = 0; v < V; ++v)
      owed[v] = depth_[v] - static_cast<std::uint32_t>(vl::get(credits, v * kCntW, kCntW));
    auto valid = vl::zero<vl::port_t<Lanes>>();
    auto vc = vl::zero<vl::port_t<Lanes * kVcW>>();
    const std::uint64_t c = cycle();
    const bool directed = directed_violations() && (c == 2 || c == 3);
    for (unsigned k = 0; k < Lanes; ++k) {
      std::uint64_t lane_vc = rng.bits(kVcW);  // garbage unless valid
      bool lane_on = false;
      if (directed) {
        // Cycle 2 (all VCs full after the reset): a credit on every lane to VC 0 overflows.
        // Cycle 3: the first lane names VC 2^VcW - 1, which is no VC if NumVc is not a power of 2.
        lane_on = c == 2 || k == 0;
        lane_vc = c == 2 ? 0 : (std::uint64_t{1} << kVcW) - 1;
      } else if (opt().violate > 0 && rng.chance(opt().violate)) {
        lane_on = true;
        lane_vc = rng.chance(0.5) ? rng.bits(kVcW) : rng.below(V);  // any VC, owed or not
      } else if (!rng.chance(phase_.stall)) {
        const unsigned v = rng.below(V);
        if (owed[v] > 0) {
          --owed[v];
          lane_on = true;
          lane_vc = v;
        }
      }
      vl::set(valid, k, 1, lane_on);
      vl::set(vc, k * kVcW, kVcW, lane_vc);
    }

    enable_.write(!rng.chance(phase_.stall));
    req_.write(req);
    head_.write(head);
    prio_.write(prio);
    len_.write(len);
    give_valid_.write(valid);
    give_vc_.write(vc);
  }

  void sampled() override {
    if (!rst_n.read()) return;
    const int g = m_valid_.read() ? static_cast<int>(vl::get(m_vc_.read(), 0, kVcW)) : -1;
    {
      const auto req = req_.read();
      const auto head = head_.read();
      const auto len = len_.read();
      const auto credits = m_credits_.read();
      const auto valid = give_valid_.read();
      bool any = false;
      for (unsigned v = 0; v < V; ++v) {
        const auto c = vl::get(credits, v * kCntW, kCntW);
        cov_.zero_credit_vc_cycles += c == 0;
        if (!vl::bit(req, v)) continue;
        any = true;
        cov_.vct_head_waits += Set::Vct && vl::bit(head, v) && c > 0 && c < vl::get(len, v * LenW, LenW);
      }
      cov_.request_cycles += any;
      cov_.stalled += any && !enable_.read();
      cov_.grants += g >= 0;
      for (unsigned k = 0; k < Lanes; ++k) cov_.credits_returned += vl::bit(valid, k);
    }
    if (phase_.chaos) return;
    for (unsigned v = 0; v < V; ++v) {
      Queue& q = q_[v];
      if (!q.active) continue;
      if (static_cast<int>(v) == g) {
        q.head = false;
        q.waited = 0;
        if (--q.left == 0) q.active = false;
      } else if (q.head && ++q.waited > 64) {
        q.active = false;  // a packet that never fits is dropped upstream
      }
    }
  }

  std::string coverage() const override {
    return cosim::counts({{"request_cycles", cov_.request_cycles},
                          {"grants", cov_.grants},
                          {"stalled_cycles", cov_.stalled},
                          {"vct_head_waits", cov_.vct_head_waits},
                          {"zero_credit_vc_cycles", cov_.zero_credit_vc_cycles},
                          {"credits_returned", cov_.credits_returned}});
  }

  void trace_rtl(VerilatedFstSc* tfp) override { rtl_.trace(tfp, 99); }

  struct Coverage {
    std::uint64_t request_cycles = 0, grants = 0, stalled = 0, vct_head_waits = 0, zero_credit_vc_cycles = 0,
                  credits_returned = 0;
  } cov_;

  std::vector<std::uint32_t> depth_;
  cosim::Phase phase_;
  Queue q_[V];
  sc_core::sc_signal<bool> enable_{"enable_i"};
  Sig<V> req_{"req_i"};
  Sig<V> head_{"head_i"};
  Sig<V * kPrioW> prio_{"prio_i"};
  Sig<V * LenW> len_{"len_i"};
  Sig<Lanes> give_valid_{"give_valid_i"};
  Sig<Lanes * kVcW> give_vc_{"give_vc_i"};
  Sig<V> m_gnt_{"model_gnt_o"}, r_gnt_{"rtl_gnt_o"};
  sc_core::sc_signal<bool> m_valid_{"model_gnt_valid_o"}, r_valid_{"rtl_gnt_valid_o"};
  Sig<kVcW> m_vc_{"model_gnt_vc_o"}, r_vc_{"rtl_gnt_vc_o"};
  Sig<V * kCntW> m_credits_{"model_credits_o"}, r_credits_{"rtl_credits_o"};
  sc_core::sc_signal<bool> m_violation_{"model_violation_o"}, r_violation_{"rtl_violation_o"};
  sc_core::sc_signal<bool> m_error_{"model_error_o"}, r_error_{"rtl_error_o"};
  Model model_;
  typename Set::Rtl rtl_;
};

}  // namespace

int sc_main(int argc, char* argv[]) {
  const cosim::Options opt = cosim::parse(argc, argv, "output_arbiter");
  return cosim::dispatch<ccn_sets::output_arbiter_sets, OutputArbiterBench>(opt);
}
