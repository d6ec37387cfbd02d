// Co-simulation of ccn_mvcm_flow_ctrl (RTL) against MvcmFlowCtrl
// (systemc/blocks/mvcm_flow_ctrl_sc.hpp).
//
// Stimulus: a source NIC. Messages arrive at the phase's offered load, at random flows or at one
// hot flow; a message for a flow with nothing queued raises a restart lane (up to NumRestart per
// cycle, extra ones are dropped as a NIC with fewer lanes would). When the data path is free, the
// NIC starts a packet of an eligible flow with something queued, round robin, as the model's
// eligible_o allows. ACKs return for flows with packets outstanding at a per-phase rate; their
// class follows the phase's congestion (cold only, mixed, or hot for the hot flow), and sometimes
// an ACK names the flow started in the same cycle (the start comes first) or a flow restarted in
// the same cycle. Each run starts with a directed sequence on flow 0: starts and hot ACKs until
// number_WS is at its cap, a hot ACK at the cap, then a cold ACK that removes the slots. Idle
// lanes carry garbage. With --violate P the NIC breaks the contract with probability P per cycle
// (a start on a flow that is not eligible, an ACK with nothing outstanding or of no class, a lane
// naming no flow); the RTL assertions must fire exactly then.
#include <cstdint>
#include <vector>

#include "blocks/mvcm_flow_ctrl_sc.hpp"
#include "ccn_mvcm_flow_ctrl_sets.hpp"
#include "cosim.hpp"

namespace {

using namespace ccnet::blocks;
namespace vl = ccnet::blocks::vl;

template <class Set>
class MvcmFlowCtrlBench : public cosim::Harness {
  static constexpr unsigned N = Set::NumFlows;
  static constexpr unsigned R = Set::NumRestart;
  using Model = MvcmFlowCtrlSc<N, Set::DwMax, Set::WsFactor, Set::WsIncreases, Set::RttMin, R>;
  static constexpr unsigned kIdxW = Model::kIdxW;
  static constexpr unsigned kDwW = Model::kDwW;
  static constexpr unsigned kIncW = Model::kIncW;
  static constexpr unsigned kWaitW = Model::kWaitW;
  static constexpr unsigned kKindW = Model::kKindW;
  // A flow index can name no flow (NumFlows is not a power of two, or 1).
  static constexpr bool kCanNameNoFlow = (1u << kIdxW) > N;
  // Hot ACKs that bring flow 0 from DwMax to the waiting-slot cap, and one more at the cap.
  static constexpr std::uint32_t kDirectedHot = Set::DwMax - 1 + Set::WsIncreases + 1;
  static constexpr std::uint64_t kDirectedCycles = 4000;
  template <unsigned W>
  using Sig = sc_core::sc_signal<vl::port_t<W>>;

 public:
  SC_HAS_PROCESS(MvcmFlowCtrlBench);
  MvcmFlowCtrlBench(const sc_core::sc_module_name& name, const cosim::Options& opt)
      : cosim::Harness(name, opt, Set::kName), model_("model", mutation(opt)), rtl_("rtl"), queued_(N, 0) {
    model_.clk_i(clk);
    model_.rst_ni(rst_n);
    model_.start_valid_i(start_valid_);
    model_.start_flow_i(start_flow_);
    model_.ack_valid_i(ack_valid_);
    model_.ack_flow_i(ack_flow_);
    model_.ack_kind_i(ack_kind_);
    model_.restart_valid_i(restart_valid_);
    model_.restart_flow_i(restart_flow_);
    model_.eligible_o(m_eligible_);
    model_.dw_o(m_dw_);
    model_.outstanding_o(m_out_);
    model_.incs_o(m_incs_);
    model_.wait_o(m_wait_);
    model_.violation_o(m_violation_);
    model_.error_o(m_error_);
    rtl_.clk_i(clk);
    rtl_.rst_ni(rst_n);
    rtl_.start_valid_i(start_valid_);
    rtl_.start_flow_i(start_flow_);
    rtl_.ack_valid_i(ack_valid_);
    rtl_.ack_flow_i(ack_flow_);
    rtl_.ack_kind_i(ack_kind_);
    rtl_.restart_valid_i(restart_valid_);
    rtl_.restart_flow_i(restart_flow_);
    rtl_.eligible_o(r_eligible_);
    rtl_.dw_o(r_dw_);
    rtl_.outstanding_o(r_out_);
    rtl_.incs_o(r_incs_);
    rtl_.wait_o(r_wait_);
    rtl_.violation_o(r_violation_);
    rtl_.error_o(r_error_);
    input("start_valid_i", start_valid_);
    input("start_flow_i", start_flow_);
    input("ack_valid_i", ack_valid_);
    input("ack_flow_i", ack_flow_);
    input("ack_kind_i", ack_kind_);
    input("restart_valid_i", restart_valid_);
    input("restart_flow_i", restart_flow_);
    compare("eligible_o", r_eligible_, m_eligible_);
    compare("dw_o", r_dw_, m_dw_);
    compare("outstanding_o", r_out_, m_out_);
    compare("incs_o", r_incs_, m_incs_);
    compare("wait_o", r_wait_, m_wait_);
    compare("violation_o", r_violation_, m_violation_);
    compare("error_o", r_error_, m_error_);
    expect_assertions_when(m_violation_);
  }

