// Co-simulation of ccn_lhrp_scheduler (RTL) against LhrpScheduler
// (systemc/blocks/lhrp_scheduler_sc.hpp).
//
// Stimulus: the last-hop switch of LHRP. Packet heads arrive on every lane at the phase's offered
// load, mostly for one hot endpoint (incast) or at random: non-speculative data, speculative data
// and reservations in a per-phase mix, lengths 1 .. 2^LenWidth - 1 (rarely 0 or the largest).
// Accepted packets queue for their endpoint (bench FIFO per endpoint) and leave on its ejection
// port one flit per cycle; the tail's departure (dep_valid_i, dep_len_i) comes len cycles after
// the head started, and back-pressure phases stall the ejection so Q builds past the threshold.
// nack_slots_i is per phase: all lanes, none, one, or random, so NACK slots run out mid-cycle.
// now_i starts each run close to its wrap-around (2^TimeWidth) and advances by one per cycle.
// Chaos phases draw lanes at random every cycle and depart any 0 .. Q[e] flits (often exactly
// Q[e]). Sizing contract: a lane never makes Q[e] or the backlog overflow their widths; lengths
// are cut to the room left (so counters reach their largest values), else the lane is idle.
// With --violate P > 0 each run starts with directed violations (a departure at Q = 0, a lane of
// kind code 3, a lane naming no endpoint when the index can) and then breaks the contract with
// probability P per cycle; the RTL assertions must fire exactly when the model reports one.
#include <algorithm>
#include <cstdint>
#include <deque>
#include <vector>

#include "blocks/lhrp_scheduler_sc.hpp"
#include "ccn_lhrp_scheduler_sets.hpp"
#include "cosim.hpp"

namespace {

using namespace ccnet::blocks;
namespace vl = ccnet::blocks::vl;

template <class Set>
class LhrpSchedulerBench : public cosim::Harness {
  static constexpr unsigned E = Set::NumEndpoints;
  static constexpr unsigned L = Set::NumLanes;
  static constexpr unsigned LenW = Set::LenWidth;
  static constexpr unsigned QW = Set::QueueWidth;
  static constexpr unsigned TW = Set::TimeWidth;
  static constexpr unsigned BW = Set::BacklogWidth;
  using Model = LhrpSchedulerSc<E, L, LenW, QW, TW, BW, Set::Threshold>;
  static constexpr unsigned kEpW = Model::kEpW;
  static constexpr unsigned kSlotW = Model::kSlotW;
  static constexpr unsigned kKindW = Model::kKindW;
  static constexpr std::uint64_t kMaxLen = (std::uint64_t{1} << LenW) - 1;
  static constexpr std::uint64_t kMaxQ = (std::uint64_t{1} << QW) - 1;
  static constexpr std::uint64_t kMaxB = (std::uint64_t{1} << BW) - 1;
  static constexpr std::uint64_t kTimeMask = ~std::uint64_t{0} >> (64 - TW);
  static constexpr std::uint64_t kThreshold = Set::Threshold;
  static constexpr unsigned kData = static_cast<unsigned>(ccnet::hw::LhrpKindCode::Data);
  static constexpr unsigned kSpec = static_cast<unsigned>(ccnet::hw::LhrpKindCode::Speculative);
  static constexpr unsigned kRes = static_cast<unsigned>(ccnet::hw::LhrpKindCode::Reservation);
  static constexpr unsigned kNoKind = 3;
  static constexpr bool kEpNone = E < (1u << kEpW);  // an endpoint index can name no endpoint
  static_assert(ccnet::hw::kNumLhrpKindCodes == 3 && kKindW == 2, "bench assumes three kinds in 2 bits");
  template <unsigned W>
  using Sig = sc_core::sc_signal<vl::port_t<W>>;

