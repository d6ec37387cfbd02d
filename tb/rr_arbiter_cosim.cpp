// Co-simulation of ccn_rr_arbiter (RTL) against RrArbiter (systemc/blocks/rr_arbiter_sc.hpp).
//
// Stimulus: requesters that hold a request for a packet of 1..4 flits until it is served (the
// last flit raises last_i, which ends a lock), with random bubbles, priority levels and groups
// per packet; "chaos" phases with independent random requests, levels and last flags every
// cycle; acks withheld by back-pressure; random resets. Garbage in the fields of idle requesters.
#include <cstdint>

#include "blocks/rr_arbiter_sc.hpp"
#include "ccn_rr_arbiter_sets.hpp"
#include "cosim.hpp"

namespace {

using namespace ccnet::blocks;
namespace vl = ccnet::blocks::vl;

template <class Set>
class RrArbiterBench : public cosim::Harness {
  static constexpr unsigned N = Set::NumReq;
  static constexpr unsigned P = Set::NumPrio;
  static constexpr unsigned S = Set::NumPass;
  static constexpr unsigned G = Set::NumGroup;
  using Model = RrArbiterSc<N, P, Set::Lock, S, G>;
  template <unsigned W>
  using Sig = sc_core::sc_signal<vl::port_t<W>>;

 public:
  RrArbiterBench(const sc_core::sc_module_name& name, const cosim::Options& opt)
      : cosim::Harness(name, opt, Set::kName), model_("model", mutation(opt)), rtl_("rtl") {
    model_.clk_i(clk);
    model_.rst_ni(rst_n);
    model_.req_i(req_);
    model_.prio_i(prio_);
    model_.group_i(group_);
    model_.last_i(last_);
    model_.ack_i(ack_);
    model_.gnt_o(m_gnt_);
    model_.gnt_valid_o(m_valid_);
    model_.gnt_idx_o(m_idx_);
    model_.locked_o(m_locked_);
    rtl_.clk_i(clk);
    rtl_.rst_ni(rst_n);
    rtl_.req_i(req_);
    rtl_.prio_i(prio_);
    rtl_.group_i(group_);
    rtl_.last_i(last_);
    rtl_.ack_i(ack_);
    rtl_.gnt_o(r_gnt_);
    rtl_.gnt_valid_o(r_valid_);
    rtl_.gnt_idx_o(r_idx_);
    rtl_.locked_o(r_locked_);
    input("req_i", req_);
    input("prio_i", prio_);
    input("group_i", group_);
    input("last_i", last_);
    input("ack_i", ack_);
    compare("gnt_o", r_gnt_, m_gnt_);
    compare("gnt_valid_o", r_valid_, m_valid_);
    compare("gnt_idx_o", r_idx_, m_idx_);
    compare("locked_o", r_locked_, m_locked_);
  }

 private:
  static RrArbiterMutation mutation(const cosim::Options& opt) {
    static const std::pair<const char*, RrArbiterMutation> kNames[] = {
        {"none", RrArbiterMutation::None},
        {"pointer_stays", RrArbiterMutation::PointerStays},
        {"priority_inverted", RrArbiterMutation::PriorityInverted},
        {"lock_ignores_last", RrArbiterMutation::LockIgnoresLast},
    };
    return cosim::mutation(opt, kNames);
  }

  struct Requester {
    bool active = false;
    std::uint32_t prio = 0;
    std::uint32_t group = 0;
    std::uint32_t left = 0;  // flits of the packet not yet served
  };