 private:
  static MvcmFlowCtrlMutation mutation(const cosim::Options& opt) {
    static const std::pair<const char*, MvcmFlowCtrlMutation> kNames[] = {
        {"none", MvcmFlowCtrlMutation::None},
        {"restart_after_ack", MvcmFlowCtrlMutation::RestartAfterAck},
        {"cold_keeps_slots", MvcmFlowCtrlMutation::ColdKeepsSlots},
        {"interval_short", MvcmFlowCtrlMutation::IntervalShort},
        {"no_slot_cap", MvcmFlowCtrlMutation::NoSlotCap},
    };
    return cosim::mutation(opt, kNames);
  }

  // The model's registered state (what the NIC sees during the cycle).
  bool eligible(unsigned f) const { return vl::bit(m_eligible_.read(), f); }
  std::uint32_t outstanding(unsigned f) const {
    return static_cast<std::uint32_t>(vl::get(m_out_.read(), f * kDwW, kDwW));
  }
  std::uint32_t incs(unsigned f) const { return static_cast<std::uint32_t>(vl::get(m_incs_.read(), f * kIncW, kIncW)); }
  std::uint32_t window(unsigned f) const { return static_cast<std::uint32_t>(vl::get(m_dw_.read(), f * kDwW, kDwW)); }

  // A new phase's ACK behaviour: rate and class mix.
  void new_ack_phase(cosim::Rng& rng) {
    static const double kRates[] = {0.0, 0.05, 0.2, 0.5, 0.9, 1.0};
    ack_rate_ = kRates[rng.below(6)];
    mix_ = rng.below(4);  // 0 cold only, 1 mixed, 2 hot flow congested, 3 everything hot
    hot_ = rng.below(N);
  }

  MvcmAck draw_class(cosim::Rng& rng, unsigned flow) {
    switch (mix_) {
      case 0: return MvcmAck::Cold;
      case 1: return static_cast<MvcmAck>(rng.below(3));
      case 2:
        if (flow == hot_) return rng.chance(0.8) ? MvcmAck::Hot : MvcmAck::Warm;
        return rng.chance(0.9) ? MvcmAck::Cold : MvcmAck::Warm;
      default: return rng.chance(0.9) ? MvcmAck::Hot : MvcmAck::Cold;
    }
  }