 public:
  LhrpSchedulerBench(const sc_core::sc_module_name& name, const cosim::Options& opt)
      : cosim::Harness(name, opt, Set::kName), model_("model", mutation(opt)), rtl_("rtl"), fifo_(E), eject_left_(E, 0) {
    model_.clk_i(clk);
    model_.rst_ni(rst_n);
    model_.now_i(now_);
    model_.arr_valid_i(arr_valid_);
    model_.arr_endpoint_i(arr_ep_);
    model_.arr_len_i(arr_len_);
    model_.arr_kind_i(arr_kind_);
    model_.nack_slots_i(slots_);
    model_.dep_valid_i(dep_valid_);
    model_.dep_len_i(dep_len_);
    model_.drop_o(m_drop_);
    model_.grant_o(m_grant_);
    model_.time_o(m_time_);
    model_.queued_o(m_queued_);
    model_.backlog_o(m_backlog_);
    model_.violation_o(m_violation_);
    model_.error_o(m_error_);
    rtl_.clk_i(clk);
    rtl_.rst_ni(rst_n);
    rtl_.now_i(now_);
    rtl_.arr_valid_i(arr_valid_);
    rtl_.arr_endpoint_i(arr_ep_);
    rtl_.arr_len_i(arr_len_);
    rtl_.arr_kind_i(arr_kind_);
    rtl_.nack_slots_i(slots_);
    rtl_.dep_valid_i(dep_valid_);
    rtl_.dep_len_i(dep_len_);
    rtl_.drop_o(r_drop_);
    rtl_.grant_o(r_grant_);
    rtl_.time_o(r_time_);
    rtl_.queued_o(r_queued_);
    rtl_.backlog_o(r_backlog_);
    rtl_.violation_o(r_violation_);
    rtl_.error_o(r_error_);
    input("now_i", now_);
    input("arr_valid_i", arr_valid_);
    input("arr_endpoint_i", arr_ep_);
    input("arr_len_i", arr_len_);
    input("arr_kind_i", arr_kind_);
    input("nack_slots_i", slots_);
    input("dep_valid_i", dep_valid_);
    input("dep_len_i", dep_len_);
    compare("drop_o", r_drop_, m_drop_);
    compare("grant_o", r_grant_, m_grant_);
    compare("time_o", r_time_, m_time_);
    compare("queued_o", r_queued_, m_queued_);
    compare("backlog_o", r_backlog_, m_backlog_);
    compare("violation_o", r_violation_, m_violation_);
    compare("error_o", r_error_, m_error_);
    expect_assertions_when(m_violation_);
  }

 private:
  static LhrpSchedulerMutation mutation(const cosim::Options& opt) {
    static const std::pair<const char*, LhrpSchedulerMutation> kNames[] = {
        {"none", LhrpSchedulerMutation::None},
        {"threshold_off_by_one", LhrpSchedulerMutation::ThresholdOffByOne},
        {"slots_not_consumed", LhrpSchedulerMutation::SlotsNotConsumed},
        {"lanes_see_cycle_start", LhrpSchedulerMutation::LanesSeeCycleStart},
        {"depart_before_lanes", LhrpSchedulerMutation::DepartBeforeLanes},
    };
    return cosim::mutation(opt, kNames);
  }

  std::uint64_t queued(unsigned e) const { return vl::get(m_queued_.read(), e * QW, QW); }
  std::uint64_t backlog(unsigned e) const { return vl::get(m_backlog_.read(), e * BW, BW); }

  // A new phase's traffic mix.
  void new_phase(cosim::Rng& rng) {
    static const unsigned kMixes[][3] = {{1, 1, 1}, {4, 4, 1}, {1, 6, 0}, {0, 1, 0}, {1, 0, 0}, {0, 0, 1}, {2, 5, 2}};
    const auto& m = kMixes[rng.below(7)];
    mix_[0] = m[0];
    mix_[1] = m[1];
    mix_[2] = m[2];
    hot_ = rng.below(E);
    incast_ = rng.chance(0.7);
    const unsigned s = rng.below(6);
    slot_mode_ = s;  // 0, 1: all lanes; 2: none; 3: one; 4: random; 5: two
  }

  std::uint64_t new_length(cosim::Rng& rng) {
    if (rng.chance(0.01)) return 0;
    if (rng.chance(0.1)) return kMaxLen;
    if (rng.chance(0.5)) return 1 + rng.below(static_cast<std::uint32_t>(kMaxLen < 8 ? kMaxLen : 8));
    return 1 + rng.below(static_cast<std::uint32_t>(kMaxLen));
  }

  // Take `len` flits off the front of endpoint e's FIFO (departures; the FIFO sums to Q[e]).
  void consume(unsigned e, std::uint64_t len) {
    auto& f = fifo_[e];
    while (len > 0 && !f.empty()) {
      if (f.front() <= len) {
        len -= f.front();
        f.pop_front();
      } else {
        f.front() -= len;
        len = 0;
      }
    }
  }