  void stimulus(cosim::Rng& rng, bool /*in_reset*/) override {
    phase_.step(rng);
    auto req = vl::zero<vl::port_t<N>>();
    auto prio = vl::zero<vl::port_t<N * Model::kPrioW>>();
    auto group = vl::zero<vl::port_t<N * Model::kGroupW>>();
    auto last = vl::zero<vl::port_t<N>>();
    auto ack = vl::zero<vl::port_t<S>>();
    for (unsigned i = 0; i < N; ++i) {
      Requester& r = reqs_[i];
      bool on;
      std::uint64_t lv = rng.bits(Model::kPrioW);  // garbage unless requesting
      std::uint64_t gr = rng.bits(Model::kGroupW);
      bool is_last;
      if (phase_.chaos) {
        on = rng.chance(phase_.load);
        is_last = rng.chance(0.5);
        if (on) {
          lv = rng.below(P);
          gr = G > 0 ? rng.below(G) : gr;
        }
      } else {
        if (!r.active && rng.chance(phase_.load * 0.6)) {
          r.active = true;
          r.prio = rng.below(P);
          r.group = G > 0 ? rng.below(G) : 0;
          r.left = 1 + rng.below(4);
        }
        on = r.active && !rng.chance(0.05);  // occasional bubble
        is_last = r.left == 1;
        if (r.active) {
          lv = r.prio;
          if (G > 0) gr = r.group;
        }
      }
      vl::set(req, i, 1, on);
      vl::set(prio, i * Model::kPrioW, Model::kPrioW, lv);
      vl::set(group, i * Model::kGroupW, Model::kGroupW, gr);
      vl::set(last, i, 1, is_last);
    }
    for (unsigned k = 0; k < S; ++k) vl::set(ack, k, 1, !rng.chance(phase_.stall));
    req_.write(req);
    prio_.write(prio);
    group_.write(group);
    last_.write(last);
    ack_.write(ack);
  }

  void sampled() override {
    const auto valid = m_valid_.read();
    const auto idx = m_idx_.read();
    const auto ack = ack_.read();
    if (!rst_n.read()) return;
    const auto req = req_.read();
    const auto prio = prio_.read();
    unsigned n = 0;
    std::uint32_t levels = 0;
    for (unsigned i = 0; i < N; ++i)
      if (vl::bit(req, i)) {
        ++n;
        levels |= 1u << vl::get(prio, i * Model::kPrioW, Model::kPrioW);
      }
    cov_.requested += n > 0;
    cov_.contended += n > 1;
    cov_.multi_level += P > 1 && (levels & (levels - 1)) != 0;
    cov_.locked += m_locked_.read();
    for (unsigned k = 0; k < S; ++k) {
      if (!vl::bit(valid, k)) continue;
      ++cov_.grants;
      cov_.later_pass += k > 0;
      if (!vl::bit(ack, k)) continue;
      ++cov_.acked;
      Requester& r = reqs_[vl::get(idx, k * Model::kIdxW, Model::kIdxW)];
      if (r.active && --r.left == 0) r.active = false;
    }
  }

  std::string coverage() const override {
    return cosim::counts({{"request_cycles", cov_.requested},
                          {"contended_cycles", cov_.contended},
                          {"multi_level_cycles", cov_.multi_level},
                          {"grants", cov_.grants},
                          {"acked_grants", cov_.acked},
                          {"grants_pass_ge_1", cov_.later_pass},
                          {"locked_cycles", cov_.locked}});
  }

  struct Coverage {
    std::uint64_t requested = 0, contended = 0, multi_level = 0, grants = 0, acked = 0, later_pass = 0, locked = 0;
  } cov_;

  void trace_rtl(VerilatedFstSc* tfp) override { rtl_.trace(tfp, 99); }

  cosim::Phase phase_;
  Requester reqs_[N];
  Sig<N> req_{"req_i"};
  Sig<N * Model::kPrioW> prio_{"prio_i"};
  Sig<N * Model::kGroupW> group_{"group_i"};
  Sig<N> last_{"last_i"};
  Sig<S> ack_{"ack_i"};
  Sig<S * N> m_gnt_{"model_gnt_o"}, r_gnt_{"rtl_gnt_o"};
  Sig<S> m_valid_{"model_gnt_valid_o"}, r_valid_{"rtl_gnt_valid_o"};
  Sig<S * Model::kIdxW> m_idx_{"model_gnt_idx_o"}, r_idx_{"rtl_gnt_idx_o"};
  sc_core::sc_signal<bool> m_locked_{"model_locked_o"}, r_locked_{"rtl_locked_o"};
  Model model_;
  typename Set::Rtl rtl_;
};

}  // namespace

int sc_main(int argc, char* argv[]) {
  const cosim::Options opt = cosim::parse(argc, argv, "rr_arbiter");
  return cosim::dispatch<ccn_sets::rr_arbiter_sets, RrArbiterBench>(opt);
}