  void stimulus(cosim::Rng& rng, bool in_reset) override {
    const std::uint32_t left = phase_.left;
    phase_.step(rng);
    if (left == 0) new_ack_phase(rng);
    if (in_reset) std::fill(queued_.begin(), queued_.end(), 0);
    // Directed start on flow 0: packets always queued, its ACKs hot until number_WS is at its cap
    // and one more at the cap, then a cold one (sampled() counts them).
    if (cycle() == 0) {
      directed_ = true;
      directed_hot_ = 0;
    }
    if (cycle() == kDirectedCycles) directed_ = false;  // caps whose waits outlast a run
    const bool directed = directed_;
    const bool violate = directed_violations() && !in_reset && rng.chance(opt().violate);
    const unsigned how = rng.below(5);  // which rule a violation breaks

    // Messages arrive; a message for a flow with nothing queued raises a restart lane.
    auto rv = vl::zero<vl::port_t<R>>();
    auto rf = vl::zero<vl::port_t<R * kIdxW>>();
    std::uint64_t restart_flow[R];
    for (unsigned k = 0; k < R; ++k) restart_flow[k] = rng.bits(kIdxW);  // garbage unless valid
    unsigned lanes = 0;
    const unsigned arrivals = phase_.chaos ? rng.below(R + 2) : rng.chance(phase_.load * 0.4) ? 1 + rng.below(R) : 0;
    for (unsigned a = 0; a < arrivals; ++a) {
      const unsigned f = rng.chance(0.5) ? hot_ : rng.below(N);
      if (queued_[f] == 0 && lanes < R) {
        vl::set(rv, lanes, 1, 1);
        restart_flow[lanes++] = f;
      }
      queued_[f] += 1 + rng.below(3);
    }
    if (directed && queued_[0] == 0) queued_[0] = 4;
    if (violate && how == 0 && kCanNameNoFlow) {
      vl::set(rv, 0, 1, 1);
      restart_flow[0] = N + rng.below((1u << kIdxW) - N);
    }
    for (unsigned k = 0; k < R; ++k) vl::set(rf, k * kIdxW, kIdxW, restart_flow[k]);

    // The start: round robin over flows with something queued and eligible, when the data path
    // is free.
    bool start = false;
    std::uint64_t start_flow = rng.bits(kIdxW);
    if (!in_reset && !rng.chance(phase_.stall)) {
      for (unsigned i = 0; i < N; ++i) {
        const unsigned f = (rr_ + i) % N;
        if (queued_[f] > 0 && eligible(f)) {
          start = true;
          start_flow = f;
          rr_ = (f + 1) % N;
          break;
        }
      }
    }
    if (violate && how == 1) {
      // A start on a flow that is not eligible (or on no flow).
      for (unsigned i = 0; i < N; ++i)
        if (!eligible(i)) {
          start = true;
          start_flow = i;
        }
      if (!start && kCanNameNoFlow) {
        start = true;
        start_flow = N;
      }
    }

    // The ACK lane.
    bool ack = false;
    std::uint64_t ack_flow = rng.bits(kIdxW);
    std::uint64_t ack_kind = rng.bits(kKindW);
    const bool start_ok = start && start_flow < N && eligible(static_cast<unsigned>(start_flow));
    auto can_ack = [&](unsigned f) { return outstanding(f) + (start_ok && start_flow == f ? 1u : 0u) > 0; };
    if (directed) {
      if (can_ack(0) && rng.chance(0.5)) {
        ack = true;
        ack_flow = 0;
        ack_kind = static_cast<unsigned>(directed_hot_ < kDirectedHot ? MvcmAck::Hot : MvcmAck::Cold);
      }
    } else if (rng.chance(ack_rate_)) {
      unsigned f = rng.below(N);
      if (start_ok && rng.chance(0.1)) f = static_cast<unsigned>(start_flow);  // the start comes first
      else if (vl::bit(rv, 0) && restart_flow[0] < N && rng.chance(0.1)) f = static_cast<unsigned>(restart_flow[0]);
      for (unsigned i = 0; i < N && !can_ack(f); ++i) f = (f + 1) % N;
      if (can_ack(f)) {
        ack = true;
        ack_flow = f;
        ack_kind = static_cast<unsigned>(draw_class(rng, f));
      }
    }
    if (violate && how == 2) {  // nothing outstanding
      for (unsigned f = 0; f < N; ++f)
        if (!can_ack(f)) {
          ack = true;
          ack_flow = f;
          ack_kind = rng.below(3);
        }
    }
    if (violate && how == 3) {  // no class
      ack = true;
      ack_kind = (1u << kKindW) - 1;
    }
    if (violate && how == 4 && kCanNameNoFlow) {
      ack = true;
      ack_flow = N + rng.below((1u << kIdxW) - N);
    }

    auto sf = vl::zero<vl::port_t<kIdxW>>();
    vl::set(sf, 0, kIdxW, start_flow);
    auto af = vl::zero<vl::port_t<kIdxW>>();
    vl::set(af, 0, kIdxW, ack_flow);
    auto ak = vl::zero<vl::port_t<kKindW>>();
    vl::set(ak, 0, kKindW, ack_kind);
    start_valid_.write(start);
    start_flow_.write(sf);
    ack_valid_.write(ack);
    ack_flow_.write(af);
    ack_kind_.write(ak);
    restart_valid_.write(rv);
    restart_flow_.write(rf);
  }