  void stimulus(cosim::Rng& rng, bool in_reset) override {
    const std::uint32_t left = phase_.left;
    phase_.step(rng);
    if (left == 0) new_phase(rng);
    const std::uint64_t c = cycle();
    if (c == 0) {
      // A new run: now_i close to its wrap-around (when TimeWidth allows one within the run).
      if (TW >= 62) full_now_ = rng.bits(40);
      else full_now_ = (kTimeMask - rng.below(static_cast<std::uint32_t>(2 * opt().cycles < kTimeMask ? 2 * opt().cycles : kTimeMask)));
    } else {
      ++full_now_;
    }
    if (in_reset) {
      for (auto& f : fifo_) f.clear();
      for (auto& x : eject_left_) x = 0;
    }

    std::uint64_t slots;
    switch (slot_mode_) {
      case 2: slots = 0; break;
      case 3: slots = 1; break;
      case 4: slots = rng.bits(kSlotW); break;
      case 5: slots = 2 <= L ? 2 : L; break;
      default: slots = L; break;
    }

    // Directed violations at the start of a run (cycles 2..4), then random ones.
    const bool violate_runs = directed_violations();
    const bool directed = violate_runs && c >= 2 && c <= 4;
    bool break_now = violate_runs && !directed && rng.chance(opt().violate);

    // Each endpoint's counts as the lanes leave them, lane by lane (the block's own decision
    // rule): a lane is cut to the room its outcome needs, so the counters reach their largest
    // values but never overflow (departures only come after the lanes).
    std::uint64_t qview[E], bview[E];
    for (unsigned e = 0; e < E; ++e) {
      qview[e] = queued(e);
      bview[e] = backlog(e);
    }
    std::uint64_t drops = 0;

    auto valid = vl::zero<vl::port_t<L>>();
    auto ep = vl::zero<vl::port_t<L * kEpW>>();
    auto len = vl::zero<vl::port_t<L * LenW>>();
    auto kind = vl::zero<vl::port_t<L * kKindW>>();
    const unsigned total = mix_[0] + mix_[1] + mix_[2];
    for (unsigned l = 0; l < L; ++l) {
      std::uint64_t e = rng.bits(kEpW), n = rng.bits(LenW), k = rng.bits(kKindW);  // garbage unless valid
      bool on = rng.chance(phase_.chaos ? phase_.load : phase_.load * 0.6);
      if (on) {
        e = (incast_ && !phase_.chaos) ? hot_ : rng.below(E);
        n = new_length(rng);
        const unsigned pick = total > 0 ? rng.below(total) : 0;
        k = phase_.chaos ? rng.below(3) : pick < mix_[0] ? kData : pick < mix_[0] + mix_[1] ? kSpec : kRes;
      }
      if (directed && c == 2) on = false;  // the departure at Q = 0 below must underflow
      if (directed && c == 3 && l == 0) {  // kind code 3: no kind
        on = true;
        k = kNoKind;
      }
      if (directed && c == 4 && l == 0 && kEpNone) {  // endpoint E: none (if the index can say it)
        on = true;
        e = E;
      }
      if (break_now && l == L - 1 && rng.chance(0.5)) {
        on = true;
        if (rng.chance(0.5) || !kEpNone) k = kNoKind;
        else e = E + rng.below((1u << kEpW) - E);
        break_now = false;
      }
      if (on && e < E && k < kNoKind) {
        const bool scheduled = k == kRes || (k == kSpec && qview[e] >= kThreshold && drops < slots);
        const std::uint64_t room = scheduled ? kMaxB - bview[e] : kMaxQ - qview[e];
        if (n > room) n = room;
        if (n == 0 && room == 0 && rng.chance(0.5)) on = false;
        if (on) {
          if (scheduled) bview[e] += n;
          else qview[e] += n;
          drops += k == kSpec && scheduled;
        }
      }
      vl::set(valid, l, 1, on);
      vl::set(ep, l * kEpW, kEpW, e);
      vl::set(len, l * LenW, LenW, n);
      vl::set(kind, l * kKindW, kKindW, k);
    }

    // Departures: the ejection port sends one flit per cycle; a tail leaves len cycles after its
    // head started. Chaos: any 0 .. Q[e] flits, often exactly Q[e].
    auto dv = vl::zero<vl::port_t<E>>();
    auto dl = vl::zero<vl::port_t<E * LenW>>();
    for (unsigned e = 0; e < E; ++e) {
      bool on = false;
      std::uint64_t n = rng.bits(LenW);  // garbage unless valid
      const std::uint64_t q = queued(e);
      if (phase_.chaos) {
        if (rng.chance(0.3)) {
          on = true;
          const std::uint64_t most = q < kMaxLen ? q : kMaxLen;
          n = rng.chance(0.4) ? most : rng.below(static_cast<std::uint32_t>(most + 1));
        }
      } else if (eject_left_[e] > 0) {
        if (--eject_left_[e] == 0 && !fifo_[e].empty()) {
          on = true;
          n = fifo_[e].front();
        }
      } else if (!fifo_[e].empty() && !rng.chance(phase_.stall)) {
        eject_left_[e] = fifo_[e].front() > 1 ? static_cast<std::uint32_t>(fifo_[e].front()) - 1 : 0;
        if (eject_left_[e] == 0) {
          on = true;
          n = fifo_[e].front();
        }
      }
      if (on && n > q) n = q;  // a chaos phase may have taken flits of the packet
      if (directed && c == 2 && e == 0) {  // departure at Q = 0 after the reset
        on = true;
        n = 1 + rng.below(static_cast<std::uint32_t>(kMaxLen));
      }
      if (break_now && rng.chance(0.5) && q < kMaxLen) {
        on = true;
        n = q + 1 + rng.below(static_cast<std::uint32_t>(kMaxLen - q));
        break_now = false;
      }
      vl::set(dv, e, 1, on);
      vl::set(dl, e * LenW, LenW, n);
    }

    auto now = vl::zero<vl::port_t<TW>>();
    vl::set(now, 0, TW, full_now_ & kTimeMask);
    auto sl = vl::zero<vl::port_t<kSlotW>>();
    vl::set(sl, 0, kSlotW, slots);
    now_.write(now);
    arr_valid_.write(valid);
    arr_ep_.write(ep);
    arr_len_.write(len);
    arr_kind_.write(kind);
    slots_.write(sl);
    dep_valid_.write(dv);
    dep_len_.write(dl);
  }