  void sampled() override {
    if (!rst_n.read()) return;
    const bool start = start_valid_.read();
    const auto sf = static_cast<unsigned>(vl::get(start_flow_.read(), 0, kIdxW));
    const bool ack = ack_valid_.read();
    const auto af = static_cast<unsigned>(vl::get(ack_flow_.read(), 0, kIdxW));
    const auto kind = static_cast<unsigned>(vl::get(ack_kind_.read(), 0, kKindW));
    const auto rv = restart_valid_.read();
    const auto rf = restart_flow_.read();
    if (start && sf < N && eligible(sf)) {
      ++cov_.starts;
      if (queued_[sf] > 0) --queued_[sf];
    }
    for (unsigned f = 0; f < N; ++f) {
      const bool waiting = vl::get(m_wait_.read(), f * kWaitW, kWaitW) > 0;
      cov_.wait_blocked += queued_[f] > 0 && waiting;
      cov_.window_blocked += queued_[f] > 0 && !waiting && outstanding(f) >= window(f);
      cov_.at_cap += incs(f) == Set::WsIncreases;
    }
    if (ack && af < N && kind < 3) {
      if (directed_ && af == 0 && (start && sf == 0 ? 1u : 0u) + outstanding(0) > 0) {
        if (kind == static_cast<unsigned>(MvcmAck::Hot)) ++directed_hot_;
        else directed_ = false;
      }
      ++cov_.acks[kind];
      cov_.hot_at_cap += kind == 2 && incs(af) == Set::WsIncreases;
      cov_.cold_with_slots += kind == 0 && incs(af) > 0;
      cov_.ack_with_start += start && sf == af;
    }
    for (unsigned k = 0; k < R; ++k) {
      if (!vl::bit(rv, k)) continue;
      const auto f = static_cast<unsigned>(vl::get(rf, k * kIdxW, kIdxW));
      ++cov_.restart_lanes;
      cov_.restart_with_ack += ack && af == f;
      cov_.restarts_applied += f < N && outstanding(f) == 0 && (incs(f) > 0 || window(f) < Set::DwMax);
    }
  }

  std::string coverage() const override {
    return cosim::counts({{"starts", cov_.starts},
                          {"acks_cold", cov_.acks[0]},
                          {"acks_warm", cov_.acks[1]},
                          {"acks_hot", cov_.acks[2]},
                          {"hot_at_cap", cov_.hot_at_cap},
                          {"cold_with_slots", cov_.cold_with_slots},
                          {"ack_with_start", cov_.ack_with_start},
                          {"restart_lanes", cov_.restart_lanes},
                          {"restarts_restoring", cov_.restarts_applied},
                          {"restart_with_ack", cov_.restart_with_ack},
                          {"wait_blocked_flow_cycles", cov_.wait_blocked},
                          {"window_blocked_flow_cycles", cov_.window_blocked},
                          {"at_cap_flow_cycles", cov_.at_cap}});
  }

  void trace_rtl(VerilatedFstSc* tfp) override { rtl_.trace(tfp, 99); }

  struct Coverage {
    std::uint64_t starts = 0, acks[3] = {}, hot_at_cap = 0, cold_with_slots = 0, ack_with_start = 0, restart_lanes = 0,
                  restarts_applied = 0, restart_with_ack = 0, wait_blocked = 0, window_blocked = 0, at_cap = 0;
  } cov_;

  sc_core::sc_signal<bool> start_valid_{"start_valid_i"};
  Sig<kIdxW> start_flow_{"start_flow_i"};
  sc_core::sc_signal<bool> ack_valid_{"ack_valid_i"};
  Sig<kIdxW> ack_flow_{"ack_flow_i"};
  Sig<kKindW> ack_kind_{"ack_kind_i"};
  Sig<R> restart_valid_{"restart_valid_i"};
  Sig<R * kIdxW> restart_flow_{"restart_flow_i"};
  Sig<N> m_eligible_{"model_eligible_o"}, r_eligible_{"rtl_eligible_o"};
  Sig<N * kDwW> m_dw_{"model_dw_o"}, r_dw_{"rtl_dw_o"};
  Sig<N * kDwW> m_out_{"model_outstanding_o"}, r_out_{"rtl_outstanding_o"};
  Sig<N * kIncW> m_incs_{"model_incs_o"}, r_incs_{"rtl_incs_o"};
  Sig<N * kWaitW> m_wait_{"model_wait_o"}, r_wait_{"rtl_wait_o"};
  sc_core::sc_signal<bool> m_violation_{"model_violation_o"}, r_violation_{"rtl_violation_o"};
  sc_core::sc_signal<bool> m_error_{"model_error_o"}, r_error_{"rtl_error_o"};
  Model model_;
  typename Set::Rtl rtl_;
  cosim::Phase phase_;
  std::vector<std::uint32_t> queued_;
  unsigned rr_ = 0;
  bool directed_ = true;
  std::uint32_t directed_hot_ = 0;
  double ack_rate_ = 0.0;
  unsigned mix_ = 0;
  unsigned hot_ = 0;
};

}  // namespace

int sc_main(int argc, char* argv[]) {
  const cosim::Options opt = cosim::parse(argc, argv, "mvcm_flow_ctrl");
  return cosim::dispatch<ccn_sets::mvcm_flow_ctrl_sets, MvcmFlowCtrlBench>(opt);
}