  void sampled() override {
    if (!rst_n.read()) return;
    const auto valid = arr_valid_.read();
    const auto ep = arr_ep_.read();
    const auto len = arr_len_.read();
    const auto kind = arr_kind_.read();
    const auto drop = m_drop_.read();
    const auto grant = m_grant_.read();
    const auto time = m_time_.read();
    const std::uint64_t now = vl::get(now_.read(), 0, TW);
    const std::uint64_t slots = vl::get(slots_.read(), 0, kSlotW);
    std::uint64_t added[E] = {}, scheduled[E] = {};
    unsigned drops = 0;
    bool spec_after_last_drop_kept = false;
    for (unsigned l = 0; l < L; ++l) {
      if (!vl::bit(valid, l)) continue;
      const auto e = static_cast<unsigned>(vl::get(ep, l * kEpW, kEpW));
      const auto k = static_cast<unsigned>(vl::get(kind, l * kKindW, kKindW));
      const std::uint64_t n = vl::get(len, l * LenW, LenW);
      ++cov_.lanes;
      if (e >= E || k >= 3) {
        cov_.bad_endpoint += e >= E;
        cov_.bad_kind += k >= 3;
        continue;
      }
      const bool d = vl::bit(drop, l), g = vl::bit(grant, l);
      const std::uint64_t t = vl::get(time, l * TW, TW);
      cov_.drops += d;
      cov_.grants += g;
      cov_.wrapped_times += (d || g) && t < now;
      cov_.future_times += (d || g) && t != now;
      if (k == kSpec) {
        const std::uint64_t q = queued(e) + added[e];
        cov_.spec_at_threshold += q == kThreshold;
        cov_.spec_below_threshold_by_one += q + 1 == kThreshold;
        if (!d && q >= kThreshold) {
          ++cov_.spec_kept_no_slot;
          spec_after_last_drop_kept = spec_after_last_drop_kept || drops == slots;
        }
      }
      drops += d;
      if (d || g) scheduled[e] += n;
      if (!d && !g) {
        fifo_[e].push_back(n);
        added[e] += n;
      }
    }
    cov_.slots_ran_out += spec_after_last_drop_kept && drops > 0;
    cov_.multi_drop_cycles += drops > 1;
    cov_.now_wraps += now == 0;
    const auto dv = dep_valid_.read();
    const auto dl = dep_len_.read();
    for (unsigned e = 0; e < E; ++e) {
      const std::uint64_t q = queued(e) + added[e];
      cov_.q_full += q == kMaxQ;
      cov_.b_full += backlog(e) + scheduled[e] == kMaxB;
      if (backlog(e) + scheduled[e] > cov_.max_backlog) cov_.max_backlog = backlog(e) + scheduled[e];
      if (!vl::bit(dv, e)) continue;
      const std::uint64_t n = vl::get(dl, e * LenW, LenW);
      ++cov_.departures;
      cov_.dep_equal_q += n == q && q > 0;
      cov_.underflows += n > q;
      if (n > q) {
        fifo_[e].clear();  // Q[e] becomes 0
        eject_left_[e] = 0;
      } else {
        consume(e, n);
      }
    }
  }

  std::string coverage() const override {
    return cosim::counts({{"lanes", cov_.lanes},
                          {"drops", cov_.drops},
                          {"grants", cov_.grants},
                          {"multi_drop_cycles", cov_.multi_drop_cycles},
                          {"spec_kept_no_slot", cov_.spec_kept_no_slot},
                          {"slots_ran_out_cycles", cov_.slots_ran_out},
                          {"spec_at_threshold", cov_.spec_at_threshold},
                          {"spec_at_threshold_minus_1", cov_.spec_below_threshold_by_one},
                          {"departures", cov_.departures},
                          {"dep_equal_q", cov_.dep_equal_q},
                          {"underflows", cov_.underflows},
                          {"lanes_no_endpoint", cov_.bad_endpoint},
                          {"lanes_no_kind", cov_.bad_kind},
                          {"q_full_endpoint_cycles", cov_.q_full},
                          {"backlog_full_endpoint_cycles", cov_.b_full},
                          {"max_backlog", cov_.max_backlog},
                          {"future_times", cov_.future_times},
                          {"wrapped_times", cov_.wrapped_times},
                          {"now_wraps", cov_.now_wraps}});
  }

  void trace_rtl(VerilatedFstSc* tfp) override { rtl_.trace(tfp, 99); }

  struct Coverage {
    std::uint64_t lanes = 0, drops = 0, grants = 0, multi_drop_cycles = 0, spec_kept_no_slot = 0, slots_ran_out = 0,
                  spec_at_threshold = 0, spec_below_threshold_by_one = 0, departures = 0, dep_equal_q = 0, q_full = 0,
                  b_full = 0, future_times = 0, wrapped_times = 0, now_wraps = 0, underflows = 0, bad_endpoint = 0,
                  bad_kind = 0, max_backlog = 0;
  } cov_;

  Sig<TW> now_{"now_i"};
  Sig<L> arr_valid_{"arr_valid_i"};
  Sig<L * kEpW> arr_ep_{"arr_endpoint_i"};
  Sig<L * LenW> arr_len_{"arr_len_i"};
  Sig<L * kKindW> arr_kind_{"arr_kind_i"};
  Sig<kSlotW> slots_{"nack_slots_i"};
  Sig<E> dep_valid_{"dep_valid_i"};
  Sig<E * LenW> dep_len_{"dep_len_i"};
  Sig<L> m_drop_{"model_drop_o"}, r_drop_{"rtl_drop_o"};
  Sig<L> m_grant_{"model_grant_o"}, r_grant_{"rtl_grant_o"};
  Sig<L * TW> m_time_{"model_time_o"}, r_time_{"rtl_time_o"};
  Sig<E * QW> m_queued_{"model_queued_o"}, r_queued_{"rtl_queued_o"};
  Sig<E * BW> m_backlog_{"model_backlog_o"}, r_backlog_{"rtl_backlog_o"};
  sc_core::sc_signal<bool> m_violation_{"model_violation_o"}, r_violation_{"rtl_violation_o"};
  sc_core::sc_signal<bool> m_error_{"model_error_o"}, r_error_{"rtl_error_o"};
  Model model_;
  typename Set::Rtl rtl_;
  cosim::Phase phase_;
  std::vector<std::deque<std::uint64_t>> fifo_;  // accepted packet lengths per endpoint (sum = Q[e])
  std::vector<std::uint32_t> eject_left_;        // cycles until the ejecting packet's tail leaves
  std::uint64_t full_now_ = 0;
  unsigned mix_[3] = {1, 1, 1};
  unsigned hot_ = 0;
  bool incast_ = false;
  unsigned slot_mode_ = 0;
};

}  // namespace

int sc_main(int argc, char* argv[]) {
  const cosim::Options opt = cosim::parse(argc, argv, "lhrp_scheduler");
  return cosim::dispatch<ccn_sets::lhrp_scheduler_sets, LhrpSchedulerBench>(opt);
}
